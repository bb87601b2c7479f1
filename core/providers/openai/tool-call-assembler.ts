import type { NativeToolCall } from '../../types/message.js';
import type { Logger } from '../../logging/logger.js';
import { streamedToolArguments } from '../parse-tool-arguments.js';

/** The streamed tool-call pieces of one Chat Completions delta. */
export interface ToolCallDelta {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

/** Assembles native tool calls from their streamed pieces, by index (id and name first, arguments in fragments). */
export class ToolCallAssembler {
  private readonly calls = new Map<number, { id: string; name: string; args: string[] }>();

  add(deltas: ToolCallDelta[]): void {
    deltas.forEach((delta, position) => {
      const index = delta.index ?? position;
      let call = this.calls.get(index);
      if (!call) {
        call = { id: '', name: '', args: [] };
        this.calls.set(index, call);
      }
      if (delta.id) call.id = delta.id;
      if (delta.function?.name) call.name += delta.function.name;
      if (delta.function?.arguments) call.args.push(delta.function.arguments);
    });
  }

  get size(): number {
    return this.calls.size;
  }

  /** Every call, in index order, with parsed arguments; calls without a name are dropped (logged). */
  finish(logger: Logger): NativeToolCall[] {
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .flatMap(([index, call]) => {
        if (!call.name) {
          logger.warn(`Dropped a streamed tool call without a name (index ${index}).`);
          return [];
        }
        const raw = call.args.join('');
        const id = call.id || `call_${index}`;
        return [{ id, name: call.name, ...streamedToolArguments(raw, logger, call.name) }];
      });
  }
}
