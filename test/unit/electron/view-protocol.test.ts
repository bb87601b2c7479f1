import { describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import type { ViewConnection } from '../../../core/host/view-connection.js';

vi.mock('electron', () => import('../../fakes/electron-fake.js'));

const electron = await import('../../fakes/electron-fake.js');
const { registerAppScheme } = await import('../../../electron/app-protocol.js');
const { handleViewProtocol, answerViewRequest } = await import('../../../electron/view-protocol.js');

/** The front end's side of a view: what ViewPages serves and relays (the bridge behind it is tested elsewhere). */
function viewConnection(received: unknown[]): ViewConnection {
  return {
    title: 'View: apps/show-weather',
    html: '<!doctype html><p>the weather</p>',
    policy: { csp: { connectDomains: ['https://api.weather.example'] } },
    receive: (message) => void received.push(message),
    onSend: () => {},
    onDisplayMode: () => {},
    shown: () => {},
    stop: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}

describe('views in the desktop app: the hac-view: scheme', () => {
  it('is registered with app: in one call, as a standard, secure scheme', () => {
    registerAppScheme();
    const privileges = expect.objectContaining({ standard: true, secure: true }) as unknown;
    expect(electron.protocol.privileged).toEqual([
      { scheme: 'app', privileges },
      { scheme: 'hac-view', privileges },
    ]);
  });

  it('serves each view and the page around it from origins of their own, with their CSP, to their keys only', async () => {
    const makePages = await handleViewProtocol();
    const handle = electron.protocol.handlers.get('hac-view')!;
    const received: unknown[] = [];
    const pages = makePages();
    const { url, ports } = await pages.show(() => Promise.resolve(viewConnection(received)), ['app://hac']);
    const [, n, key] = /^hac-view:\/\/page-(\d+)\/view\/\1\?key=([\w-]{43})$/.exec(url) ?? [];
    expect(n, url).toBeDefined();
    // One loopback port, for the page's socket: neither the page nor the view is served from it.
    expect(ports).toHaveLength(1);
    expect((await fetch(`http://127.0.0.1:${ports[0]}/view/${n}?key=${key}`)).status).toBe(403);

    const page = handle({ url });
    expect(page.status).toBe(200);
    const pageCsp = page.headers.get('content-security-policy')!;
    expect(pageCsp).toContain(`frame-src hac-view://view-${n};`);
    expect(pageCsp).toContain(`connect-src ws://127.0.0.1:${ports[0]};`);
    expect(pageCsp).toContain('frame-ancestors app://hac');
    const html = await page.text();
    const frame = /src="(hac-view:\/\/view-\d+\/\?key=[\w-]+)"/.exec(html)![1]!;
    expect(html).toContain('sandbox="allow-scripts allow-same-origin"');
    expect(html).toContain('title="View: apps/show-weather"');
    // The view's address never holds the page's key (the view can read its own address).
    expect(frame).not.toContain(key);

    const view = handle({ url: frame });
    expect(view.status).toBe(200);
    expect(view.headers.get('content-security-policy')).toContain('connect-src https://api.weather.example;');
    // The view's own HTML, after the doctype a guard that reports pop-ups to its page (and only to it).
    expect(await view.text()).toMatch(
      new RegExp(
        `^<!doctype html><script>window\\.open = [^<]*"hac-view://page-${n}"[^<]*</script><p>the weather</p>$`,
      ),
    );

    // Wrong keys, the view's key at the page, the page's address under the view's host, another view: refused.
    expect(handle({ url: url.replace(key!, 'x'.repeat(43)) }).status).toBe(403);
    expect(handle({ url: frame.replace(/key=.*/, `key=${key}`) }).status).toBe(403);
    expect(handle({ url: url.replace('page-', 'view-') }).status).toBe(403);
    expect(handle({ url: frame.replace('view-', 'page-') }).status).toBe(403);
    expect(handle({ url: `hac-view://view-${Number(n) + 1}/?key=x` }).status).toBe(404);

    // The page's socket relays the view's messages to hac.
    const socket = new WebSocket(`ws://127.0.0.1:${ports[0]}/view/${n}?key=${key}`);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: {} }));
    await vi.waitFor(() => expect(received).toEqual([expect.objectContaining({ method: 'ui/initialize' })]));
    socket.close();

    // Once the window's pages close, nothing of them is served.
    await pages.close();
    expect(answerViewRequest(url).status).toBe(404);
    expect(answerViewRequest(frame).status).toBe(404);
  });
});
