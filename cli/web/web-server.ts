import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { nodeHttp } from '../../core/index.js';
import { pageCsp, pageFile } from '../../renderer/page-files.js';
import {
  BridgeSession,
  parseBridgeCall,
  type BridgeMessage,
  type InputHistory,
  type Logger,
  type RuntimeSource,
} from '../../core/index.js';

const COOKIE = 'hac_token';
/** The close code that answers a stopped tab's probe: `hac web` runs (renderer/ws-bridge.ts waits for it). */
const PROBE_ANSWER = 4000;
/** How long a tab's conversation waits for the tab to come back (a reload, a dropped connection). */
const KEEP_MS = 10 * 60 * 1000;

export interface WebServerOptions {
  port: number;
  rendererDir: string;
  runtime: RuntimeSource;
  history: InputHistory;
  logger: Logger;
  /** The key of the page's address (kept across restarts by the caller); a new random one if absent. */
  token?: string;
}

export interface WebServer {
  url: string;
  close(): Promise<void>;
}

/**
 * `hac web`: the desktop page and a WebSocket carrying its bridge, on 127.0.0.1 only. A random token
 * (256 bits, new each start) is required for the page and the socket; a wrong `Host` (DNS rebinding) or a
 * socket from another `Origin` gets 403 and nothing else.
 */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  // Read once, when first asked for (the fonts are megabytes, of which a page loads the slices it shows).
  const bodies = new Map<string, Buffer>();
  const read = (file: string) => {
    let body = bodies.get(file);
    if (!body) bodies.set(file, (body = readFileSync(path.join(options.rendererDir, file))));
    return body;
  };
  read('index.html'); // a missing build is said at start, not by the first page
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 32 * 1024 * 1024 }); // a 20 MB picture in base64
  let port = 0;

  const hosts = () => [`127.0.0.1:${port}`, `localhost:${port}`];
  const hasToken = (request: IncomingMessage, url: URL) =>
    same(url.searchParams.get('token'), token) || same(cookie(request, COOKIE), token);
  const allowed = (request: IncomingMessage, url: URL) =>
    hosts().includes(request.headers.host ?? '') && hasToken(request, url);

  const server = nodeHttp.createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (!allowed(request, url)) {
      // The page's own address without its token (a bookmark, a typed URL): say how to get in, and nothing more.
      const lost = url.pathname === '/' && hosts().includes(request.headers.host ?? '');
      return forbidden(response, lost ? HOW_TO_OPEN : 'Forbidden');
    }
    const file = request.method === 'GET' ? pageFile(url.pathname) : undefined;
    let body: Buffer | undefined;
    try {
      body = file && read(file.file);
    } catch {
      body = undefined; // a font slice the build did not write
    }
    if (!file || !body) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
      return;
    }
    response.writeHead(200, {
      'Content-Type': file.type,
      'Content-Security-Policy': csp(port),
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
      // The page's own files load without the token in their URL; the cookie carries it.
      'Set-Cookie': `${COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`,
    });
    response.end(body);
  });

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const origins = hosts().map((h) => `http://${h}`);
    if (url.pathname !== '/ws' || !allowed(request, url) || !origins.includes(request.headers.origin ?? '')) {
      socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => {
      // A tab of a `hac web` that stopped asks whether it runs again: yes, and no conversation is started for it.
      if (url.searchParams.has('probe')) return ws.close(PROBE_ANSWER, 'hac web is running');
      connect(ws, url.searchParams.get('chat'));
    });
  });

  /**
   * Each tab's conversation, by an id only that tab knows. A conversation outlives its socket for KEEP_MS, so a
   * reloaded page (or one whose connection dropped) reattaches to it and draws it again.
   */
  const kept = new Map<string, { chat: BridgeSession; socket?: WebSocket; expiry?: NodeJS.Timeout }>();
  const attached = () => [...kept.values()].filter((entry) => entry.socket).length;
  const forget = (id: string) => {
    const entry = kept.get(id);
    if (!entry) return;
    clearTimeout(entry.expiry);
    entry.chat.close();
    kept.delete(id);
  };

  const connect = (ws: WebSocket, asked: string | null) => {
    const send = (socket: WebSocket | undefined, message: BridgeMessage) =>
      socket?.send(JSON.stringify(message));
    // A conversation another live tab holds (a duplicated tab) is not taken over: that tab gets a new one. A
    // reloaded tab's old socket may still be closing: that one is taken over.
    const found = asked ? kept.get(asked) : undefined;
    const free = found && (!found.socket || found.socket.readyState !== found.socket.OPEN);
    const id = free ? asked! : randomBytes(16).toString('base64url');
    let entry = kept.get(id);
    if (entry) {
      clearTimeout(entry.expiry);
      entry.socket = ws;
      send(ws, { type: 'chat', id });
      send(ws, { type: 'events', events: entry.chat.replay(), replay: true });
      options.logger.info(`hac web: a tab reattached to its conversation (${attached()} open).`);
    } else {
      const chat: BridgeSession = new BridgeSession({
        runtime: options.runtime,
        history: options.history,
        sendEvents: (events) => send(kept.get(id)?.socket, { type: 'events', events }),
        pageOrigins: hosts().map((host) => `http://${host}`),
        // This tab's conversation ends (its page offers a new one); nothing a page does stops the server, which
        // ends from its own terminal (its conversations may belong to tabs that come back).
        onExit: () => {
          forget(id);
          options.logger.info(`hac web: a conversation ended (${attached()} open).`);
        },
      });
      entry = { chat, socket: ws };
      kept.set(id, entry);
      send(ws, { type: 'chat', id });
      options.logger.info(`hac web: a tab connected (${attached()} open).`);
      void chat.open();
    }
    const { chat } = entry;
    ws.on('message', (data: Buffer, isBinary) => {
      let raw: unknown;
      try {
        raw = isBinary ? undefined : JSON.parse(data.toString('utf8'));
      } catch {
        raw = undefined;
      }
      const parsed = parseBridgeCall(raw);
      if (!parsed.ok) {
        options.logger.warn(`hac web: refused a call: ${parsed.problem}`);
        return ws.close(1008, 'invalid call');
      }
      const { id: callId } = parsed.call;
      chat.call(parsed.call).then(
        (value) => send(ws, { type: 'result', id: callId, value: value ?? null }),
        (error: unknown) =>
          send(ws, {
            type: 'failure',
            id: callId,
            message: error instanceof Error ? error.message : String(error),
          }),
      );
    });
    ws.on('close', () => {
      const current = kept.get(id);
      if (current?.socket !== ws) return;
      current.socket = undefined;
      current.expiry = setTimeout(() => forget(id), KEEP_MS).unref();
      options.logger.info(`hac web: a tab closed (${attached()} open).`);
    });
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', resolve);
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    async close() {
      for (const id of [...kept.keys()]) forget(id);
      for (const client of sockets.clients) client.close(1001, 'hac is closing');
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The page's Content-Security-Policy, with the page's own WebSocket as the only connection it may make. */
function csp(port: number): string {
  return pageCsp(`ws://127.0.0.1:${port} ws://localhost:${port}`);
}

/** What the page's address says without its token. */
const HOW_TO_OPEN = [
  'This is hac web, but this address lacks its key.',
  '',
  'Open the address `hac web` printed when it started: http://127.0.0.1:<port>/?token=<token>.',
  'The token is new each time hac web starts; run `hac web` again for a new address.',
  '',
].join('\n');

function forbidden(response: ServerResponse, text: string): void {
  response.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8' }).end(text);
}

function same(given: string | null | undefined, expected: string): boolean {
  if (!given || given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

function cookie(request: IncomingMessage, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}
