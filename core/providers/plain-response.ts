import { buffer } from 'node:stream/consumers';

/**
 * Why these exist: the first use of the global Headers, Request or Response loads all of Node's undici, about
 * 35-45 ms of main thread on this machine, and undici loads node:tls, which parses the root certificates on
 * another thread and frees them at exit. The Ollama SDK needs nothing of a Response but what PlainResponse has,
 * so an Ollama answer never pays for undici. The OpenAI and Anthropic SDKs build Headers themselves, so they keep
 * real Responses (http-fetch.ts).
 */

/** Header names in any case, a repeated header's values joined with ", ", iterated in name order: as fetch's Headers. */
export class PlainHeaders {
  readonly #values = new Map<string, string>();

  /** From what fetch accepts as headers: a Headers (or anything with its forEach), pairs, or a record. */
  static from(init: HeadersInit | undefined): PlainHeaders {
    const headers = new PlainHeaders();
    if (Array.isArray(init)) for (const [name = '', value = ''] of init) headers.append(name, value);
    else if (init && typeof (init as Headers).forEach === 'function')
      (init as Headers).forEach((value, name) => headers.append(name, value));
    else
      for (const [name, value] of Object.entries((init ?? {}) as Record<string, string>))
        headers.append(name, value);
    return headers;
  }

  /** node:http's rawHeaders: names and values alternating, as they came. */
  static fromRaw(raw: readonly string[]): PlainHeaders {
    const headers = new PlainHeaders();
    for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
    return headers;
  }

  append(name: string, value: string): void {
    const key = name.toLowerCase();
    const had = this.#values.get(key);
    this.#values.set(key, had === undefined ? String(value) : `${had}, ${value}`);
  }

  delete(name: string): void {
    this.#values.delete(name.toLowerCase());
  }

  get(name: string): string | null {
    return this.#values.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.#values.has(name.toLowerCase());
  }

  forEach(callback: (value: string, name: string, headers: PlainHeaders) => void): void {
    for (const [name, value] of this) callback(value, name, this);
  }

  entries(): IterableIterator<[string, string]> {
    return this[Symbol.iterator]();
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return [...this.#values].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))[Symbol.iterator]();
  }
}

/** The members of a fetch Response that the Ollama SDK and hac's own fetch wrappers read, and nothing else. */
export class PlainResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly headers: PlainHeaders;
  #used = false;

  constructor(
    readonly body: ReadableStream<Uint8Array> | null,
    init: { status: number; statusText: string; headers: PlainHeaders | Headers },
  ) {
    this.status = init.status;
    this.statusText = init.statusText;
    this.headers = init.headers instanceof PlainHeaders ? init.headers : PlainHeaders.from(init.headers);
    this.ok = init.status >= 200 && init.status <= 299;
  }

  get bodyUsed(): boolean {
    return this.#used;
  }

  /** As fetch reads a body: once only, as UTF-8, a byte order mark dropped. */
  async text(): Promise<string> {
    if (this.#used) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
    return this.body ? new TextDecoder().decode(await buffer(this.body)) : '';
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  /** For an SDK typed to take fetch: it reads only the members above (checked by the Ollama tests). */
  asResponse(): Response {
    return this as unknown as Response;
  }
}
