import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { pipeline, type Readable } from 'node:stream';
import { nodeHttp } from '../node-builtins.js';
import { PlainHeaders, PlainResponse } from './plain-response.js';

const { request: httpRequest } = nodeHttp;

const MAX_REDIRECTS = 20;
const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);
// Credentials a cross-origin redirect must not carry (fetch drops Authorization; the vendors' key headers too).
const CREDENTIAL_HEADERS = ['authorization', 'x-api-key', 'api-key', 'cookie'];

/**
 * The `fetch` the OpenAI and Anthropic SDKs get: the same contract as the global one for what they send (a URL, a
 * method, headers, a text or bytes body, a signal), over node:http. The global fetch (undici) parses HTTP in
 * WebAssembly that V8 recompiles in the background once it is hot, and a process cannot exit before that job
 * ends: about 80 ms at the end of every `hac -p` on this machine. Node's own HTTP parser is native. Anything else
 * (a Request object, a streamed or form body) goes to the global fetch.
 */
export const httpFetch: typeof fetch = async (input, init = {}) => {
  const url = plainRequestUrl(input, init);
  if (!url) return fetch(input, init);
  const answer = await exchange(url, init);
  return new Response(answer.body, {
    status: answer.status,
    statusText: answer.statusText,
    headers: [...answer.headers],
  });
};

/**
 * The same answered with a PlainResponse: for the Ollama SDK, so that an Ollama answer never loads undici
 * (plain-response.ts says why).
 */
export async function plainFetch(
  input: string | URL | Request,
  init: RequestInit = {},
): Promise<PlainResponse> {
  const url = plainRequestUrl(input, init);
  if (!url) {
    const response = await fetch(input, init);
    return new PlainResponse(response.body, response);
  }
  const answer = await exchange(url, init);
  return new PlainResponse(answer.body, answer);
}

/** The URL of a request node:http can send as it is, or undefined for one to leave to the global fetch. */
function plainRequestUrl(input: string | URL | Request, init: RequestInit): URL | undefined {
  // Read without `instanceof Request`: that would load undici.
  const url = input instanceof URL ? input : typeof input === 'string' ? new URL(input) : undefined;
  const body = init.body;
  const plainBody = body == null || typeof body === 'string' || body instanceof Uint8Array;
  return url && plainBody && (url.protocol === 'http:' || url.protocol === 'https:') ? url : undefined;
}

interface Answer {
  status: number;
  statusText: string;
  headers: PlainHeaders;
  body: ReadableStream<Uint8Array> | null;
}

/** One request, redirects followed as fetch follows them. */
async function exchange(url: URL, init: RequestInit): Promise<Answer> {
  init.signal?.throwIfAborted();
  let method = (init.method ?? 'GET').toUpperCase();
  let payload = (init.body ?? undefined) as string | Uint8Array | undefined;
  const headers = PlainHeaders.from(init.headers);
  let target = url;
  for (let hop = 0; ; hop++) {
    // node:https (and TLS) loads only for an https URL: a local Ollama never pays for it.
    const request = target.protocol === 'https:' ? (await import('node:https')).request : httpRequest;
    const response = await send(request, target, method, headers, payload, init.signal ?? undefined);
    const location = response.headers.location;
    if (
      !location ||
      ![301, 302, 303, 307, 308].includes(response.statusCode ?? 0) ||
      init.redirect === 'manual'
    )
      return answerOf(response, method, init.signal ?? undefined);
    response.resume();
    if (init.redirect === 'error' || hop === MAX_REDIRECTS)
      throw new TypeError('fetch failed: redirect refused');
    const next = new URL(location, target);
    if (next.origin !== target.origin) for (const name of CREDENTIAL_HEADERS) headers.delete(name);
    // As fetch does: a 303, or a 301/302 after a POST, continues as a GET without the body.
    if (
      response.statusCode === 303 ||
      (method === 'POST' && response.statusCode !== 307 && response.statusCode !== 308)
    ) {
      method = method === 'HEAD' ? 'HEAD' : 'GET';
      payload = undefined;
      headers.delete('content-type');
      headers.delete('content-length');
    }
    target = next;
  }
}

function send(
  request: typeof httpRequest,
  url: URL,
  method: string,
  headers: PlainHeaders,
  body: string | Uint8Array | undefined,
  signal: AbortSignal | undefined,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const outgoing: OutgoingHttpHeaders = Object.fromEntries(headers);
    if (body !== undefined) outgoing['content-length'] = Buffer.byteLength(body);
    const outgoingRequest = request(url, { method, headers: outgoing });
    const onAbort = () => outgoingRequest.destroy(signal?.reason as Error);
    signal?.addEventListener('abort', onAbort, { once: true });
    outgoingRequest.once('response', (response) => {
      response.once('close', () => signal?.removeEventListener('abort', onAbort));
      resolve(response);
    });
    outgoingRequest.once('error', (error) => {
      signal?.removeEventListener('abort', onAbort);
      // The global fetch's shapes: the abort reason itself, or a TypeError with the network error as its cause.
      reject(signal?.aborted ? (signal.reason as Error) : new TypeError('fetch failed', { cause: error }));
    });
    // The answer comes as a web stream, and Node sets those up on first use (~3 ms): done while the request is on
    // its way and the main thread waits anyway, not between the answer's arrival and its first word.
    outgoingRequest.once('finish', () => setImmediate(() => ReadableStream));
    outgoingRequest.end(body);
  });
}

function answerOf(message: IncomingMessage, method: string, signal: AbortSignal | undefined): Answer {
  const status = message.statusCode ?? 0;
  const answer = {
    status,
    statusText: message.statusMessage ?? '',
    headers: PlainHeaders.fromRaw(message.rawHeaders),
  };
  if (NULL_BODY_STATUS.has(status) || method === 'HEAD') {
    message.resume();
    return { ...answer, body: null };
  }
  return { ...answer, body: webStream(decoded(message), signal) };
}

/** The body as the server meant it: fetch undoes gzip, deflate and brotli, so this does too. */
function decoded(message: IncomingMessage): Readable {
  const encoding = (message.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (!encoding || encoding === 'identity') return message;
  // Loaded only for a compressed body (a local Ollama never sends one): node:zlib costs ~2.7 ms to load.
  const { createBrotliDecompress, createGunzip, createInflate } = process.getBuiltinModule('node:zlib');
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  if (!decoder) return message;
  pipeline(message, decoder, () => undefined); // an error or early close of either destroys both
  return decoder;
}

/**
 * A byte stream that pauses the socket while the reader is behind, and fails with the abort reason. Node's parser
 * hands over each frame of a chunked body on its own (an SSE server writes one per event); the frames of one
 * network read are passed on as one chunk, as the global fetch does, since every reader above costs per chunk.
 */
function webStream(source: Readable, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  // Events may still come after the reader cancelled or the stream ended: the first ending wins.
  let settled = false;
  let pending: Buffer[] = [];
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const deliver = () => {
        if (settled || pending.length === 0) return;
        controller.enqueue(pending.length === 1 ? pending[0]! : Buffer.concat(pending));
        pending = [];
        if ((controller.desiredSize ?? 1) <= 0) source.pause();
      };
      const settle = (end: () => void) => {
        deliver();
        if (settled) return;
        settled = true;
        end();
      };
      // Cut off before its end (an abort, a reset, a dropped connection): the global fetch's shapes, so the
      // providers' error mapping reads both alike.
      const fail = (cause?: Error) =>
        settle(() =>
          controller.error(signal?.aborted ? signal.reason : new TypeError('terminated', { cause })),
        );
      source.on('data', (chunk: Buffer) => {
        if (!settled && pending.push(chunk) === 1) queueMicrotask(deliver);
      });
      source.once('end', () => settle(() => controller.close()));
      source.once('error', fail);
      source.once('close', () => source.readableEnded || fail());
    },
    pull() {
      source.resume();
    },
    cancel(reason) {
      settled = true;
      pending = [];
      source.destroy(reason instanceof Error ? reason : undefined);
    },
  });
}
