import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRuntime, type Chat, type Runtime } from '../../core/host/runtime.js';
import { MemoryLogger } from '../../core/logging/logger.js';
import type { EngineEvent } from '../../core/types/engine-event.js';

export const TEST_SERVER = path.resolve(import.meta.dirname, '../fixtures/mcp/test-server.mjs');

/** An mcp-servers.json entry for our stdio test server. */
export function testServerEntry(description = 'hac test server'): Record<string, unknown> {
  return { description, command: process.execPath, args: [TEST_SERVER, 'stdio'] };
}

export interface HarnessOptions {
  model: Record<string, unknown>;
  config?: Record<string, unknown>;
  servers?: Record<string, unknown>;
  systemPrompt?: string;
}

/** A hac in a temp home with one active model and optional MCP servers, logging to memory, never sleeping. */
export class EngineHarness {
  readonly logger = new MemoryLogger();
  readonly sleeps: number[] = [];
  runtime!: Runtime;
  /** The runtime's first conversation. */
  hac!: Chat & { close(): Promise<void> };
  readonly home = mkdtempSync(path.join(os.tmpdir(), 'hac-engine-'));

  static async start(options: HarnessOptions): Promise<EngineHarness> {
    const h = new EngineHarness();
    mkdirSync(h.home, { recursive: true });
    writeFileSync(
      path.join(h.home, 'config.json'),
      JSON.stringify({ ...options.config, models: [{ ...options.model, active: true }] }, null, 2),
    );
    writeFileSync(
      path.join(h.home, 'system_prompt.txt'),
      options.systemPrompt ?? 'You are a test assistant.\n',
    );
    if (options.servers)
      writeFileSync(
        path.join(h.home, 'mcp-servers.json'),
        JSON.stringify({ mcpServers: options.servers }, null, 2),
      );
    h.runtime = await createRuntime({
      home: h.home,
      logger: h.logger,
      env: { PATH: process.env.PATH },
      now: () => new Date(2026, 10, 22, 10, 30, 0),
      timeZone: 'Asia/Seoul',
      sleep: (ms) => {
        h.sleeps.push(ms);
        return Promise.resolve();
      },
    });
    h.hac = { ...h.runtime.openChat(), close: () => h.runtime.close() };
    h.runtime.startMcp();
    return h;
  }

  /**
   * Runs one turn, answering each confirmation-request / question with the next scripted reply,
   * and returns every event. `onEvent` may act mid-turn (e.g. abort).
   */
  async turn(
    text: string,
    replies: string[] = [],
    options: { signal?: AbortSignal; onEvent?: (e: EngineEvent) => void } = {},
  ): Promise<EngineEvent[]> {
    const events: EngineEvent[] = [];
    const signal = options.signal ?? new AbortController().signal;
    for await (const event of this.hac.engine.run(text, signal)) {
      events.push(event);
      options.onEvent?.(event);
      if (event.type === 'confirmation-request' || event.type === 'question') {
        const reply = replies.shift();
        if (reply === undefined) throw new Error(`no scripted reply for ${JSON.stringify(event)}`);
        this.hac.engine.answer(event.id, reply);
      }
    }
    // The answer's save runs behind the prompt; a test reads the file once it has ended.
    await this.hac.conversation.settled();
    return events;
  }

  async close(): Promise<void> {
    await this.hac.close();
    rmSync(this.home, { recursive: true, force: true });
  }
}

/** The streamed answer text of a turn's events. */
export function answerText(events: EngineEvent[]): string {
  return events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [])).join('');
}

/** The turn-end status. */
export function status(events: EngineEvent[]): string | undefined {
  const end = events.at(-1);
  return end?.type === 'turn-end' ? end.status : undefined;
}
