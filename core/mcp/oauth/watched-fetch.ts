import type { HacOAuthProvider } from './oauth-provider.js';

/**
 * fetch for a remote server's requests and its sign-in. It tells the sign-in when the server refuses a token hac
 * sent (see `tokenRefused`), and turns a web page from the token or registration endpoint (a proxy's error page,
 * a captive portal) into one line naming that endpoint and its answer, where the SDK would report a JSON error.
 */
export function watchedFetch(provider: HacOAuthProvider): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (response.status === 401 && new Headers(init?.headers).has('authorization'))
      await provider.tokenRefused();
    const url = input instanceof Request ? input.url : String(input);
    const endpoint = provider.endpointAt(url);
    if (endpoint && response.headers.get('content-type')?.includes('text/html')) {
      await response.body?.cancel();
      const answer = `${response.status} ${response.statusText}`.trim();
      throw new Error(
        `its ${endpoint.name} ${url} answered ${answer} with a web page, not ${endpoint.expected}`,
      );
    }
    return response;
  };
}
