// A loopback fake of Anthropic's Messages API (POST /v1/messages with "stream": true, GET /v1/models), speaking the
// SSE exactly as the public API reference documents it: `event:` + `data:` pairs; message_start, then per content
// block content_block_start / content_block_delta (text_delta, thinking_delta, signature_delta, input_json_delta) /
// content_block_stop with its index, message_delta with stop_reason and output usage, message_stop; `ping` events;
// an `error` event mid-stream; HTTP errors as {"type": "error", "error": {"type", "message"}} with request-id.
import {
  FakeHttpServer,
  type FakeReply,
  type FakeReplySource,
  type FakeStep,
  type RecordedRequest,
} from './http-fake.js';

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'request-id': 'req_fake_01',
  'anthropic-organization-id': 'org-fake',
};
const JSON_HEADERS = { 'content-type': 'application/json', 'request-id': 'req_fake_01' };

/** One SSE event as Anthropic sends it. */
export function sseEvent(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/** A content block of a fake answer. */
export type FakeBlock =
  | { type: 'text'; chunks: string[] }
  | { type: 'thinking'; chunks: string[]; signature: string }
  | { type: 'redacted_thinking'; data: string }
  /** `json` is sent as input_json_delta pieces, split where the test says (every few characters by default). */
  | { type: 'tool_use'; id: string; name: string; json: string; splitEvery?: number };

export interface FakeAnswer {
  blocks: FakeBlock[];
  stopReason?: 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence';
  usage?: { input: number; output: number };
  /** Stop after this many events (a cut stream); no message_stop. */
  cutAfterEvents?: number;
  /** An `error` event after the blocks instead of message_delta/message_stop. */
  errorEvent?: { type: string; message: string };
}

function answerSteps(answer: FakeAnswer, request: RecordedRequest): FakeStep[] {
  const usage = answer.usage ?? { input: 25, output: 12 };
  const events: string[] = [
    sseEvent('message_start', {
      message: {
        id: 'msg_fake_01',
        type: 'message',
        role: 'assistant',
        model: String(request.body?.model ?? 'claude-fake'),
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: usage.input, output_tokens: 1 },
      },
    }),
    sseEvent('ping', {}),
  ];
  answer.blocks.forEach((block, index) => {
    if (block.type === 'text') {
      events.push(sseEvent('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      for (const text of block.chunks)
        events.push(sseEvent('content_block_delta', { index, delta: { type: 'text_delta', text } }));
    } else if (block.type === 'thinking') {
      events.push(
        sseEvent('content_block_start', {
          index,
          content_block: { type: 'thinking', thinking: '', signature: '' },
        }),
      );
      for (const thinking of block.chunks)
        events.push(sseEvent('content_block_delta', { index, delta: { type: 'thinking_delta', thinking } }));
      events.push(
        sseEvent('content_block_delta', {
          index,
          delta: { type: 'signature_delta', signature: block.signature },
        }),
      );
    } else if (block.type === 'redacted_thinking') {
      events.push(
        sseEvent('content_block_start', {
          index,
          content_block: { type: 'redacted_thinking', data: block.data },
        }),
      );
    } else {
      events.push(
        sseEvent('content_block_start', {
          index,
          content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
        }),
      );
      const every = block.splitEvery ?? 5;
      for (let at = 0; at < block.json.length; at += every) {
        const partial_json = block.json.slice(at, at + every);
        events.push(
          sseEvent('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } }),
        );
      }
    }
    events.push(sseEvent('content_block_stop', { index }));
  });
  if (answer.errorEvent) {
    events.push(sseEvent('error', { error: answer.errorEvent }));
  } else {
    const toolUse = answer.blocks.some((b) => b.type === 'tool_use');
    events.push(
      sseEvent('message_delta', {
        delta: { stop_reason: answer.stopReason ?? (toolUse ? 'tool_use' : 'end_turn'), stop_sequence: null },
        usage: { output_tokens: usage.output },
      }),
      sseEvent('message_stop', {}),
    );
  }
  const sent = answer.cutAfterEvents === undefined ? events : events.slice(0, answer.cutAfterEvents);
  return sent.map((write) => ({ write }));
}

export const anthropicReply = {
  answer(answer: FakeAnswer): FakeReplySource {
    return (request) => ({ status: 200, headers: SSE_HEADERS, steps: answerSteps(answer, request) });
  },
  text(chunks: string[]): FakeReplySource {
    return anthropicReply.answer({ blocks: [{ type: 'text', chunks }] });
  },
  /** An HTTP error with Anthropic's error body; `retryAfter` sets the retry-after header (seconds). */
  error(status: number, type: string, message: string, retryAfter?: number): FakeReply {
    const headers: Record<string, string> = { ...JSON_HEADERS };
    if (retryAfter !== undefined) headers['retry-after'] = String(retryAfter);
    return {
      status,
      headers,
      steps: [
        { write: JSON.stringify({ type: 'error', error: { type, message }, request_id: 'req_fake_01' }) },
      ],
    };
  },
};

export interface AnthropicFake {
  /** The `baseUrl` to configure: `http://127.0.0.1:<port>` (the SDK adds /v1/messages). */
  baseUrl: string;
  server: FakeHttpServer;
  requests: RecordedRequest[];
  reply(...replies: FakeReplySource[]): AnthropicFake;
  close(): Promise<void>;
}

/** Starts the fake. With `apiKey`, requests without that `x-api-key` get Anthropic's 401. */
export async function startAnthropicFake(
  options: { apiKey?: string; models?: string[] } = {},
): Promise<AnthropicFake> {
  const server: FakeHttpServer = new FakeHttpServer((request) => {
    if (request.method === 'GET' && request.path.startsWith('/v1/models')) {
      const data = (options.models ?? []).map((id) => ({
        type: 'model',
        id,
        display_name: id,
        created_at: '2026-01-01T00:00:00Z',
      }));
      return {
        status: 200,
        headers: JSON_HEADERS,
        steps: [
          { write: JSON.stringify({ data, has_more: false, first_id: data[0]?.id ?? null, last_id: null }) },
        ],
      };
    }
    if (request.method !== 'POST' || request.path !== '/v1/messages')
      return anthropicReply.error(404, 'not_found_error', 'Not Found');
    if (!request.headers['anthropic-version'])
      return anthropicReply.error(400, 'invalid_request_error', 'anthropic-version: header is required');
    if (options.apiKey !== undefined && request.headers['x-api-key'] !== options.apiKey)
      return anthropicReply.error(401, 'authentication_error', 'invalid x-api-key');
    if (options.models && !options.models.includes(String(request.body?.model)))
      return anthropicReply.error(404, 'not_found_error', `model: ${String(request.body?.model)}`);
    return server.takeQueued(request);
  });
  await server.listen();
  const fake: AnthropicFake = {
    baseUrl: server.origin,
    server,
    requests: server.requests,
    reply(...replies) {
      server.reply(...replies);
      return fake;
    },
    close: () => server.close(),
  };
  return fake;
}
