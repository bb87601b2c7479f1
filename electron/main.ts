// The Electron main process: one shared runtime (config, MCP pool, log), a window per conversation.
import path from 'node:path';
import { app, BrowserWindow, Menu, session, type MenuItemConstructorOptions } from 'electron';
import log from 'electron-log/main';
import { BridgeSession, createInputHistory, hacPaths, sharedRuntime, type ViewPages } from '../core/index.js';
import { APP_ORIGIN, handleAppProtocol, registerAppScheme } from './app-protocol.js';
import { EVENTS_CHANNEL } from './channels.js';
import { denyPermissions, guardWebContents, openExternalLink } from './guards.js';
import { registerBridgeHandlers } from './ipc.js';
import { handleViewProtocol } from './view-protocol.js';
import { createChatWindow } from './window.js';

const paths = hacPaths();
// Main's own errors go to the CLI's daily log (the runtime logs everything else there itself).
log.transports.file.resolvePathFn = () =>
  path.join(paths.logs, `application-hac-${new Date().toISOString().slice(0, 10)}.log`);
log.transports.console.level = false;
log.errorHandler.startCatching();

registerAppScheme();
let runtime = sharedRuntime({ views: true });
const history = createInputHistory(paths.history, (e) => log.warn(`History not saved: ${String(e)}`));
const sessions = new Map<number, BridgeSession>();
const preload = path.join(import.meta.dirname, 'preload.cjs');
const rendererDir = path.join(import.meta.dirname, '../renderer');
/** Each window's view pages (MCP Apps), under hac's own scheme: set once Electron is ready. */
let makeViewPages: (() => ViewPages) | undefined;

function openWindow(resume?: string): void {
  const window = createChatWindow(preload, resume);
  const id = window.webContents.id;
  const chat = new BridgeSession({
    runtime,
    history,
    sendEvents: (events) => {
      if (!window.isDestroyed()) window.webContents.send(EVENTS_CHANNEL, events);
    },
    onExit: () => window.close(), // `/exit` closes this window; the last one closes the rest (below)
    openLink: async (url) => void (await openExternalLink(url)),
    openWindow, // the session list's "New window"
    pageOrigins: [APP_ORIGIN],
    makeViewPages,
  });
  sessions.set(id, chat);
  // The first load opens the conversation; a reload (Ctrl+R, View > Reload) draws it again and goes on with it.
  let opened = false;
  window.webContents.on('did-finish-load', () => {
    if (opened) return window.webContents.send(EVENTS_CHANNEL, chat.replay(), true);
    opened = true;
    void chat.open();
  });
  window.on('closed', () => {
    chat.close();
    sessions.delete(id);
  });
}

function menu(): Menu {
  const template: MenuItemConstructorOptions[] = [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        { label: 'New Window', accelerator: 'CmdOrCtrl+N', click: () => openWindow() },
        { role: process.platform === 'darwin' ? 'close' : 'quit' },
      ],
    },
    { role: 'editMenu' },
    { role: 'viewMenu' },
  ];
  return Menu.buildFromTemplate(template);
}

app.on('web-contents-created', (_event, contents) => guardWebContents(contents));

void app.whenReady().then(async () => {
  handleAppProtocol(rendererDir);
  makeViewPages = await handleViewProtocol();
  denyPermissions(session.defaultSession);
  registerBridgeHandlers(
    (id) => sessions.get(id),
    () => runtime.current()?.logger,
  );
  Menu.setApplicationMenu(menu());
  openWindow();
});

// Closing the last window closes MCP sessions and quits; on macOS the app stays in the dock, as apps
// do there, and the next window starts a fresh runtime.
app.on('window-all-closed', () => {
  const closing = runtime.current()?.close() ?? Promise.resolve();
  runtime = sharedRuntime({ views: true });
  void closing.finally(() => {
    if (process.platform !== 'darwin') app.quit();
  });
});
app.on('activate', () => {
  if (BrowserWindow.getAllWindows().length === 0) openWindow();
});
