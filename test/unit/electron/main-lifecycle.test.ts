import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

// main.ts wires the pieces: this drives it with the fake electron module and a temp home.
vi.mock('electron', () => import('../../fakes/electron-fake.js'));
vi.mock('electron-log/main', () => ({
  default: { transports: { file: {}, console: {} }, errorHandler: { startCatching() {} }, warn() {} },
}));

const home = mkdtempSync(path.join(os.tmpdir(), 'hac-main-'));
writeFileSync(
  path.join(home, 'config.json'),
  JSON.stringify({ models: [{ name: 'm', provider: 'openai', apiKey: 'sk-unused-0000', active: true }] }),
);
process.env.HAC_HOME = home;
afterAll(() => rmSync(home, { recursive: true, force: true }));

const electron = await import('../../fakes/electron-fake.js');

describe('the main process', () => {
  it('registers app:// before ready; when ready, guards, serves, and opens one window; Ctrl/Cmd+N opens another; the last closed quits', async () => {
    await import('../../../electron/main.js');
    expect(electron.protocol.privileged).toContainEqual(expect.objectContaining({ scheme: 'app' }));
    expect(electron.BrowserWindow.created).toHaveLength(0);
    electron.app.becomeReady();
    await vi.waitFor(() => expect(electron.BrowserWindow.created).toHaveLength(1));
    expect(electron.protocol.handlers.has('app')).toBe(true);
    expect(electron.protocol.handlers.has('hac-view')).toBe(true);
    expect(electron.ipcMain.handlers.has('hac:call')).toBe(true);
    const decided = vi.fn();
    electron.session.defaultSession.permissionRequestHandler!({}, 'media', decided);
    expect(decided).toHaveBeenCalledWith(false);
    const [first] = electron.BrowserWindow.created;
    expect(first!.loadedUrl).toBe('app://hac/index.html');

    // Every web contents is guarded as it is created.
    const other = new electron.FakeWebContents();
    electron.app.emit('web-contents-created', {}, other);
    expect(other.fire('will-navigate', 'https://evil.example/')).toBe(true);

    // File > New Window (CmdOrCtrl+N).
    const template = (
      electron.Menu.applied as { template: { submenu?: { accelerator?: string; click?: () => void }[] }[] }
    ).template;
    const newWindow = template.flatMap((m) => m.submenu ?? []).find((i) => i.accelerator === 'CmdOrCtrl+N')!;
    newWindow.click!();
    expect(electron.BrowserWindow.created).toHaveLength(2);

    // The page loaded: the window's conversation starts and its events reach the page.
    first!.webContents.emit('did-finish-load');
    await vi.waitFor(() =>
      expect(first!.webContents.sent.some((s) => s.channel === 'hac:events')).toBe(true),
    );

    // A reload keeps the conversation: the page is sent what it showed, marked as a replay, and no second one opens.
    const before = first!.webContents.sent.length;
    first!.webContents.emit('did-finish-load');
    const replay = first!.webContents.sent.slice(before).find((s) => s.args[1] === true);
    expect(replay?.channel).toBe('hac:events');
    expect((replay!.args[0] as { type: string }[]).map((e) => e.type)).toContain('status');

    // The session list's "New window" asks through the bridge: a window that resumes that session opens.
    const call = electron.ipcMain.handlers.get('hac:call')!;
    const from = { senderFrame: { parent: null, url: 'app://hac/index.html' }, sender: first!.webContents };
    const resume = '2026-11-28T09-00-00 hello.json';
    await call(from, { id: 1, method: 'openWindow', params: { resume } });
    expect(electron.BrowserWindow.created).toHaveLength(3);
    const opened = new URL(electron.BrowserWindow.created[2]!.loadedUrl!);
    expect(`${opened.protocol}//${opened.host}${opened.pathname}`).toBe('app://hac/index.html');
    expect(opened.searchParams.get('resume')).toBe(resume);
    // A name that is not a session file is refused before anything opens.
    const refused = Promise.resolve().then(() =>
      call(from, { id: 2, method: 'openWindow', params: { resume: '../x.json' } }),
    );
    await expect(refused).rejects.toThrow(/Refused/);
    expect(electron.BrowserWindow.created).toHaveLength(3);

    for (const window of electron.BrowserWindow.created) {
      window.destroyed = true;
      window.emit('closed');
    }
    electron.app.emit('window-all-closed');
    if (process.platform !== 'darwin') await vi.waitFor(() => expect(electron.app.quitCalls).toBe(1));
  });
});
