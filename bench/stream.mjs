// Streaming a 1 MB answer: our provider path (adapter + retry wrapper) against a bare script that
// makes the same request with the same SDK and only concatenates the text, in the same run, for OpenAI (SSE) and
// Ollama (NDJSON). Also checks that time grows linearly with the answer (1 MB vs 4 MB). Target: ratio <= 1.2x.
// Run: node bench/stream.mjs [runs=7] [chunkChars=16]
// It first bundles the fakes, the adapters and both SDKs (one copy, shared by both sides) into a temp dir:
//   node_modules/.bin/esbuild <stdin entry> --bundle --platform=node --format=esm --outfile=<tmp>/stream-lib.mjs
// The adapters run as with the default logLevel (info): `logResponses: false`, no debug copy of the answer kept.
// The fake servers run in a child process (same bundle) so their work does not share the client's thread.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

const SIZES = { '1mb': 1024 * 1024, '4mb': 4 * 1024 * 1024 };

if (process.argv[2] === '--serve') {
  await serve(process.argv[3], Number(process.argv[4]));
} else {
  await main(Number(process.argv[2] ?? 7), Number(process.argv[3] ?? 16));
}

/** Child process: one OpenAI-shaped and one Ollama-shaped server answering every request with a pre-rendered answer. */
async function serve(bundle, chunkChars) {
  const lib = await import(pathToFileURL(bundle).href);
  const chunksFor = (size) => {
    const piece = 'Lorem ipsum dolor sit amet, 한국어 텍스트도 조금. '
      .repeat(Math.ceil(size / 40))
      .slice(0, size);
    return lib.splitEvery(piece, chunkChars);
  };
  const openaiReplies = {};
  const ollamaReplies = {};
  for (const [name, size] of Object.entries(SIZES)) {
    const chunks = chunksFor(size);
    const request = { body: { model: name, stream_options: { include_usage: true } } };
    openaiReplies[name] = {
      status: 200,
      headers: { 'content-type': 'text/event-stream; charset=utf-8' },
      steps: lib.answerSteps({ text: chunks }, request),
    };
    ollamaReplies[name] = {
      status: 200,
      headers: { 'content-type': 'application/x-ndjson' },
      steps: lib.ollamaAnswerSteps({ text: chunks }, request),
    };
  }
  const openai = await new lib.FakeHttpServer((req) => openaiReplies[req.body?.model]).listen();
  const ollama = await new lib.FakeHttpServer((req) => ollamaReplies[req.body?.model]).listen();
  process.stdout.write(`${JSON.stringify({ openai: `${openai.origin}/v1`, ollama: ollama.origin })}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
}

async function main(runs, chunkChars) {
  const root = new URL('..', import.meta.url).pathname;
  const dir = mkdtempSync(join(tmpdir(), 'hac-bench-stream-'));
  const bundle = join(dir, 'stream-lib.mjs');
  const entry = [
    "export { default as OpenAI } from 'openai';",
    "export { Ollama } from 'ollama';",
    "export { OpenAIChatModel } from './core/providers/openai/openai-chat-model.ts';",
    "export { OllamaChatModel } from './core/providers/ollama/ollama-chat-model.ts';",
    "export { streamWithRetries } from './core/providers/retry.ts';",
    "export { silentLogger } from './core/logging/logger.ts';",
    "export { FakeHttpServer, splitEvery } from './test/fakes/http-fake.ts';",
    "export { answerSteps } from './test/fakes/openai-fake.ts';",
    "export { ollamaAnswerSteps } from './test/fakes/ollama-fake.ts';",
  ].join('\n');
  const built = spawnSync(
    join(root, 'node_modules/.bin/esbuild'),
    [
      '--bundle',
      '--platform=node',
      '--format=esm',
      '--main-fields=module,main',
      '--sourcefile=bench-stream-entry.ts',
      '--loader=ts',
      `--outfile=${bundle}`,
      '--log-level=warning',
      "--banner:js=import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    ],
    { cwd: root, input: entry, stdio: ['pipe', 'inherit', 'inherit'] },
  );
  if (built.status !== 0) throw new Error('esbuild failed');
  const lib = await import(pathToFileURL(bundle).href);

  const child = spawn(
    process.execPath,
    [new URL(import.meta.url).pathname, '--serve', bundle, String(chunkChars)],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const urls = JSON.parse(
    await new Promise((resolve) => createInterface({ input: child.stdout }).once('line', resolve)),
  );

  const messages = [{ role: 'user', content: 'Write a long text.' }];
  const model = (provider, baseUrl, id) => ({
    index: 0,
    id,
    label: id,
    provider,
    apiKey: 'sk-bench',
    baseUrl,
    toolMode: 'prompt',
    active: true,
    firstByteTimeoutMs: 60_000,
    idleTimeoutMs: 60_000,
  });
  const openaiClient = new lib.OpenAI({ apiKey: 'sk-bench', baseURL: urls.openai, maxRetries: 0 });
  const ollamaClient = new lib.Ollama({ host: urls.ollama });

  const paths = {
    'openai bare SDK': async (size) => {
      let text = '';
      const stream = await openaiClient.chat.completions.create({
        model: size,
        messages,
        stream: true,
        temperature: 0.1,
        stream_options: { include_usage: true },
      });
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
      return text.length;
    },
    'openai hac adapter': async (size) =>
      ours(
        new lib.OpenAIChatModel({
          model: model('openai', urls.openai, size),
          configFile: 'config.json',
          logger: lib.silentLogger,
          logResponses: false,
        }),
      ),
    'ollama bare SDK': async (size) => {
      let text = '';
      const stream = await ollamaClient.chat({
        model: size,
        messages,
        stream: true,
        options: { temperature: 0.1 },
      });
      for await (const chunk of stream) text += chunk.message.content;
      return text.length;
    },
    'ollama hac adapter': async (size) =>
      ours(
        new lib.OllamaChatModel({
          model: model('ollama', urls.ollama, size),
          configFile: 'config.json',
          logger: lib.silentLogger,
          logResponses: false,
        }),
      ),
  };
  async function ours(chatModel) {
    let text = '';
    for await (const part of lib.streamWithRetries(chatModel, { messages }, new AbortController().signal, {
      logger: lib.silentLogger,
    })) {
      if (part.type === 'text-delta') text += part.text;
    }
    return text.length;
  }

  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const times = {};
  // CPU time of this (client) process: less disturbed than wall time by other work on the machine.
  const cpuTimes = {};
  // Warm up every path once, then interleave the runs so drift hits all paths alike.
  for (const run of Object.values(paths)) await run('1mb');
  for (let i = 0; i < runs; i++) {
    for (const size of Object.keys(SIZES)) {
      for (const [name, run] of Object.entries(paths)) {
        const started = performance.now();
        const cpuStart = process.cpuUsage();
        const chars = await run(size);
        const ms = performance.now() - started;
        const cpu = process.cpuUsage(cpuStart);
        (cpuTimes[`${name} ${size}`] ??= []).push((cpu.user + cpu.system) / 1000);
        if (chars !== SIZES[size] && !(chars > SIZES[size] * 0.5))
          throw new Error(`${name} got ${chars} characters`);
        (times[`${name} ${size}`] ??= []).push(ms);
      }
    }
  }
  child.stdin.end();
  rmSync(dir, { recursive: true, force: true });

  const report = (label, table, pick) => {
    const m = (key) => pick(table[key]);
    for (const provider of ['openai', 'ollama']) {
      const bare1 = m(`${provider} bare SDK 1mb`);
      const ours1 = m(`${provider} hac adapter 1mb`);
      const bare4 = m(`${provider} bare SDK 4mb`);
      const ours4 = m(`${provider} hac adapter 4mb`);
      console.log(
        `${provider} ${label}: 1 MB bare ${bare1.toFixed(0)} ms, hac ${ours1.toFixed(0)} ms, ratio ${(ours1 / bare1).toFixed(2)}x (target <= 1.2x); ` +
          `4 MB bare ${bare4.toFixed(0)} ms, hac ${ours4.toFixed(0)} ms, ratio ${(ours4 / bare4).toFixed(2)}x; ` +
          `growth 1->4 MB: hac ${(ours4 / ours1).toFixed(2)}x, bare ${(bare4 / bare1).toFixed(2)}x (linear = 4x)`,
      );
    }
  };
  // The fastest run is the cost with the least interference from other work on the machine; the median is shown too.
  const min = (xs) => Math.min(...xs);
  console.log(`streaming answers in ${chunkChars}-character chunks, ${runs} runs`);
  report('wall, fastest', times, min);
  report('cpu,  fastest', cpuTimes, min);
  report('wall, median ', times, median);
  report('cpu,  median ', cpuTimes, median);
}
