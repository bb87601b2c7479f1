import type { ElicitRequest, ElicitResult, JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import type { Logger } from '../logging/logger.js';
import type { SecretRegistry } from '../logging/secrets.js';
import type { ElicitationAnswer, ElicitationRequest } from '../types/elicitation.js';
import { formFields } from './form-fields.js';

/** How a conversation puts a server's question to its user; resolves with what the user chose. */
export type Elicit = (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitationAnswer>;

/**
 * Who answers one server's questions (elicitation). A server asks during a request of ours (a tool call, reading a
 * prompt or resource), but the protocol does not say which one when several run at once (stdio carries no link
 * between them), and the pool is shared by every window. So each request registers the conversation it runs for
 * while it runs, and a question goes to the oldest one still running: with one conversation using the server,
 * which is nearly always so, that is exactly right. With none, nobody can answer, and the server is told no.
 */
export class ElicitationRoute {
  private readonly running: { elicit: Elicit; signal: AbortSignal }[] = [];
  /** The write-only fields of each question as it came over the wire, by request id (see `watch`). */
  private readonly writeOnly = new Map<string | number, string[]>();

  constructor(
    private readonly server: string,
    private readonly logger: Logger,
    private readonly secrets: SecretRegistry | undefined,
  ) {}

  /** Runs `work` with `elicit` as the one to ask meanwhile. */
  async during<T>(elicit: Elicit | undefined, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    if (!elicit) return work();
    const entry = { elicit, signal };
    this.running.push(entry);
    try {
      return await work();
    } finally {
      this.running.splice(this.running.indexOf(entry), 1);
    }
  }

  /**
   * Reads the questions a transport delivers as they came: the SDK hands the handler a checked copy of the form
   * without JSON Schema's `writeOnly`, the one mark a server can put on a secret field.
   */
  watch(transport: Transport): void {
    const deliver = transport.onmessage;
    if (!deliver) return;
    transport.onmessage = (message: JSONRPCMessage, extra) => {
      const secret = writeOnlyFields(message);
      if (secret) this.writeOnly.set(secret.id, secret.fields);
      deliver(message, extra);
    };
  }

  /** The `elicitation/create` handler: the server's question, asked in the right conversation. */
  async answer(
    params: ElicitRequest['params'],
    id: string | number,
    signal: AbortSignal,
  ): Promise<ElicitResult> {
    const request = requestOf(params, this.writeOnly.get(id) ?? []);
    this.writeOnly.delete(id);
    const kind = request.mode === 'url' ? 'a page to open' : `a form of ${request.fields.length} fields`;
    const asker = this.running.find((r) => !r.signal.aborted);
    if (!asker) {
      this.logger.info(`MCP server "${this.server}" asked for ${kind} while nothing of ours ran; declined.`);
      return { action: 'decline' };
    }
    if (request.mode === 'url' && !/^https?:$/.test(new URL(request.url).protocol)) {
      this.logger.warn(`MCP server "${this.server}" asked to open a non-web address; declined.`);
      return { action: 'decline' };
    }
    const answer = await asker
      .elicit(request, AbortSignal.any([signal, asker.signal]))
      .catch((): ElicitationAnswer => ({ action: 'cancel' }));
    if (answer.action === 'accept' && request.mode === 'form') {
      // Secrets the user typed are masked wherever they might be written from now on.
      for (const field of request.fields)
        if (field.sensitive && typeof answer.content?.[field.name] === 'string')
          this.secrets?.add([answer.content[field.name] as string]);
    }
    this.logger.info(`MCP server "${this.server}" asked for ${kind}: ${answer.action}.`);
    if (answer.action === 'accept' && answer.content)
      this.logger.debug(`MCP ${this.server} form answer: ${JSON.stringify(answer.content)}`);
    return answer.action === 'accept' && request.mode === 'form'
      ? { action: 'accept', content: answer.content ?? {} }
      : { action: answer.action };
  }
}

function requestOf(params: ElicitRequest['params'], secret: string[]): ElicitationRequest {
  if (params.mode === 'url') return { mode: 'url', message: params.message, url: params.url };
  const fields = formFields(params.requestedSchema as Record<string, unknown>).map((field) =>
    secret.includes(field.name) ? { ...field, sensitive: true } : field,
  );
  return { mode: 'form', message: params.message, fields };
}

/** The names of the fields marked `writeOnly` in an `elicitation/create` request, if the message is one. */
function writeOnlyFields(message: JSONRPCMessage): { id: string | number; fields: string[] } | undefined {
  if (!('method' in message) || message.method !== 'elicitation/create' || !('id' in message))
    return undefined;
  const schema = (message.params as { requestedSchema?: { properties?: unknown } } | undefined)
    ?.requestedSchema;
  const properties = schema?.properties;
  if (typeof properties !== 'object' || properties === null) return undefined;
  const fields = Object.entries(properties)
    .filter(([, p]) => (p as { writeOnly?: unknown } | null)?.writeOnly === true)
    .map(([name]) => name);
  return fields.length ? { id: message.id, fields } : undefined;
}
