import {
  ChatController,
  createEventBatcher,
  mergeDeltas,
  errorReport,
  type BridgeCall,
  type BridgeMessage,
  type HostEvent,
  type InputHistory,
  type Runtime,
} from '../../core/index.js';

/** Where a tab's conversation comes from: the shared runtime, or why there is none (a broken config.json). */
export type RuntimeSource = () => Promise<{ runtime: Runtime } | { error: unknown }>;

/**
 * One browser tab's conversation (R-DESK-6): bridge calls in, batched host events out, in order. Until the
 * runtime exists (config.json broken, R-DESK-7) the tab shows the report, and Enter re-reads the files.
 */
export class WebChat {
  private controller: ChatController | undefined;
  private readonly batcher;

  constructor(
    private readonly source: RuntimeSource,
    private readonly history: InputHistory,
    private readonly send: (message: BridgeMessage) => void,
    private readonly onExit: () => void,
  ) {
    this.batcher = createEventBatcher<HostEvent>({
      send: (events) => send({ type: 'events', events }),
      merge: mergeDeltas,
    });
  }

  /** Opens the conversation, or shows why it cannot be opened yet. */
  async open(): Promise<void> {
    const got = await this.source();
    if ('error' in got) return this.batcher.push({ type: 'fatal', report: errorReport(got.error) });
    const controller = new ChatController(got.runtime);
    this.controller = controller;
    controller.onEvent((event) => {
      this.batcher.push(event);
      if (event.type === 'exit') {
        this.batcher.flush();
        this.onExit();
      }
    });
    await controller.start();
  }

  /** Runs one call. Synchronous up to the controller, so calls reach it in the order they arrived. */
  handle(call: BridgeCall): void {
    const reply = (value: unknown) => {
      this.batcher.flush(); // events the call caused come before its result
      this.send({ type: 'result', id: call.id, value: value ?? null });
    };
    const fail = (error: unknown) =>
      this.send({
        type: 'failure',
        id: call.id,
        message: error instanceof Error ? error.message : String(error),
      });
    const controller = this.controller;
    switch (call.method) {
      case 'submit':
        if (!controller) {
          // R-DESK-7: Enter re-reads the files; the conversation starts once they are fixed.
          this.batcher.push({ type: 'input', text: call.params.text, reply: false });
          return void this.open().then(() => reply(null), fail);
        }
        if (!controller.asking) void this.history.add(call.params.text);
        void controller.submit(call.params.text);
        return reply(null);
      case 'interrupt':
        return reply(controller ? controller.interrupt() : 'idle');
      case 'complete':
        return reply(controller ? controller.complete(call.params.prefix) : []);
      case 'history':
        return void this.history.entries().then(reply, fail);
      case 'openLink':
        return fail(new Error('In a browser the page opens links itself.'));
    }
  }

  close(): void {
    this.controller?.close();
    this.batcher.close();
  }
}
