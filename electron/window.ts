import { BrowserWindow, nativeTheme, type WebPreferences } from 'electron';
import { APP_ORIGIN } from './app-protocol.js';
import { guardWebContents } from './guards.js';

/** Electron's security checklist as web preferences, every one stated (defaults change between Electron majors). */
export function chatWebPreferences(preload: string): WebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    spellcheck: false, // the IME's own candidates, not red underlines mid-composition
    safeDialogs: true,
  };
}

/**
 * A window with its own conversation: the page from `app://hac`, shown when painted (no white flash); `resume`
 * names a session the page opens in it.
 */
export function createChatWindow(preload: string, resume?: string): BrowserWindow {
  const window = new BrowserWindow({
    width: 1000,
    height: 700,
    minWidth: 480,
    minHeight: 320,
    title: 'hac',
    show: false,
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#1e1e1e' : '#ffffff',
    webPreferences: chatWebPreferences(preload),
  });
  guardWebContents(window.webContents);
  window.once('ready-to-show', () => window.show());
  const page = new URL(`${APP_ORIGIN}/index.html`);
  if (resume) page.searchParams.set('resume', resume);
  void window.loadURL(page.href);
  return window;
}
