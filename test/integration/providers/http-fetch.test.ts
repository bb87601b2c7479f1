import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { httpFetch, plainFetch } from '../../../core/providers/http-fetch.js';
import type { PlainResponse } from '../../../core/providers/plain-response.js';
import { refusedUrl } from '../../fakes/http-fake.js';

// httpFetch stands in for the global fetch under the OpenAI and Anthropic SDKs (issue 19), plainFetch under the
// Ollama SDK (with answers that do not load undici): each case holds both to what fetch does.

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function serve(
  handle: (req: http.IncomingMessage, res: http.ServerResponse, seen: Seen) => void,
): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (body += d));
    req.on('end', () => {
      const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      seen.push(entry);
      handle(req, res, entry);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

type Fetch = (input: string, init?: RequestInit) => Promise<Response | PlainResponse>;

describe.each<[string, Fetch]>([
  ['httpFetch', httpFetch],
  ['plainFetch', plainFetch],
])('%s, a fetch the provider SDKs get', (_name, httpFetch) => {
  it('sends-the-method-headers-and-body-and-returns-what-fetch-returns', async () => {
    const { url, seen } = await serve((_req, res) => {
      res.writeHead(404, 'Nope', { 'content-type': 'application/json', 'x-request-id': 'r1' });
      res.end('{"error":{"message":"없음"}}');
    });
    const init = {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ q: '안녕하세요' }),
    };
    const ours = await httpFetch(`${url}/v1/chat`, init);
    const theirs = await fetch(`${url}/v1/chat`, init);
    for (const r of [ours, theirs]) {
      expect(r.status).toBe(404);
      expect(r.statusText).toBe('Nope');
      expect(r.ok).toBe(false);
      expect(r.headers.get('x-request-id')).toBe('r1');
      expect(await r.json()).toEqual({ error: { message: '없음' } });
    }
    const [a, b] = seen;
    expect(a?.method).toBe('POST');
    expect(a?.url).toBe('/v1/chat');
    expect(a?.body).toBe(b?.body);
    expect(a?.headers['content-length']).toBe(b?.headers['content-length']);
    expect(a?.headers.authorization).toBe('Bearer k');
  });

  it('reads-headers-and-the-body-as-fetch-does', async () => {
    const { url } = await serve((_req, res) => {
      res.setHeader('X-Multi', ['one', 'two']);
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.setHeader('a-first', 'yes');
      res.end('\uFEFF첫 줄');
    });
    const ours = await httpFetch(url);
    const theirs = await fetch(url);
    expect(ours.headers.get('x-multi')).toBe(theirs.headers.get('X-MULTI'));
    expect(ours.headers.has('A-First')).toBe(true);
    const pairs = (headers: { forEach(f: (value: string, name: string) => void): void }) => {
      const seen: string[] = [];
      headers.forEach((value, name) => name !== 'date' && seen.push(`${name}=${value}`));
      return seen;
    };
    expect(pairs(ours.headers)).toEqual(pairs(theirs.headers));
    expect(ours.bodyUsed).toBe(false);
    expect(await ours.text()).toBe(await theirs.text()); // the byte order mark dropped
    expect(ours.bodyUsed).toBe(true);
    await expect(ours.text()).rejects.toThrow(TypeError);
    await expect(theirs.text()).rejects.toThrow(TypeError);
  });

  it('hands-over-each-piece-of-the-body-as-it-arrives', async () => {
    let second!: () => void;
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      second = () => res.end('data: two\n\n');
    });
    const response = await httpFetch(url);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    expect(decoder.decode((await reader.read()).value)).toBe('data: one\n\n'); // before the server sent more
    second();
    expect(decoder.decode((await reader.read()).value)).toBe('data: two\n\n');
    expect((await reader.read()).done).toBe(true);
  });

  it('passes-the-frames-of-one-read-on-as-one-chunk', async () => {
    // An SSE server writes one chunked-encoding frame per event; node:http hands each over alone, and every
    // reader above (the guard, the SDK's decoder) costs per chunk.
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let i = 0; i < 200; i++) res.write(`data: ${i}\n\n`);
      res.end();
    });
    const reader = (await httpFetch(url)).body!.getReader();
    let chunks = 0;
    let text = '';
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      chunks++;
      text += Buffer.from(r.value).toString();
    }
    expect(text).toBe(Array.from({ length: 200 }, (_, i) => `data: ${i}\n\n`).join(''));
    expect(chunks).toBeLessThan(20);
  });

  it('fails-with-the-abort-reason-before-and-during-the-body', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200);
      res.write('part');
    });
    const early = new AbortController();
    early.abort();
    await expect(httpFetch(url, { signal: early.signal })).rejects.toMatchObject({ name: 'AbortError' });

    const late = new AbortController();
    const response = await httpFetch(url, { signal: late.signal });
    const reader = response.body!.getReader();
    await reader.read();
    late.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('cancelling-the-body-closes-the-connection', async () => {
    let closed!: Promise<void>;
    const { url } = await serve((_req, res) => {
      closed = new Promise((resolve) => res.once('close', () => resolve()));
      res.writeHead(200);
      res.write('part');
    });
    const response = await httpFetch(url);
    await response.body!.cancel();
    await closed; // the server saw the connection go (a socket left open would time this test out)
  });

  it('reports-a-refused-connection-and-a-dropped-one-as-fetch-does', async () => {
    const refused = await httpFetch(await refusedUrl()).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TypeError);
    expect((refused as TypeError).message).toBe('fetch failed');
    expect(((refused as TypeError).cause as { code?: string }).code).toBe('ECONNREFUSED');

    const { url } = await serve((req, res) => {
      res.writeHead(200);
      res.write('some');
      setTimeout(() => req.socket.destroy(), 20);
    });
    const reader = (await httpFetch(url)).body!.getReader();
    await reader.read();
    await expect(reader.read()).rejects.toMatchObject({ name: 'TypeError', message: 'terminated' });
  });

  it('undoes-gzip-and-gives-a-204-no-body', async () => {
    const { url } = await serve((req, res) => {
      if (req.url === '/empty') return void res.writeHead(204).end();
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.end(gzipSync('{"models":["m"]}'));
    });
    expect(await (await httpFetch(url)).json()).toEqual({ models: ['m'] });
    const empty = await httpFetch(`${url}/empty`);
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
  });

  it('follows-redirects-as-fetch-does-and-keeps-keys-to-their-origin', async () => {
    const other = await serve((_req, res) => res.end('elsewhere'));
    const { url, seen } = await serve((req, res) => {
      if (req.url === '/old') return void res.writeHead(307, { location: '/new' }).end();
      if (req.url === '/see-other') return void res.writeHead(303, { location: '/new' }).end();
      if (req.url === '/away') return void res.writeHead(308, { location: `${other.url}/x` }).end();
      res.end(`${req.method} here`);
    });
    const post = { method: 'POST', headers: { authorization: 'Bearer k', 'x-api-key': 'k' }, body: 'b' };
    expect(await (await httpFetch(`${url}/old`, post)).text()).toBe('POST here');
    expect(seen.at(-1)).toMatchObject({ url: '/new', body: 'b', headers: { authorization: 'Bearer k' } });
    expect(await (await httpFetch(`${url}/see-other`, post)).text()).toBe('GET here');
    expect(seen.at(-1)?.body).toBe('');
    expect(await (await httpFetch(`${url}/away`, post)).text()).toBe('elsewhere');
    expect(other.seen[0]?.body).toBe('b');
    expect(other.seen[0]?.headers.authorization).toBeUndefined();
    expect(other.seen[0]?.headers['x-api-key']).toBeUndefined();
  });

  // The real vendors are https: node:https is loaded only for them, so it needs a test of its own.
  const openssl = (() => {
    try {
      execFileSync('openssl', ['version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  it.skipIf(!openssl)(
    'speaks-https-too (skipped without the openssl command to make a certificate)',
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'hac-tls-'));
      try {
        const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
        execFileSync(
          'openssl',
          [
            'req',
            '-x509',
            '-newkey',
            'rsa:2048',
            '-nodes',
            '-keyout',
            key,
            '-out',
            cert,
            '-days',
            '1',
            '-subj',
            '/CN=127.0.0.1',
            '-addext',
            'subjectAltName=IP:127.0.0.1',
          ],
          { stdio: 'ignore' },
        );
        const server = https.createServer(
          { key: readFileSync(key), cert: readFileSync(cert) },
          (req, res) => {
            req.resume();
            res.writeHead(200, { 'content-type': 'text/event-stream' });
            res.end(`data: ${req.method} over tls\n\n`);
          },
        );
        await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
        const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
        try {
          // A self-signed certificate is refused, as fetch refuses it...
          const refused = await httpFetch(url, { method: 'POST', body: '{}' }).catch((e: unknown) => e);
          expect(refused).toBeInstanceOf(TypeError);
          expect(((refused as TypeError).cause as { code?: string }).code).toBe(
            'DEPTH_ZERO_SELF_SIGNED_CERT',
          );
          // ...and trusted once the agent is told about it.
          https.globalAgent.options.ca = readFileSync(cert);
          const response = await httpFetch(url, { method: 'POST', body: '{}' });
          expect(await response.text()).toBe('data: POST over tls\n\n');
        } finally {
          delete https.globalAgent.options.ca;
          https.globalAgent.destroy();
          await new Promise((r) => server.close(r));
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
