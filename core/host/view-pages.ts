import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { nodeHttp } from '../node-builtins.js';
import type { ViewPolicy } from '../mcp/app-views.js';
import type { ViewConnection } from './view-connection.js';

/**
 * Views (MCP Apps) shown in a browser tab or a window's transcript: each in a page of its own, at an address with a
 * key. The page frames the view from an origin of its own (the view cannot reach the page, its key or another
 * view), sandboxed, its CSP sent as headers, and relays the view's messages to this hac over a loopback WebSocket.
 * The page is the view's host; hac's bridge answers it.
 *
 * The addresses are loopback ports (a browser, `hac web`), or a scheme the desktop app registers (`scheme://page-N`
 * and `scheme://view-N`, origins of their own that no other program on the machine can reach), its requests
 * answered by `respond`.
 */
export class ViewPages {
  private host: Server | undefined;
  private readonly pages = new Map<string, Page>();

  /** `onClose`: told when these pages are closed (the desktop app stops asking them for its scheme's requests). */
  constructor(
    private readonly scheme?: string,
    private readonly onClose?: () => void,
  ) {}

  /**
   * Serves a view (`open` connects to it; called again for each load of its page after the first, since a reloaded
   * view starts its conversation with hac afresh); resolves with the address of its page (the key in it) and the
   * ports it takes. `embedIn`: the origins of the window that frames the page in its transcript (the page then
   * drops its heading and tells that window its height and Escape); otherwise no page may frame it.
   */
  async show(
    open: () => Promise<ViewConnection>,
    embedIn: readonly string[] = [],
  ): Promise<{ url: string; ports: number[] }> {
    const view = await open();
    const host = await this.hostServer();
    const id = String(++pagesShown);
    const key = token();
    const sandbox = this.scheme
      ? undefined
      : await listen(
          nodeHttp.createServer((req, res) => reply(res, viewAnswer(page, req.headers.host, req.url))),
        );
    const page: Page = {
      view,
      open,
      used: false,
      key,
      viewKey: token(),
      pageOrigin: this.scheme ? `${this.scheme}://page-${id}` : origin(host),
      sandboxOrigin: this.scheme ? `${this.scheme}://view-${id}` : origin(sandbox!),
      socketUrl: `${origin(host).replace('http', 'ws')}/view/${id}?key=${key}`,
      sandbox,
      embedIn,
    };
    this.pages.set(id, page);
    const ports = [host, sandbox].flatMap((s) => (s ? [(s.address() as AddressInfo).port] : []));
    return { url: `${page.pageOrigin}/view/${id}?key=${key}`, ports };
  }

  /**
   * The answer to a request for `scheme://page-N/…` or `scheme://view-N/…` (the desktop app's protocol handler);
   * undefined when no page of these is N.
   */
  respond(address: string): Response | undefined {
    const url = new URL(address);
    const [, kind, id] = /^(page|view)-(\d+)$/.exec(url.host) ?? [];
    const page = this.scheme && url.protocol === `${this.scheme}:` ? this.pages.get(id ?? '') : undefined;
    if (!page) return undefined;
    const answer =
      kind === 'view'
        ? viewAnswer(page, url.host, url.pathname + url.search)
        : pageAnswer(
            page,
            url.pathname === `/view/${id}` && sameKey(url.searchParams.get('key') ?? '', page.key),
          );
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  }

  async close(): Promise<void> {
    for (const page of this.pages.values()) {
      await page.view.close();
      page.sandbox?.close();
    }
    this.pages.clear();
    this.host?.close();
    this.onClose?.();
  }

  private async hostServer(): Promise<Server> {
    if (this.host) return this.host;
    const server = nodeHttp.createServer((req, res) => {
      // Under a scheme of its own, the loopback server only carries the pages' sockets.
      const page = this.scheme ? undefined : this.pageOf(req);
      reply(res, pageAnswer(page, !!page && !!req.url?.startsWith('/view/')));
    });
    const sockets = new WebSocketServer({ noServer: true, maxPayload: 8 * 1024 * 1024 });
    server.on('upgrade', (req, socket, head) => {
      const page = this.pageOf(req);
      if (!page) return void socket.destroy();
      sockets.handleUpgrade(req, socket, head, (ws) => relay(page, ws));
    });
    this.host = await listen(server);
    return this.host;
  }

  /** The page a request names, when it holds that page's key and comes to this machine's own address. */
  private pageOf(req: IncomingMessage): Page | undefined {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const page = this.pages.get(url.pathname.split('/')[2] ?? '');
    if (!page || !this.host || req.headers.host !== new URL(origin(this.host)).host) return undefined;
    return sameKey(url.searchParams.get('key') ?? '', page.key) ? page : undefined;
  }
}

/** Pages are numbered across every ViewPages of the process (the desktop app's handler asks each window's). */
let pagesShown = 0;

/** What the page tells hac the view did that stops it (the sandbox has already refused it). */
const STOPPED_FOR = {
  navigated: 'it navigated away from its page',
  popup: 'it tried to open a pop-up window',
};

/** One load of a view's page, over its socket: the view's messages both ways, watched. */
function relay(page: Page, ws: WebSocket): void {
  // The newest load of the page is the view's (a reload's socket may come before the old one has closed).
  page.socket?.close();
  page.socket = ws;
  // A reload: the view starts over, with a bridge of its own. What it sends meanwhile waits for it, in order.
  const ready = page.used ? page.open().then((view) => (page.view = view)) : Promise.resolve(page.view);
  page.used = true;
  ready.then(
    (view) => {
      view.onSend((message) => ws.send(JSON.stringify(message)));
      // The view asked to fill the window: the page tells the window around it.
      view.onDisplayMode((mode) => ws.send(JSON.stringify({ hacView: 'display', mode })));
    },
    () => ws.close(),
  );
  const watch = new ViewWatch((reason) => {
    void ready.then((view) => view.stop(reason));
    ws.close();
  });
  ws.on('message', (data: Buffer) => {
    let message: unknown;
    try {
      message = JSON.parse(data.toString('utf8'));
    } catch {
      return; // not JSON: nothing a bridge reads
    }
    const { hacView, mode } = (message ?? {}) as { hacView?: unknown; mode?: unknown };
    if (hacView === 'displayed' && (mode === 'inline' || mode === 'fullscreen'))
      return void ready.then((view) => view.shown(mode));
    const stopped = hacView === 'navigated' || hacView === 'popup' ? STOPPED_FOR[hacView] : undefined;
    if (stopped) {
      watch.end();
      void ready.then((view) => view.stop(stopped));
      return void ws.close();
    }
    if (watch.allows(message)) void ready.then((view) => view.receive(message));
  });
  ws.on('close', () => {
    watch.end();
    if (page.socket === ws) page.socket = undefined;
    void ready.then((view) => view.close());
  });
}

/** A view that never says it has started in this long is stopped (tests shorten it with HAC_VIEW_START_MS). */
const START_MS = Number(process.env.HAC_VIEW_START_MS) || 10_000;
/** More messages than this in a second is a view gone wrong (a polling view sends a few). */
const MESSAGES_PER_SECOND = 100;

/** Watches one view's messages: it must start in time, and not flood hac. */
class ViewWatch {
  private readonly startTimer: NodeJS.Timeout;
  private second = 0;
  private inSecond = 0;
  private stopped = false;

  constructor(private readonly stop: (reason: string) => void) {
    this.startTimer = setTimeout(() => this.fail(`it did not start within ${START_MS / 1000} s`), START_MS);
  }

  allows(message: unknown): boolean {
    if (this.stopped) return false;
    if ((message as { method?: unknown } | null)?.method === 'ui/notifications/initialized')
      clearTimeout(this.startTimer);
    const now = Math.floor(Date.now() / 1000);
    if (now !== this.second) [this.second, this.inSecond] = [now, 0];
    if (++this.inSecond <= MESSAGES_PER_SECOND) return true;
    this.fail(`it sent more than ${MESSAGES_PER_SECOND} messages in a second`);
    return false;
  }

  end(): void {
    this.stopped = true;
    clearTimeout(this.startTimer);
  }

  private fail(reason: string): void {
    if (this.stopped) return;
    this.end();
    this.stop(reason);
  }
}

interface Page {
  /** The view's connection now (a reload of its page makes a new one with `open`). */
  view: ViewConnection;
  open: () => Promise<ViewConnection>;
  /** Whether `view` has served a load of the page already. */
  used: boolean;
  /** The page's key; the view never sees it. */
  key: string;
  /** The view's own key, in the frame's address (which the view can read). */
  viewKey: string;
  /** Where the page is served from, and the view (its own origin). */
  pageOrigin: string;
  sandboxOrigin: string;
  /** The view's own loopback server (none under a scheme). */
  sandbox: Server | undefined;
  /** The loopback socket the page relays the view's messages over. */
  socketUrl: string;
  /** The socket of the page's newest load. */
  socket?: WebSocket;
  /** The origins of the window whose transcript frames this page (none: a tab of its own). */
  embedIn: readonly string[];
}

/** Over SSH the page is on the far machine: the ports to forward to open it here. */
export function viewOverSsh(ports: number[]): string {
  return `Over SSH, forward its ports to open it here: ssh ${ports.map((p) => `-L ${p}:127.0.0.1:${p}`).join(' ')} …`;
}

const token = () => randomBytes(32).toString('base64url');
const origin = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const sameKey = (given: string, key: string) =>
  given.length === key.length && timingSafeEqual(Buffer.from(given), Buffer.from(key));

function listen(server: Server): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const refused: Answer = { status: 403, headers: {}, body: '' };
const html = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' };

function reply(res: ServerResponse, { status, headers, body }: Answer): void {
  res.writeHead(status, headers).end(body);
}

/** The page around a view (`allowed`: its address and key were checked), only framed by the window it is for. */
function pageAnswer(page: Page | undefined, allowed: boolean): Answer {
  if (!page || !allowed) return refused;
  const nonce = token();
  const ancestors = page.embedIn.length ? page.embedIn.join(' ') : "'none'";
  const socketOrigin = new URL(page.socketUrl).origin.replace('http', 'ws');
  return {
    status: 200,
    headers: {
      ...html,
      'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; frame-src ${page.sandboxOrigin}; connect-src ${socketOrigin}; frame-ancestors ${ancestors}`,
      ...(!page.embedIn.length && { 'x-frame-options': 'DENY' }),
    },
    body: hostPage(page, nonce),
  };
}

/** The view itself, on its own origin (`host`), with the CSP its resource declared (the extension's default otherwise). */
function viewAnswer(page: Page, host: string | undefined, path = '/'): Answer {
  const url = new URL(path, 'http://127.0.0.1');
  if (host !== new URL(page.sandboxOrigin).host || !sameKey(url.searchParams.get('key') ?? '', page.viewKey))
    return refused;
  return {
    status: 200,
    headers: { ...html, 'content-security-policy': viewCsp(page.view.policy) },
    body: withPopupGuard(page.view.html, page.pageOrigin),
  };
}

/**
 * The view's HTML with a first script that reports `window.open` to the page around it: the sandbox refuses pop-ups
 * silently, and the user should hear why the view stops. (Put after the doctype, which must come first.)
 */
function withPopupGuard(view: string, pageOrigin: string): string {
  const guard = `<script>window.open = () => { parent.postMessage({ hacView: 'popup' }, ${JSON.stringify(pageOrigin)}); return null; };</script>`;
  const doctype = /^\s*<!doctype[^>]*>/i.exec(view)?.[0] ?? '';
  return doctype + guard + view.slice(doctype.length);
}

/**
 * The view's Content-Security-Policy: its own inline code and styles, data: pictures, and only the origins it
 * declared for connections, resources, frames and its base address; nothing else leaves the page.
 */
export function viewCsp({ csp = {} }: ViewPolicy): string {
  // Each an origin (a `*.` subdomain wildcard at most): a bare `*`, a scheme alone or anything that could end the
  // directive is dropped.
  const isOrigin = /^(https?|wss?):\/\/(\*\.)?[\w-]+(\.[\w-]+)*(:\d+)?$/;
  const list = (domains: string[] | undefined) => (domains ?? []).filter((d) => isOrigin.test(d)).join(' ');
  const resources = list(csp.resourceDomains);
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resources}`,
    `style-src 'self' 'unsafe-inline' ${resources}`,
    `img-src 'self' data: ${resources}`,
    `font-src 'self' data: ${resources}`,
    `media-src 'self' data: ${resources}`,
    `connect-src ${list(csp.connectDomains) || "'none'"}`,
    `frame-src ${list(csp.frameDomains) || "'none'"}`,
    `base-uri ${list(csp.baseUriDomains) || "'none'"}`,
    "form-action 'none'",
  ]
    .map((d) => d.trim())
    .join('; ');
}

/** The page around a view: a titled, sandboxed frame and the relay between it and hac. */
function hostPage(page: Page, nonce: string): string {
  const title = escapeHtml(page.view.title);
  const frame = `${page.sandboxOrigin}/?key=${page.viewKey}`;
  const embedded = page.embedIn.length > 0;
  // The frame's height follows the view's size-changed notices, up to the window's height; framed in a window's
  // transcript, the page tells that window (and only it) the height, and that Escape was pressed.
  const script = `
const frame = document.getElementById('view');
const viewOrigin = ${JSON.stringify(page.sandboxOrigin)};
const embedders = ${JSON.stringify(page.embedIn)};
const tellWindow = (message) => { for (const origin of embedders) window.parent.postMessage(message, origin); };
addEventListener('keydown', (event) => { if (event.key === 'Escape') tellWindow({ hacView: 'escape' }); });
const socket = new WebSocket(${JSON.stringify(page.socketUrl)});
const status = document.getElementById('status');
socket.onmessage = (event) => {
  const message = JSON.parse(event.data);
  // hac's word for the window around (the view asked to fill it), not the view's.
  if (message && message.hacView === 'display') return tellWindow(message);
  frame.contentWindow?.postMessage(message, viewOrigin);
};
// The window around says how it shows the view now (the user's Full window or Escape): hac tells the view.
window.addEventListener('message', (event) => {
  if (event.source !== window.parent || !embedders.includes(event.origin)) return;
  const { hacView, mode } = event.data || {};
  if (hacView === 'displayed' && socket.readyState === WebSocket.OPEN)
    socket.send(JSON.stringify({ hacView, mode }));
});
socket.onclose = () => { status.textContent = 'hac has closed this view.'; };
window.addEventListener('message', (event) => {
  if (event.source !== frame.contentWindow || event.origin !== viewOrigin) return;
  const message = event.data;
  if (message && message.method === 'ui/notifications/size-changed' && typeof message.params?.height === 'number') {
    if (embedders.length) tellWindow({ hacView: 'size', height: Math.max(message.params.height, 60) });
    else frame.style.height = Math.min(Math.max(message.params.height, 60), window.innerHeight - 60) + 'px';
  }
  // A view may speak before the socket is open (its first ui/initialize): held until it is, never dropped.
  if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  else if (socket.readyState === WebSocket.CONNECTING) held.push(JSON.stringify(message));
});
const held = [];
socket.onopen = () => { for (const data of held.splice(0)) socket.send(data); };
// A view that loads anything after it has started navigated its own frame (away from its page and its CSP): it is
// taken away, and hac told.
let started = false;
window.addEventListener('message', (event) => {
  // Said after hac answered its ui/initialize, so after its own first load, never before it.
  if (event.source === frame.contentWindow && event.data && event.data.method === 'ui/notifications/initialized')
    started = true;
});
frame.addEventListener('load', () => {
  if (!started) return;
  frame.remove();
  const said = JSON.stringify({ hacView: 'navigated' });
  if (socket.readyState === WebSocket.OPEN) socket.send(said); else held.push(said);
});`;
  const style = embedded
    ? 'html,body{margin:0;height:100%;overflow:hidden;font:14px system-ui,sans-serif;background:transparent;color:inherit}iframe{display:block;width:100%;height:100%;border:0}#status:empty{display:none}#status{position:absolute;bottom:0;margin:0;padding:4px 8px;background:#333;color:#eee}'
    : 'body{margin:0;font:14px system-ui,sans-serif;background:#1e1e1e;color:#ddd}header{padding:8px 12px}iframe{display:block;width:100%;height:400px;border:0;background:#fff}#status{padding:8px 12px;color:#aaa}';
  const heading = embedded ? '' : `<header><h1 style="font-size:15px;margin:0">${title}</h1></header>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} — hac</title>
<style>${style}</style></head>
<body>${heading}
<iframe id="view" title="${title}" src="${frame}" sandbox="allow-scripts allow-same-origin"></iframe>
<p id="status" role="status"></p><script nonce="${nonce}">${script}</script></body></html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
