// A recording fake of the `electron` module for main-process unit tests (the binary cannot be downloaded here).
// Tests install it with `vi.mock('electron', () => import('../../fakes/electron-fake.js'))`: the one place a module
// mock is right, since the real module only exists inside the Electron binary.
import { EventEmitter } from 'node:events';

type Handler = (...args: unknown[]) => unknown;

/** A fake event whose default can be prevented, as Electron's navigation events are. */
export class FakeEvent {
  defaultPrevented = false;
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

export class FakeWebContents extends EventEmitter {
  static nextId = 1;
  readonly id = FakeWebContents.nextId++;
  windowOpenHandler: ((details: { url: string }) => { action: string }) | undefined;
  readonly sent: { channel: string; args: unknown[] }[] = [];
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  /** Emits an event the way Electron does (event first) and says whether its default was prevented. */
  fire(name: string, ...args: unknown[]): boolean {
    const event = new FakeEvent();
    this.emit(name, event, ...args);
    return event.defaultPrevented;
  }
}

export class BrowserWindow extends EventEmitter {
  static readonly created: BrowserWindow[] = [];
  static getAllWindows(): BrowserWindow[] {
    return BrowserWindow.created.filter((w) => !w.destroyed);
  }
  readonly webContents = new FakeWebContents();
  loadedUrl: string | undefined;
  shown = false;
  destroyed = false;
  constructor(readonly options: Record<string, unknown>) {
    super();
    BrowserWindow.created.push(this);
  }
  loadURL(url: string): Promise<void> {
    this.loadedUrl = url;
    return Promise.resolve();
  }
  show(): void {
    this.shown = true;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
}

export class FakeSession {
  permissionRequestHandler: Handler | undefined;
  permissionCheckHandler: Handler | undefined;
  setPermissionRequestHandler(handler: Handler): void {
    this.permissionRequestHandler = handler;
  }
  setPermissionCheckHandler(handler: Handler): void {
    this.permissionCheckHandler = handler;
  }
}
export const session = { defaultSession: new FakeSession() };

export const shell = {
  opened: [] as string[],
  openExternal(url: string): Promise<void> {
    shell.opened.push(url);
    return Promise.resolve();
  },
};

export const protocol = {
  privileged: [] as unknown[],
  handlers: new Map<string, (request: { url: string }) => Response>(),
  registerSchemesAsPrivileged(schemes: unknown[]): void {
    protocol.privileged.push(...schemes);
  },
  handle(scheme: string, handler: (request: { url: string }) => Response): void {
    protocol.handlers.set(scheme, handler);
  },
};

export const ipcMain = {
  handlers: new Map<string, Handler>(),
  handle(channel: string, handler: Handler): void {
    ipcMain.handlers.set(channel, handler);
  },
};

/** The renderer side, for the preload: what it exposed and what it invoked. */
export const contextBridge = {
  exposed: new Map<string, unknown>(),
  exposeInMainWorld(key: string, api: unknown): void {
    contextBridge.exposed.set(key, api);
  },
};
class FakeIpcRenderer extends EventEmitter {
  readonly invoked: { channel: string; args: unknown[] }[] = [];
  invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    this.invoked.push({ channel, args });
    return Promise.resolve(null);
  }
}
export const ipcRenderer = new FakeIpcRenderer();

export const nativeTheme = { shouldUseDarkColors: true };

class FakeApp extends EventEmitter {
  quitCalls = 0;
  private ready!: () => void;
  private readonly readyPromise = new Promise<void>((resolve) => (this.ready = resolve));
  whenReady(): Promise<void> {
    return this.readyPromise;
  }
  /** The test says when Electron is ready. */
  becomeReady(): void {
    this.ready();
  }
  quit(): void {
    this.quitCalls++;
  }
}
export const app = new FakeApp();

export const Menu = {
  applied: undefined as unknown,
  buildFromTemplate(template: unknown[]): { template: unknown[] } {
    return { template };
  },
  setApplicationMenu(menu: unknown): void {
    Menu.applied = menu;
  },
};
