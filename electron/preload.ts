// The page's only door to the app: one object, `window.hac`, with named methods over one ordered IPC
// channel. Never ipcRenderer itself, never a generic send.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { BridgeMethod, BridgeParams, HacBridge, HostEvent } from '../core/browser.js';
import { CALL_CHANNEL, EVENTS_CHANNEL } from './channels.js';

let nextId = 1;
const call = <M extends BridgeMethod>(method: M, params: BridgeParams[M]): Promise<unknown> =>
  ipcRenderer.invoke(CALL_CHANNEL, { id: nextId++, method, params });

const bridge: HacBridge = {
  submit: (text) => call('submit', { text }) as Promise<void>,
  interrupt: () => call('interrupt', {}) as ReturnType<HacBridge['interrupt']>,
  complete: (prefix) => call('complete', { prefix }) as Promise<string[]>,
  history: () => call('history', {}) as Promise<string[]>,
  openLink: (url) => call('openLink', { url }) as Promise<void>,
  attach: (name, data) => call('attach', { name, data }) as Promise<boolean>,
  detach: (index) => call('detach', { index }) as Promise<void>,
  answerForm: (answer) => call('answerForm', answer) as Promise<boolean>,
  sessions: (query) => call('sessions', { query }) as ReturnType<HacBridge['sessions']>,
  manageSession: (request) => call('manageSession', request) as Promise<string>,
  downloadSession: (name, format) =>
    call('downloadSession', { name, format }) as ReturnType<HacBridge['downloadSession']>,
  openWindow: (resume) => call('openWindow', { resume }) as Promise<void>,
  showView: (number, theme) => call('showView', { number, theme }) as ReturnType<HacBridge['showView']>,
  onEvents(listener) {
    const forward = (_event: IpcRendererEvent, events: HostEvent[], replay?: boolean) =>
      listener(events, replay === true);
    ipcRenderer.on(EVENTS_CHANNEL, forward);
    return () => void ipcRenderer.removeListener(EVENTS_CHANNEL, forward);
  },
};

contextBridge.exposeInMainWorld('hac', bridge);
