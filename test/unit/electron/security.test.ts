import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => import('../../fakes/electron-fake.js'));

const electron = await import('../../fakes/electron-fake.js');
const { chatWebPreferences, createChatWindow } = await import('../../../electron/window.js');
const { denyPermissions, guardWebContents, openExternalLink } = await import('../../../electron/guards.js');
const { safeExternalUrl } = await import('../../../electron/links.js');
const { registerAppScheme, serveRendererFile, handleAppProtocol } =
  await import('../../../electron/app-protocol.js');

beforeEach(() => {
  electron.shell.opened.length = 0;
});

describe('R-DESK-4: the window', () => {
  it('states every security preference', () => {
    expect(chatWebPreferences('/app/preload.cjs')).toMatchObject({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
    });
  });

  it('loads the page from app://hac, never file://, and shows it once painted', () => {
    const window = createChatWindow('/app/preload.cjs') as unknown as InstanceType<
      typeof electron.BrowserWindow
    >;
    expect(window.loadedUrl).toBe('app://hac/index.html');
    expect(window.options.webPreferences).toEqual(chatWebPreferences('/app/preload.cjs'));
    expect(window.shown).toBe(false);
    window.emit('ready-to-show');
    expect(window.shown).toBe(true);
    // Its contents are guarded from the start.
    expect(window.webContents.fire('will-navigate', 'https://evil.example/')).toBe(true);
  });
});

describe('R-DESK-4: navigation, new windows, webviews and permissions', () => {
  it('denies navigation, redirects and webviews', () => {
    const contents = new electron.FakeWebContents();
    guardWebContents(contents as never);
    expect(contents.fire('will-navigate', 'https://evil.example/')).toBe(true);
    expect(contents.fire('will-redirect', 'https://evil.example/')).toBe(true);
    expect(contents.fire('will-attach-webview', {}, {})).toBe(true);
  });

  it('denies window.open; an http(s) link goes to the system browser instead', async () => {
    const contents = new electron.FakeWebContents();
    guardWebContents(contents as never);
    expect(contents.windowOpenHandler!({ url: 'https://example.com/docs' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    await Promise.resolve();
    expect(electron.shell.opened).toEqual(['https://example.com/docs']);
  });

  it('denies every permission but writing copied text to the clipboard', () => {
    const session = new electron.FakeSession();
    denyPermissions(session as never);
    for (const permission of [
      'media',
      'geolocation',
      'notifications',
      'openExternal',
      'clipboard-read',
      'hid',
    ]) {
      const decided = vi.fn();
      session.permissionRequestHandler!({}, permission, decided);
      expect(decided, permission).toHaveBeenCalledWith(false);
      expect(session.permissionCheckHandler!({}, permission)).toBe(false);
    }
    const decided = vi.fn();
    session.permissionRequestHandler!({}, 'clipboard-sanitized-write', decided);
    expect(decided).toHaveBeenCalledWith(true);
  });
});

describe('R-DESK-4: links open only for http(s)', () => {
  it.each([
    ['https://example.com/a?b=c', 'https://example.com/a?b=c'],
    ['http://localhost:8080/', 'http://localhost:8080/'],
    ['file:///etc/passwd', undefined],
    ['javascript:alert(1)', undefined],
    ['smb://server/share', undefined],
    ['ms-settings:privacy', undefined],
    ['https://user:pass@example.com/', undefined],
    ['not a url', undefined],
    [`https://example.com/${'a'.repeat(3000)}`, undefined],
  ])('%s', async (url, expected) => {
    expect(safeExternalUrl(url)).toBe(expected);
    expect(await openExternalLink(url)).toBe(expected !== undefined);
    expect(electron.shell.opened).toEqual(expected ? [expected] : []);
  });
});

describe('R-DESK-4: the app:// protocol', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hac-renderer-'));
  for (const file of ['index.html', 'renderer.js', 'styles.css', 'xterm.css'])
    writeFileSync(path.join(dir, file), `/* ${file} */`);
  writeFileSync(path.join(os.tmpdir(), 'secret.txt'), 'secret');
  mkdirSync(path.join(dir, 'fonts'));
  writeFileSync(path.join(dir, 'fonts', 'grid-1-400-normal.woff2'), 'wOF2');

  it('is registered as a standard, secure scheme', () => {
    registerAppScheme();
    expect(electron.protocol.privileged).toContainEqual({
      scheme: 'app',
      privileges: expect.objectContaining({ standard: true, secure: true }) as unknown,
    });
  });

  it('serves the page with the CSP and nosniff', async () => {
    const response = serveRendererFile(dir, 'app://hac/index.html');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'none'; frame-src http://127.0.0.1:* hac-view:",
    );
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toBe('/* index.html */');
  });

  it.each([
    'app://hac/../secret.txt',
    'app://hac/%2e%2e/secret.txt',
    'app://hac/..%2fsecret.txt',
    'app://other/index.html',
    'app://hac/package.json',
    'app://hac/dist/cli/hac.mjs',
    'app://hac/fonts/%2e%2e%2fsecret.txt',
    'app://hac/fonts/missing-400-normal.woff2',
    'app://hac/fonts/grid-1-400-normal.woff',
  ])('answers 404 for %s', (url) => {
    expect(serveRendererFile(dir, url).status).toBe(404);
  });

  it("serves the page's font slices as fonts", async () => {
    const response = serveRendererFile(dir, 'app://hac/fonts/grid-1-400-normal.woff2');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('font/woff2');
    expect(await response.text()).toBe('wOF2');
  });

  it('handles every app: request through the same function', async () => {
    handleAppProtocol(dir);
    const handler = electron.protocol.handlers.get('app')!;
    expect(await handler({ url: 'app://hac/renderer.js' }).text()).toBe('/* renderer.js */');
  });
});
