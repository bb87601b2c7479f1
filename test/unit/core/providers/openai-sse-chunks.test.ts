import { APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { chunkBatches } from '../../../../core/providers/openai/sse-chunks.js';

/** A response whose body arrives in exactly these reads; records whether the reader cancelled it. */
function responseOf(reads: (string | Uint8Array)[]) {
  const state = { cancelled: false, pulled: 0 };
  const bytes = reads.map((r) => (typeof r === 'string' ? new TextEncoder().encode(r) : r));
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const next = bytes[state.pulled++];
        if (next) controller.enqueue(next);
        else controller.close();
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { response: new Response(body, { headers: { 'x-request-id': 'req_1' } }), state };
}

const data = (content: string) => `data: {"choices":[{"index":0,"delta":{"content":"${content}"}}]}\n\n`;
type Batch = { choices: { delta: { content?: string | null } }[] }[];
const texts = (batches: Batch[]) =>
  batches.map((batch) => batch.map((c) => c.choices[0]?.delta.content).join('|'));

/** Every batch the reader gives, and the error it ends with, if any. */
async function read(response: Response) {
  const batches: Batch[] = [];
  let error: unknown;
  try {
    for await (const batch of chunkBatches(response)) batches.push(batch);
  } catch (e) {
    error = e;
  }
  return { batches, error };
}

describe('chunkBatches: an OpenAI event stream, one array of chunks per read', () => {
  it('gives-the-events-of-each-read-together-and-joins-events-split-across-reads', async () => {
    const { response } = responseOf([
      data('a') + data('b') + 'data: {"choi',
      'ces":[{"index":0,"delta":{"content":"c"}}]}\n\n',
    ]);
    const { batches, error } = await read(response);
    expect(error).toBeUndefined();
    expect(texts(batches)).toEqual(['a|b', 'c']);
  });

  it('reads-crlf-line-endings-comments-and-multi-line-data-as-the-sse-standard-says', async () => {
    const { response } = responseOf([
      ': keep-alive\r\n\r\ndata: {"choices":[{"index":0,\r\ndata: "delta":{"content":"x"}}]}\r\n\r\n',
    ]);
    const { batches, error } = await read(response);
    expect(error).toBeUndefined();
    expect(texts(batches)).toEqual(['x']);
  });

  it('a-utf8-character-split-between-reads-is-decoded-whole', async () => {
    const bytes = new TextEncoder().encode(data('한'));
    const cut = bytes.indexOf(0xed) + 1; // inside the three bytes of 한
    const { response } = responseOf([bytes.subarray(0, cut), bytes.subarray(cut)]);
    const { batches } = await read(response);
    expect(texts(batches)).toEqual(['한']);
  });

  it('stops-at-done-ignores-what-follows-and-closes-the-body', async () => {
    const { response, state } = responseOf([data('a') + 'data: [DONE]\n\n' + data('late'), data('later')]);
    const { batches, error } = await read(response);
    expect(error).toBeUndefined();
    expect(texts(batches)).toEqual(['a']);
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBe(1);
  });

  it('an-event-the-server-left-unclosed-at-the-end-is-still-delivered', async () => {
    const { response } = responseOf([data('a') + 'data: {"choices":[{"index":0,"delta":{"content":"b"}}]}']);
    const { batches, error } = await read(response);
    expect(error).toBeUndefined();
    expect(texts(batches)).toEqual(['a', 'b']);
  });

  it('an-error-chunk-is-the-sdks-api-error-after-the-chunks-before-it', async () => {
    const { response, state } = responseOf([
      data('partial') + 'data: {"error":{"message":"overloaded","code":"server_error"}}\n\n' + data('never'),
      data('never either'),
    ]);
    const { batches, error } = await read(response);
    expect(texts(batches)).toEqual(['partial']);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBeUndefined();
    expect((error as APIError).error).toEqual({ message: 'overloaded', code: 'server_error' });
    expect((error as APIError).headers?.get('x-request-id')).toBe('req_1');
    expect(state.cancelled).toBe(true);
  });

  it('a-named-error-event-is-an-api-error-too', async () => {
    const { response } = responseOf(['event: error\ndata: {"message":"bad gateway"}\n\n']);
    const { error } = await read(response);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).error).toEqual({ message: 'bad gateway' });
  });

  it('an-event-that-is-not-json-is-a-syntax-error-showing-its-start', async () => {
    const { response } = responseOf([data('ok') + `data: {"choices":[${'x'.repeat(200)}\n\n`]);
    const { batches, error } = await read(response);
    expect(texts(batches)).toEqual(['ok']);
    expect(error).toBeInstanceOf(SyntaxError);
    expect((error as Error).message).toBe(`data: {"choices":[${'x'.repeat(120 - 12)}…`);
  });

  it('a-response-without-a-body-is-an-error', async () => {
    const { error } = await read(new Response(null));
    expect((error as Error).message).toMatch(/no body/);
  });

  it('the-callers-return-closes-the-body', async () => {
    const { response, state } = responseOf([data('a'), data('b'), data('c')]);
    for await (const batch of chunkBatches(response)) {
      expect(batch).toHaveLength(1);
      break;
    }
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBe(1);
  });
});
