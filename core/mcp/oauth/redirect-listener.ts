import type { AddressInfo } from 'node:net';
import { nodeHttp } from '../../node-builtins.js';

const { createServer } = nodeHttp;

/** A browser's way back to hac after a sign-in: one use, on 127.0.0.1, a random port. */
export interface RedirectListener {
  redirectUrl: string;
  /** The authorization code, once the browser comes back with it (or the server's error). */
  code: Promise<string>;
  close(): void;
}

const PAGE = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title>` +
  `<body style="font:16px system-ui;margin:3em"><h1>${title}</h1><p>${text}</p></body>`;

/**
 * Listens for the authorization server's redirect. Only a request with the `state` this sign-in sent is
 * taken (anything else gets 400 and the listener keeps waiting), and the first one ends it.
 */
export async function listenForRedirect(expectedState: () => string | undefined): Promise<RedirectListener> {
  let settle!: { resolve(code: string): void; reject(error: Error): void };
  const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  code.catch(() => undefined); // a sign-in nobody waits for any more must not be an unhandled rejection
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const reply = (status: number, title: string, text: string) => {
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', connection: 'close' });
      response.end(PAGE(title, text));
    };
    if (url.pathname !== '/callback') return reply(404, 'Not found', 'This address only takes sign-ins.');
    const state = url.searchParams.get('state');
    if (!state || state !== expectedState())
      return reply(400, 'Stale sign-in', 'This sign-in link is not the one hac is waiting for. Start again.');
    const error = url.searchParams.get('error');
    const got = url.searchParams.get('code');
    if (error || !got) {
      reply(400, 'Sign-in failed', 'The server did not sign you in. You can close this tab.');
      settle.reject(new Error(url.searchParams.get('error_description') ?? error ?? 'no code came back'));
    } else {
      reply(200, 'Signed in', 'You can close this tab and go back to hac.');
      settle.resolve(got);
    }
    server.close();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    redirectUrl: `http://127.0.0.1:${port}/callback`,
    code,
    close() {
      server.close();
      server.closeAllConnections();
      settle.reject(new Error('the sign-in was stopped'));
    },
  };
}

/** A code pasted back by the user: the address the browser ended on, or the code itself. */
export function codeFromPaste(text: string, expectedState: string | undefined): string {
  const trimmed = text.trim();
  if (!/^https?:\/\//i.test(trimmed)) return trimmed;
  const url = new URL(trimmed);
  const error = url.searchParams.get('error');
  if (error) throw new Error(url.searchParams.get('error_description') ?? error);
  const state = url.searchParams.get('state');
  if (expectedState && state !== expectedState)
    throw new Error('that address is from another sign-in; start again with /mcp login');
  const code = url.searchParams.get('code');
  if (!code) throw new Error('that address has no code in it');
  return code;
}
