import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ChatController, type ChatControllerOptions } from '../../core/host/chat-controller.js';
import type { HostEvent } from '../../core/types/host-event.js';
import { createRuntime, type Runtime } from '../../core/host/runtime.js';
import { MemoryLogger } from '../../core/logging/logger.js';
import { FakeChatModel } from '../fakes/fake-chat-model.js';

export interface ControllerHarnessOptions {
  config?: Record<string, unknown>;
  /** mcp-servers.json's `mcpServers`, or the file's raw text. */
  servers?: Record<string, unknown> | string;
}

/** A runtime in a temp home whose active model is a FakeChatModel; chats record their host events. */
export class ControllerHarness {
  readonly logger = new MemoryLogger();
  readonly model = new FakeChatModel();
  readonly home = mkdtempSync(path.join(os.tmpdir(), 'hac-host-'));
  runtime!: Runtime;

  static async start(options: ControllerHarnessOptions = {}): Promise<ControllerHarness> {
    const h = new ControllerHarness();
    writeFileSync(
      path.join(h.home, 'config.json'),
      JSON.stringify({
        models: [{ name: 'fake-model', provider: 'openai', apiKey: 'sk-unused-0000', active: true }],
        ...options.config,
      }),
    );
    writeFileSync(path.join(h.home, 'system_prompt.txt'), 'You are a test assistant.\n');
    if (options.servers !== undefined) {
      const text =
        typeof options.servers === 'string'
          ? options.servers
          : JSON.stringify({ mcpServers: options.servers });
      writeFileSync(path.join(h.home, 'mcp-servers.json'), text);
    }
    h.runtime = await createRuntime({
      home: h.home,
      logger: h.logger,
      env: { PATH: process.env.PATH },
      chatModel: () => Promise.resolve(h.model),
      sleep: () => Promise.resolve(),
    });
    return h;
  }

  /** A new conversation with its events recorded. */
  open(options?: ChatControllerOptions): { controller: ChatController; events: HostEvent[] } {
    const controller = new ChatController(this.runtime, options);
    const events: HostEvent[] = [];
    controller.onEvent((event) => events.push(event));
    return { controller, events };
  }

  async close(): Promise<void> {
    await this.runtime.close();
    rmSync(this.home, { recursive: true, force: true });
  }
}

/** Resolves when an event of `type` arrives (checks those already recorded first). */
export async function nextEvent<T extends HostEvent['type']>(
  events: HostEvent[],
  type: T,
  after = 0,
): Promise<Extract<HostEvent, { type: T }>> {
  for (;;) {
    const found = events.slice(after).find((e) => e.type === type);
    if (found) return found as Extract<HostEvent, { type: T }>;
    await new Promise((r) => setTimeout(r, 2));
  }
}

export const ofType = <T extends HostEvent['type']>(events: HostEvent[], type: T) =>
  events.filter((e): e is Extract<HostEvent, { type: T }> => e.type === type);
