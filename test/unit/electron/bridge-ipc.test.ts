import { afterEach, describe, expect, it, vi } from 'vitest';
import { BridgeSession } from '../../../core/host/bridge-session.js';
import type { HostEvent } from '../../../core/types/host-event.js';
import { ControllerHarness } from '../../helpers/controller-harness.js';

vi.mock('electron', () => import('../../fakes/electron-fake.js'));

const electron = await import('../../fakes/electron-fake.js');
const { registerBridgeHandlers, isTrustedSender } = await import('../../../electron/ipc.js');
const { CALL_CHANNEL, EVENTS_CHANNEL } = await import('../../../electron/channels.js');

const harnesses: ControllerHarness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
});

const mainFrame = (url: string) => ({ url, parent: null });

describe('IPC: every call checked and validated (R-DESK-4)', () => {
  async function setUp() {
    const h = await ControllerHarness.start();
    harnesses.push(h);
    const events: HostEvent[] = [];
    const session = new BridgeSession({
      runtime: () => Promise.resolve({ runtime: h.runtime }),
      history: { entries: () => Promise.resolve(['older']), add: () => Promise.resolve() },
      sendEvents: (batch) => events.push(...batch),
      pageOrigins: [],
      onExit: () => {},
    });
    await session.open();
    const sender = new electron.FakeWebContents();
    registerBridgeHandlers(
      (id) => (id === sender.id ? session : undefined),
      () => h.logger,
    );
    const handler = electron.ipcMain.handlers.get(CALL_CHANNEL)!;
    const invoke = (raw: unknown, frame: unknown = mainFrame('app://hac/index.html'), from = sender) =>
      Promise.resolve().then(() => handler({ senderFrame: frame, sender: from }, raw));
    return { h, events, invoke, session };
  }

  it('runs a valid call from the page and answers it', async () => {
    const { h, events, invoke } = await setUp();
    h.model.reply('Hello.');
    await expect(invoke({ id: 1, method: 'submit', params: { text: 'hi' } })).resolves.toBeNull();
    await expect(invoke({ id: 2, method: 'complete', params: { prefix: '/he' } })).resolves.toEqual([
      '/help',
    ]);
    await expect(invoke({ id: 3, method: 'history', params: {} })).resolves.toEqual(['older']);
    await vi.waitFor(() => expect(events.some((e) => e.type === 'turn-end')).toBe(true));
    expect(h.model.requests[0]!.messages.at(-1)!.content).toBe('hi');
  });

  it.each([
    ['a subframe', { url: 'app://hac/index.html', parent: {} }],
    ['another origin', mainFrame('https://evil.example/')],
    ['a file: page', mainFrame('file:///tmp/index.html')],
    ['a look-alike host', mainFrame('app://hac.evil/index.html')],
    ['no frame', null],
  ])('refuses a call from %s', async (_what, frame) => {
    const { h, invoke } = await setUp();
    await expect(invoke({ id: 1, method: 'submit', params: { text: 'hi' } }, frame)).rejects.toThrow(
      /Refused/,
    );
    expect(h.model.requests).toHaveLength(0);
    expect(h.logger.text()).toMatch(/Refused a call/);
  });

  it.each([
    ['an unknown method', { id: 1, method: 'exec', params: { command: 'rm -rf /' } }],
    ['an oversized text', { id: 1, method: 'submit', params: { text: 'x'.repeat(1_000_001) } }],
    ['a wrong type', { id: 1, method: 'submit', params: { text: ['a'] } }],
    ['extra fields', { id: 1, method: 'submit', params: { text: 'a', role: 'system' } }],
    [
      'an oversized picture',
      { id: 1, method: 'attach', params: { name: 'a.png', data: 'A'.repeat(28_000_001) } },
    ],
    ['a negative attachment index', { id: 1, method: 'detach', params: { index: -1 } }],
  ])('refuses %s', async (_what, raw) => {
    const { h, invoke } = await setUp();
    await expect(invoke(raw)).rejects.toThrow(/Refused/);
    expect(h.model.requests).toHaveLength(0);
  });

  it('refuses a window that has no conversation', async () => {
    const { invoke } = await setUp();
    await expect(
      invoke(
        { id: 1, method: 'history', params: {} },
        mainFrame('app://hac/index.html'),
        new electron.FakeWebContents(),
      ),
    ).rejects.toThrow(/no conversation/);
  });

  it('checks the sender frame', () => {
    expect(isTrustedSender(mainFrame('app://hac/index.html') as never)).toBe(true);
    expect(isTrustedSender(mainFrame('app://hacker/index.html') as never)).toBe(false);
  });

  it('events go out on their own channel', () => {
    expect(EVENTS_CHANNEL).toBe('hac:events');
    expect(CALL_CHANNEL).toBe('hac:call');
  });
});

describe('the preload bridge', () => {
  it('exposes exactly window.hac with the named methods, over the one call channel', async () => {
    await import('../../../electron/preload.js');
    expect([...electron.contextBridge.exposed.keys()]).toEqual(['hac']);
    const bridge = electron.contextBridge.exposed.get('hac') as Record<
      string,
      (...args: unknown[]) => unknown
    >;
    expect(Object.keys(bridge).sort()).toEqual([
      'answerForm',
      'attach',
      'complete',
      'detach',
      'downloadSession',
      'history',
      'interrupt',
      'manageSession',
      'onEvents',
      'openLink',
      'openWindow',
      'sessions',
      'showView',
      'submit',
    ]);
    expect(Object.values(bridge).every((v) => typeof v === 'function')).toBe(true);
    expect(bridge).not.toHaveProperty('ipcRenderer');
    expect(bridge).not.toHaveProperty('send');
    expect(bridge).not.toHaveProperty('invoke');

    await bridge.submit!('안녕');
    await bridge.interrupt!();
    await bridge.openLink!('https://example.com/');
    expect(electron.ipcRenderer.invoked).toEqual([
      { channel: 'hac:call', args: [{ id: 1, method: 'submit', params: { text: '안녕' } }] },
      { channel: 'hac:call', args: [{ id: 2, method: 'interrupt', params: {} }] },
      { channel: 'hac:call', args: [{ id: 3, method: 'openLink', params: { url: 'https://example.com/' } }] },
    ]);

    const received: unknown[] = [];
    const stop = bridge.onEvents!((events: unknown, replay: unknown) =>
      received.push([events, replay]),
    ) as () => void;
    electron.ipcRenderer.emit('hac:events', {}, [{ type: 'waiting' }]);
    electron.ipcRenderer.emit('hac:events', {}, [{ type: 'status' }], true); // after a reload
    stop();
    electron.ipcRenderer.emit('hac:events', {}, [{ type: 'exit' }]);
    expect(received).toEqual([
      [[{ type: 'waiting' }], false],
      [[{ type: 'status' }], true],
    ]);
  });
});
