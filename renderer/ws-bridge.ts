import type { BridgeMessage, BridgeMethod, BridgeParams, HacBridge, HostEvent } from './core-types.js';

/**
 * `window.hac` over one WebSocket, for `hac web`. Calls are sent in the order they are made, on one
 * socket, so the host sees them in that order (concurrent RPCs can reorder typed input); event batches arrive in
 * order on the same socket.
 */
export function connectWebSocketBridge(url: string): HacBridge {
  const socket = new WebSocket(url);
  const listeners = new Set<(events: HostEvent[]) => void>();
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  const outbox: string[] = [];
  let nextId = 1;
  let closed = false;

  socket.addEventListener('open', () => {
    for (const text of outbox.splice(0)) socket.send(text);
  });
  socket.addEventListener('message', (event: MessageEvent<string>) => {
    const message = JSON.parse(event.data) as BridgeMessage;
    if (message.type === 'events') {
      for (const listener of listeners) listener(message.events);
      return;
    }
    const call = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.type === 'result') call?.resolve(message.value);
    else call?.reject(new Error(message.message));
  });
  socket.addEventListener('close', () => {
    closed = true;
    for (const call of waiting.values()) call.reject(new Error('hac is no longer running.'));
    waiting.clear();
    const ended: HostEvent = { type: 'exit', hacEnded: true };
    for (const listener of listeners) listener([ended]);
  });

  const call = <M extends BridgeMethod>(method: M, params: BridgeParams[M]): Promise<unknown> => {
    if (closed) return Promise.reject(new Error('hac is no longer running.'));
    const id = nextId++;
    const text = JSON.stringify({ id, method, params });
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      if (socket.readyState === WebSocket.OPEN) socket.send(text);
      else outbox.push(text);
    });
  };

  return {
    submit: (text) => call('submit', { text }) as Promise<void>,
    interrupt: () => call('interrupt', {}) as ReturnType<HacBridge['interrupt']>,
    complete: (prefix) => call('complete', { prefix }) as Promise<string[]>,
    history: () => call('history', {}) as Promise<string[]>,
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
