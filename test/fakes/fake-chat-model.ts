import type { ChatModel, ChatRequest } from '../../core/providers/chat-model.js';
import type { ChatStreamPart } from '../../core/types/chat-stream.js';

/** One step of a scripted answer. */
export type FakeStep =
  | { text: string }
  | { thinking: string }
  | { call: { id?: string; name: string; arguments: Record<string, unknown> } }
  /** Thrown where it stands (a ProviderError, say): before or after some output. */
  | { error: Error }
  | { delayMs: number }
  /** Waits until the test opens it: to act while the answer is "streaming". */
  | { gate: Promise<void> };

/**
 * A ChatModel that answers from a script, for engine and host tests that need no HTTP: text, thinking, native
 * tool calls, errors and delays, one scripted answer per request, honouring the abort signal like a real one.
 * Records every request it got.
 */
export class FakeChatModel implements ChatModel {
  readonly provider = 'openai' as const;
  readonly requests: ChatRequest[] = [];
  private readonly answers: FakeStep[][] = [];

  constructor(readonly modelId = 'fake-model') {}

  /** Queues one answer per argument, in order. */
  reply(...answers: (FakeStep[] | string)[]): this {
    for (const answer of answers) this.answers.push(typeof answer === 'string' ? [{ text: answer }] : answer);
    return this;
  }

  async *stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ChatStreamPart> {
    this.requests.push(structuredClone(request));
    const steps = this.answers.shift();
    if (!steps) throw new Error(`FakeChatModel: no scripted answer for request ${this.requests.length}`);
    let calls = 0;
    for (const step of steps) {
      if (signal.aborted) throw abortError();
      if ('text' in step) yield { type: 'text-delta', text: step.text };
      else if ('thinking' in step) yield { type: 'reasoning-delta', text: step.thinking };
      else if ('call' in step) {
        const { id = `call_${calls}`, name, arguments: args } = step.call;
        calls++;
        yield { type: 'tool-call', call: { id, name, arguments: args } };
      } else if ('error' in step) throw step.error;
      else if ('delayMs' in step) await abortable(new Promise((r) => setTimeout(r, step.delayMs)), signal);
      else await abortable(step.gate, signal);
    }
    yield { type: 'finish', reason: calls ? 'tool-calls' : 'stop' };
  }
}

/** A gate for `{ gate }` steps: `open()` lets the answer go on. */
export function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

function abortError(): Error {
  return new DOMException('This operation was aborted', 'AbortError');
}

function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(abortError());
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
