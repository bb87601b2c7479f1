import type { BridgeMessage, BridgeMethod, BridgeParams, HacBridge, HostEvent } from './core-types.js';

/** Where the tab keeps the id of its conversation: a reload reattaches to it (sessionStorage is per tab). */
const CHAT_KEY = 'hac-chat';
/** Tries to reconnect after a dropped connection, before the page says hac has ended (about 1.75 s in all). */
const RECONNECTS = 3;
/** Then, how often the page asks whether `hac web` is back (restarted on the same port). */
const PROBE_MS = 2_000;
/** The close code of a probe's socket when `hac web` is running (cli/web/web-server.ts). */
const PROBE_ANSWER = 4000;

/**
 * `window.hac` over one WebSocket, for `hac web`. Calls are sent in the order they are made, on one socket, so
 * the host sees them in that order (concurrent RPCs can reorder typed input); events arrive in order on the same
 * socket. A reload or a dropped connection reattaches to the tab's conversation, which the host then replays.
 * When `hac web` has stopped, the page asks every few seconds whether it is back (a restart on the same port, with
 * the same key) and then calls `onBack`.
 */
export function connectWebSocketBridge(url: string, onBack: () => void): HacBridge {
  const listeners = new Set<(events: HostEvent[], replay?: boolean) => void>();
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  const outbox: string[] = [];
  let socket: WebSocket | undefined;
  let nextId = 1;
  let closed = false;
  let conversationEnded = false;
  let reconnects = 0;
  const tell = (events: HostEvent[], replay?: boolean) => {
    for (const listener of listeners) listener(events, replay);
  };

  const connect = () => {
    const chat = sessionStorage.getItem(CHAT_KEY);
    socket = new WebSocket(chat ? `${url}&chat=${encodeURIComponent(chat)}` : url);
    const opened = socket;
    opened.addEventListener('open', () => {
      reconnects = 0;
      for (const text of outbox.splice(0)) opened.send(text);
    });
    opened.addEventListener('message', (event: MessageEvent<string>) => {
      const message = JSON.parse(event.data) as BridgeMessage;
      if (message.type === 'chat') return sessionStorage.setItem(CHAT_KEY, message.id);
      if (message.type === 'events') {
        if (message.events.some((e) => e.type === 'exit')) conversationEnded = true;
        return tell(message.events, message.replay);
      }
      const call = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.type === 'result') call?.resolve(message.value);
      else call?.reject(new Error(message.message));
    });
    opened.addEventListener('close', () => {
      for (const call of waiting.values()) call.reject(new Error('hac is no longer running.'));
      waiting.clear();
      if (!conversationEnded && reconnects < RECONNECTS) {
        reconnects++;
        setTimeout(connect, 125 * 2 ** reconnects);
        return;
      }
      closed = true;
      tell([{ type: 'exit', hacEnded: true }]);
      if (!conversationEnded) probe();
    });
  };
  // A socket that only asks: the host closes it at once with PROBE_ANSWER, and starts no conversation for it.
  const probe = () => {
    const asking = new WebSocket(`${url}&probe=1`);
    asking.addEventListener('close', (event) => {
      if (event.code !== PROBE_ANSWER) return void setTimeout(probe, PROBE_MS);
      sessionStorage.removeItem(CHAT_KEY); // that conversation ended with the process before
      onBack();
    });
  };
  // After the page has drawn: the first touch of sessionStorage can block for tens of milliseconds.
  setTimeout(connect, 0);

  const call = <M extends BridgeMethod>(method: M, params: BridgeParams[M]): Promise<unknown> => {
    if (closed) return Promise.reject(new Error('hac is no longer running.'));
    const id = nextId++;
    const text = JSON.stringify({ id, method, params });
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      if (socket?.readyState === WebSocket.OPEN) socket.send(text);
      else outbox.push(text);
    });
  };

  return {
    submit: (text) => call('submit', { text }) as Promise<void>,
    interrupt: () => call('interrupt', {}) as ReturnType<HacBridge['interrupt']>,
    complete: (prefix) => call('complete', { prefix }) as Promise<string[]>,
    history: () => call('history', {}) as Promise<string[]>,
    attach: (name, data) => call('attach', { name, data }) as Promise<boolean>,
    detach: (index) => call('detach', { index }) as Promise<void>,
    answerForm: (answer) => call('answerForm', answer) as Promise<boolean>,
    sessions: (query) => call('sessions', { query }) as ReturnType<HacBridge['sessions']>,
    manageSession: (request) => call('manageSession', request) as Promise<string>,
    downloadSession: (name, format) =>
      call('downloadSession', { name, format }) as ReturnType<HacBridge['downloadSession']>,
    showView: (number, theme) => call('showView', { number, theme }) as ReturnType<HacBridge['showView']>,
    // A session in a window of its own is a new tab of this page, which resumes it (main.ts).
    openWindow(resume) {
      const url = new URL(location.href);
      url.searchParams.set('resume', resume);
      window.open(url.href, '_blank', 'noopener');
      return Promise.resolve();
    },
    // In a browser the page opens links itself, in a new tab that cannot reach back into this one.
    openLink: (url) => {
      if (/^https?:\/\//i.test(url)) window.open(url, '_blank', 'noopener,noreferrer');
      return Promise.resolve();
    },
    onEvents(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
