// A scripted loopback HTTP server: the shared engine of the OpenAI and Ollama fakes.
// Each request is recorded (method, path, headers, parsed body, whether the client closed the connection early)
// and answered by the next queued reply, or by the default responder.
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One step of a scripted reply body. */
export type FakeStep =
  /** Bytes on the wire, exactly as given (a string is sent as UTF-8; bytes let a test split a character). */
  | { write: string | Uint8Array }
  /** Stop writing and hold the connection open until the client closes it (a stalled model). */
  | { stall: true }
  /** Destroy the socket mid-reply (a dropped connection). */
  | { drop: true }
  /** Wait until the promise settles (lets a test pace the stream). */
  | { waitFor: Promise<unknown> };

/** A scripted reply: status, headers, then the body steps; the response ends after the last step. */
export interface FakeReply {
  status?: number;
  headers?: Record<string, string>;
  /** Never send the status line: hold the request until the client gives up (a cold model load that never ends). */
  stallBeforeHeaders?: boolean;
  steps?: FakeStep[];
}

/** A reply, or a function that builds it from the request (e.g. to honour `stream_options`). */
export type FakeReplySource = FakeReply | ((request: RecordedRequest) => FakeReply);

/** A request as the fake received it. */
export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/v1/chat/completions`. */
  path: string;
  /** Lower-case header names, as Node gives them. */
  headers: http.IncomingHttpHeaders;
  /** The body parsed as JSON, or undefined when empty or not JSON. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read any field of the JSON they sent
  body: any;
  rawBody: string;
  /** True once the client closed the connection before the reply was complete. */
  readonly closedByClient: boolean;
  /** Resolves when the exchange is over: `byClient` says whether the client hung up before the reply ended. */
  readonly closed: Promise<{ byClient: boolean }>;
}

/** The scripted server. */
export class FakeHttpServer {
  readonly requests: RecordedRequest[] = [];
  private readonly queue: FakeReplySource[] = [];
  private readonly waiters: ((request: RecordedRequest) => void)[] = [];
  private server: http.Server | undefined;
  port = 0;

  constructor(private readonly fallback: (request: RecordedRequest) => FakeReply | undefined) {}

  /** Binds 127.0.0.1 on a free port. */
  async listen(): Promise<this> {
    const server = http.createServer((req, res) => void this.handle(req, res));
    this.server = server;
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    this.port = (server.address() as AddressInfo).port;
    return this;
  }

  /** `http://127.0.0.1:<port>` */
  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Queues replies; each request takes the next one (requests the fallback handles, like /api/tags, take none). */
  reply(...replies: FakeReplySource[]): this {
    this.queue.push(...replies);
    return this;
  }

  /** Drops the replies still queued, so a test that shares the server starts from none. */
  clearReplies(): void {
    this.queue.length = 0;
  }

  /** Replies still queued (a test can check that every scripted reply was used). */
  get pending(): number {
    return this.queue.length;
  }

  /** Resolves with the next request to arrive (or the n-th overall, when given and already there). */
  nextRequest(index?: number): Promise<RecordedRequest> {
    if (index !== undefined && this.requests[index]) return Promise.resolve(this.requests[index]);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Closes the server and every open connection (stalled replies included). */
  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Takes the next scripted reply for a request the fallback does not answer by itself. */
  takeQueued(request: RecordedRequest): FakeReply | undefined {
    const next = this.queue.shift();
    return typeof next === 'function' ? next(request) : next;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = rawBody ? JSON.parse(rawBody) : undefined;
    } catch {
      body = undefined;
    }
    let byClient = false;
    let settle!: (value: { byClient: boolean }) => void;
    const closed = new Promise<{ byClient: boolean }>((resolve) => (settle = resolve));
    res.on('close', () => {
      byClient = !res.writableFinished;
      settle({ byClient });
    });
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: req.headers,
      body,
      rawBody,
      get closedByClient() {
        return byClient;
      },
      closed,
    };
    this.requests.push(recorded);
    for (const waiter of this.waiters.splice(0)) waiter(recorded);

    const reply = this.fallback(recorded) ?? {
      status: 500,
      headers: { 'content-type': 'text/plain' },
      steps: [{ write: `fake: no scripted reply for ${recorded.method} ${recorded.path}` }],
    };
    await play(reply, res);
  }
}

async function play(reply: FakeReply, res: http.ServerResponse): Promise<void> {
  if (reply.stallBeforeHeaders) return; // the client's close (or server close) ends it
  res.writeHead(reply.status ?? 200, reply.headers ?? {});
  res.flushHeaders();
  for (const step of reply.steps ?? []) {
    if (res.destroyed) return;
    if ('write' in step) {
      if (!res.write(step.write)) await drainOrClose(res);
    } else if ('stall' in step) {
      return;
    } else if ('drop' in step) {
      res.socket?.destroy();
      return;
    } else {
      await step.waitFor;
    }
  }
  res.end();
}

/** Resolves on 'drain' or 'close', whichever comes first, leaving no listener behind. */
function drainOrClose(res: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** A loopback URL where nothing listens (connection refused): bind a free port, then release it. */
export async function refusedUrl(): Promise<string> {
  const server = http.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** Splits a string into pieces of at most `size` characters (code points kept whole). */
export function splitEvery(text: string, size: number): string[] {
  const chars = Array.from(text);
  const pieces: string[] = [];
  for (let i = 0; i < chars.length; i += size) pieces.push(chars.slice(i, i + size).join(''));
  return pieces;
}
