import type { AddressInfo } from 'node:net';
import { nodeHttp } from '../../node-builtins.js';

const { createServer } = nodeHttp;

/**
 * What came back from a sign-in: the redirect's parameters (`code`, and `iss` from an authorization server that
 * follows RFC 9207, which the SDK checks), or a bare code the user pasted.
 */
export type AuthorizationResponse = URLSearchParams | string;

/** A browser's way back to hac after a sign-in: one use, on 127.0.0.1, a random port. */
export interface RedirectListener {
  redirectUrl: string;
  /** The redirect's parameters, once the browser comes back with a code (or the server's error). */
  response: Promise<AuthorizationResponse>;
  /** Answers the browser's page once hac has traded the code for tokens (or says what went wrong). */
  done(outcome: { ok: true } | { ok: false; reason: string }): void;
  close(): void;
}

/** How long the browser's page waits for hac to say how the sign-in ended. */
const PAGE_WAIT_MS = 30_000;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const PAGE = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title>` +
  `<body style="font:16px system-ui;margin:3em"><h1>${title}</h1><p>${escapeHtml(text)}</p></body>`;

/**
 * Listens for the authorization server's redirect. Only a request with the `state` this sign-in sent is taken
 * (anything else gets 400, is logged by the caller, and the listener keeps waiting). The browser's page stays
 * open until hac holds a token: it says "Signed in" only then, and what went wrong otherwise.
 */
export async function listenForRedirect(
  expectedState: () => string | undefined,
  onRefused: (why: string) => void = () => undefined,
): Promise<RedirectListener> {
  let settle!: { resolve(response: AuthorizationResponse): void; reject(error: Error): void };
  const response = new Promise<AuthorizationResponse>((resolve, reject) => (settle = { resolve, reject }));
  response.catch(() => undefined); // a sign-in nobody waits for any more must not be an unhandled rejection
  let answer: ((outcome: { ok: true } | { ok: false; reason: string }) => void) | undefined;
  const server = createServer((request, reply) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const page = (status: number, title: string, text: string) => {
      reply.writeHead(status, { 'content-type': 'text/html; charset=utf-8', connection: 'close' });
      reply.end(PAGE(title, text));
    };
    if (url.pathname !== '/callback') return page(404, 'Not found', 'This address only takes sign-ins.');
    const state = url.searchParams.get('state');
    if (!state || state !== expectedState()) {
      onRefused(state ? 'its state is not the one this sign-in sent' : 'it has no state');
      return page(400, 'Stale sign-in', 'This sign-in link is not the one hac is waiting for. Start again.');
    }
    server.close();
    if (url.searchParams.get('error') || !url.searchParams.get('code')) {
      page(400, 'Sign-in failed', 'The server did not sign you in. hac says why; you can close this tab.');
      // The whole callback still goes to the SDK: it checks `iss` before an error's text is believed.
      return settle.resolve(url.searchParams);
    }
    const timer = setTimeout(
      () => page(200, 'Sign-in sent to hac', 'hac is finishing the sign-in; it says how it went.'),
      PAGE_WAIT_MS,
    );
    answer = (outcome) => {
      clearTimeout(timer);
      if (reply.headersSent) return;
      if (outcome.ok) page(200, 'Signed in', 'You can close this tab and go back to hac.');
      else page(400, 'Sign-in failed', `${outcome.reason} You can close this tab.`);
    };
    settle.resolve(url.searchParams);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    redirectUrl: `http://127.0.0.1:${port}/callback`,
    response,
    done: (outcome) => answer?.(outcome),
    close() {
      answer?.({ ok: false, reason: 'The sign-in was stopped.' });
      server.close();
      server.closeAllConnections();
      settle.reject(new Error('the sign-in was stopped'));
    },
  };
}

/**
 * What the user pasted back: the address the browser ended on (its parameters, `iss` included, go to the SDK
 * whole) or the code itself.
 */
export function responseFromPaste(text: string, expectedState: string | undefined): AuthorizationResponse {
  const trimmed = text.trim();
  if (!/^https?:\/\//i.test(trimmed)) return trimmed;
  const url = new URL(trimmed);
  const state = url.searchParams.get('state');
  if (expectedState && state !== expectedState)
    throw new Error('that address is from another sign-in; start again with /mcp login');
  if (!url.searchParams.get('code') && !url.searchParams.get('error'))
    throw new Error('that address has no code in it');
  return url.searchParams;
}
