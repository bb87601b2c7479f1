// The terminal host's speed (start-up, one-shot answers, long streams), every figure against a floor measured in the same run:
//  1. start-up: `hac --version` vs `node -e ''` (target <= 1.1x); time until `humble-ai> ` appears in a
//     pseudo-terminal with 0 and with 3 stdio MCP servers (target <= 150 ms; the servers connect after the prompt);
//     with 20, one of them slow to start, the first message's tools vs that server alone (target <= 1.2x) and vs
//     the official client starting the same 20;
//  2. a one-shot answer (`hac -p`, 60 chunks) vs a bare script streaming the same answer with the vendor's SDK:
//     OpenAI's SSE and Ollama's NDJSON (target <= 0.6x); with one stdio MCP server configured vs a bare script that
//     also starts that server with the official MCP client and sends its tools (target <= 0.8x), our test server
//     and @modelcontextprotocol/server-everything (which lingers after its stdin closes: <= 150 ms last byte to exit);
//  3. from the server's last byte to the process's exit, the session and log on disk (target <= 25 ms);
//  4. streaming cost from socket to screen: a 1 MB and a 5 MB answer in 16-character events, both providers, vs the
//     bare script printing the same events (target <= 1.3x, and linear: 5 MB takes about 5x 1 MB);
//  5. where the time of one `hac -p` goes: HAC_PROFILE=1 makes hac print its phase marks on stderr.
// Run: npm run build && node bench/cli.mjs [runs=10]
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pty from 'node-pty';

const runs = Number(process.argv[2] ?? 10);
// Start-up figures are a few ms apart: twice the runs. Streams are long: half of them, at least 5.
const startRuns = 2 * runs;
const streamRuns = Math.max(5, Math.round(runs / 2));
const root = new URL('..', import.meta.url).pathname;
const hacBin = join(root, 'dist/cli/hac.cjs');
const testServer = join(root, 'test/fixtures/mcp/test-server.mjs');
// A real server from npm, started as its package's own entry: it takes its time to exit once its stdin closes.
const everythingServer = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(1)} ms`;
const ratio = (a, b) => `${(a / b).toFixed(2)}x`;
const row = (label, text) => console.log(`${label.padEnd(44)}${text}`);

// ---- The local server: OpenAI-shaped SSE on /v1/chat/completions, Ollama's NDJSON on /api/chat, streaming the
// answer set by `answer()` as a server streaming tokens does: each event in its own write (its own chunk of the
// chunked body), a turn of the event loop after each one, or after each 64 for a long answer (one turn per event
// would make this server, not the clients, the bottleneck). The bodies are built before the runs, so the server
// costs the clients as little as it can. The time its last byte left is kept for figure 3.
let events = [];
let bodies = {};
let lastByteAt = 0;
/** Set to receive the next chat request's parsed body (and when it arrived). */
let onRequest;
function answer(list) {
  events = list;
  const sse = (delta, finish = null) =>
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const ndjson = (content, done = false) =>
    `${JSON.stringify({ model: 'm', created_at: '2026-01-01T00:00:00Z', message: { role: 'assistant', content }, done, ...(done ? { done_reason: 'stop', eval_count: list.length } : {}) })}\n`;
  bodies = {
    openai: [
      sse({ role: 'assistant', content: '' }),
      ...list.map((e) => sse({ content: e })),
      sse({}, 'stop'),
      'data: [DONE]\n\n',
    ],
    ollama: [...list.map((e) => ndjson(e)), ndjson('', true)],
  };
}
answer(Array.from({ length: 60 }, (_, i) => `word${i} `));
const server = http.createServer((req, res) => {
  const received = [];
  req.on('data', (d) => onRequest && received.push(d));
  req.on('end', async () => {
    if (onRequest) onRequest({ at: performance.now(), body: JSON.parse(Buffer.concat(received).toString()) });
    const ollama = req.url === '/api/chat';
    res.writeHead(200, { 'content-type': ollama ? 'application/x-ndjson' : 'text/event-stream' });
    const body = bodies[ollama ? 'ollama' : 'openai'];
    const perTurn = body.length > 1000 ? 64 : 1;
    for (let i = 0; i < body.length - 1; i++) {
      if (!res.write(body[i])) await once(res, 'drain');
      else if (i % perTurn === perTurn - 1) await new Promise((r) => setImmediate(r));
    }
    res.end(body.at(-1), () => (lastByteAt = performance.now()));
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;

// ---- Homes and the bare scripts (in bench/ so that they resolve node_modules).
const homes = [];
function home({ provider = 'openai', servers = 0, server = testServer, slowStartMs = 0 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'hac-bench-'));
  homes.push(dir);
  const hacHome = join(dir, '.humble-ai-cli');
  mkdirSync(hacHome);
  const baseUrl = provider === 'openai' ? `${origin}/v1` : origin;
  const models = [{ name: 'm', provider, apiKey: 'sk-bench-000000', baseUrl, active: true }];
  writeFileSync(join(hacHome, 'config.json'), JSON.stringify({ models }));
  writeFileSync(join(hacHome, 'system_prompt.txt'), 'You are terse.\n');
  if (servers) {
    // With `slowStartMs`, the first server takes that long to start (the others start as fast as they can).
    const entries = Array.from({ length: servers }, (_, i) => [
      `s${i}`,
      {
        command: process.execPath,
        args: [server, 'stdio', ...(i === 0 && slowStartMs ? [`--start-delay=${slowStartMs}`] : [])],
      },
    ]);
    writeFileSync(
      join(hacHome, 'mcp-servers.json'),
      JSON.stringify({ mcpServers: Object.fromEntries(entries) }),
    );
  }
  return {
    hacHome,
    env: { PATH: process.env.PATH, HOME: dir, HAC_HOME: hacHome, LANG: 'C.UTF-8', TERM: 'xterm-256color' },
  };
}

const messages = `[{ role: 'system', content: 'You are terse.' }, { role: 'user', content: 'hello' }]`;
/** A bare script that starts one stdio MCP server with the official client and sends its tools with the question. */
function bareWithServer(server) {
  return `
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import OpenAI from 'openai';
const mcp = new Client({ name: 'bare', version: '1.0.0' });
await mcp.connect(new StdioClientTransport({ command: process.execPath, args: [${JSON.stringify(server)}, 'stdio'] }));
const { tools } = await mcp.listTools();
const client = new OpenAI({ baseURL: '${origin}/v1', apiKey: 'sk-bench-000000', maxRetries: 0 });
const stream = await client.chat.completions.create({ model: 'm', stream: true, temperature: 0.1, messages: ${messages},
  tools: tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.inputSchema } })) });
for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta?.content ?? '');
process.stdout.write('\\n');
await mcp.close();`;
}
/** The floor of the tool list: the slow server alone, started and listed by the official client. */
const SLOW_START_MS = 500;
const bareSlowServer = `
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
const mcp = new Client({ name: 'bare', version: '1.0.0' });
await mcp.connect(new StdioClientTransport({ command: process.execPath, args: [${JSON.stringify(testServer)}, 'stdio', '--start-delay=${SLOW_START_MS}'] }));
const { tools } = await mcp.listTools();
process.stdout.write(tools.length + '\\n');
await mcp.close();`;
/** The same 20 servers started at once by the official client, until every one has listed its tools. */
const bareTwentyServers = `
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
const clients = await Promise.all(Array.from({ length: 20 }, async (_, i) => {
  const mcp = new Client({ name: 'bare', version: '1.0.0' });
  const args = [${JSON.stringify(testServer)}, 'stdio', ...(i === 0 ? ['--start-delay=${SLOW_START_MS}'] : [])];
  await mcp.connect(new StdioClientTransport({ command: process.execPath, args }));
  await mcp.listTools();
  return mcp;
}));
process.stdout.write(clients.length + '\\n');
await Promise.all(clients.map((c) => c.close()));`;
const bareScripts = {
  openai: `
import OpenAI from 'openai';
const client = new OpenAI({ baseURL: '${origin}/v1', apiKey: 'sk-bench-000000', maxRetries: 0 });
const stream = await client.chat.completions.create({ model: 'm', stream: true, temperature: 0.1, messages: ${messages} });
for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta?.content ?? '');
process.stdout.write('\\n');`,
  ollama: `
import { Ollama } from 'ollama';
const client = new Ollama({ host: '${origin}' });
const stream = await client.chat({ model: 'm', stream: true, options: { temperature: 0.1 }, messages: ${messages} });
for await (const part of stream) process.stdout.write(part.message.content);
process.stdout.write('\\n');`,
  openaiMcp: bareWithServer(testServer),
  openaiEverything: bareWithServer(everythingServer),
  slowServer: bareSlowServer,
  twentyServers: bareTwentyServers,
};
const bareFiles = Object.fromEntries(
  Object.entries(bareScripts).map(([name, text]) => {
    const file = join(root, 'bench', `.bare-${name}.mjs`);
    writeFileSync(file, text);
    return [name, file];
  }),
);

/** Runs a process to its end: wall time from spawn to exit, and when it exited (for figure 3). */
function run(cmd, args, env) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(cmd, args, { env, cwd: root });
    const out = [];
    let stderr = '';
    let exitedAt = 0;
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', () => (exitedAt = performance.now()));
    child.on('close', (code) =>
      code === 0
        ? resolve({ ms: exitedAt - start, exitedAt, stdout: Buffer.concat(out).toString(), stderr })
        : reject(new Error(`${cmd} ${args.join(' ')}: exit ${code}\n${stderr}`)),
    );
    child.stdin.end();
  });
}

function timeToPrompt(env) {
  return new Promise((resolve) => {
    const start = performance.now();
    const term = pty.spawn(process.execPath, [hacBin], { env, cols: 100, rows: 30, cwd: root });
    let out = '';
    let done = false;
    term.onData((d) => {
      out += d;
      if (!done && out.includes('humble-ai> ')) {
        done = true;
        const took = performance.now() - start;
        term.write('/exit\r');
        term.onExit(() => resolve(took));
      }
    });
  });
}

/**
 * From starting the REPL to its first message reaching the model with the servers' tools: the prompt appears,
 * `hello` is typed at once, and the request must carry the slow server's tools (it is first in the file) and as
 * many as OpenAI takes (128 with hac's own: the 20 servers have more).
 */
function timeToToolList(env) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const term = pty.spawn(process.execPath, [hacBin], { env, cols: 100, rows: 30, cwd: root });
    let out = '';
    let asked = false;
    onRequest = ({ at, body }) => {
      onRequest = undefined;
      const tools = (body.tools ?? []).map((t) => t.function.name);
      if (!tools.some((name) => name.startsWith('s0__')) || tools.length < 100)
        reject(new Error(`the first request had ${tools.length} tools: ${tools.slice(0, 3)}…`));
      term.onExit(() => resolve(at - start));
      setTimeout(() => term.write('/exit\r'), 100);
    };
    term.onData((d) => {
      out += d;
      if (!asked && out.includes('humble-ai> ')) {
        asked = true;
        term.write('hello\r');
      }
    });
  });
}

/** hac -p and the bare script, alternated, `n` runs each after one warm-up; both must print the whole answer. */
async function versus(env, bareFile, n) {
  const expected = `${events.join('')}\n`;
  const hac = [];
  const bare = [];
  const tail = [];
  const bareTail = [];
  for (let i = 0; i <= n; i++) {
    const h = await run(process.execPath, [hacBin, '-p', 'hello'], env);
    const hacTail = h.exitedAt - lastByteAt;
    const b = await run(process.execPath, [bareFile], env);
    const floorTail = b.exitedAt - lastByteAt;
    if (h.stdout !== expected || b.stdout !== expected)
      throw new Error(`unexpected output: ${h.stdout.slice(0, 80)}… / ${b.stdout.slice(0, 80)}…`);
    if (i === 0) continue;
    hac.push(h.ms);
    bare.push(b.ms);
    tail.push(hacTail);
    bareTail.push(floorTail);
  }
  return {
    hac: median(hac),
    bare: median(bare),
    tail: median(tail),
    worstTail: Math.max(...tail),
    bareTail: median(bareTail),
  };
}

/** The phase marks of one `hac -p` (HAC_PROFILE=1), as intervals: what each step took, on the bench's clock. */
async function phases(env) {
  const spawnedAt = performance.now();
  const r = await run(process.execPath, [hacBin, '-p', 'hello'], { ...env, HAC_PROFILE: '1' });
  const at = Object.fromEntries(
    [...r.stderr.matchAll(/\[hac-profile\] [\d.]+ (.+) @([\d.]+)/g)].map((m) => [
      m[1],
      Number(m[2]) - performance.timeOrigin,
    ]),
  );
  return {
    'spawn -> modules loaded': at['modules loaded'] - spawnedAt,
    'modules -> config read, core created': at['config loaded, core created'] - at['modules loaded'],
    'core -> first answer text': at['first answer text'] - at['config loaded, core created'],
    "server's last byte -> turn ended": at['turn ended'] - lastByteAt,
    'turn ended -> done (MCP, log closed)': at.done - at['turn ended'],
    'done -> process gone': r.exitedAt - at.done,
  };
}

// Sections: node bench/cli.mjs [runs] [startup,oneshot,stream,phases]
const sections = new Set((process.argv[3] ?? 'startup,oneshot,stream,phases').split(','));
const plain = home();
const ollamaHome = home({ provider: 'ollama' });
try {
  if (sections.has('startup')) {
    const floor = [];
    const version = [];
    const prompt0 = [];
    const prompt3 = [];
    const prompt20 = [];
    const three = home({ servers: 3 });
    const twenty = home({ servers: 20 });
    await run(process.execPath, ['-e', ''], plain.env);
    await timeToPrompt(plain.env);
    for (let i = 0; i < startRuns; i++) {
      floor.push((await run(process.execPath, ['-e', ''], plain.env)).ms);
      version.push((await run(process.execPath, [hacBin, '--version'], plain.env)).ms);
      prompt0.push(await timeToPrompt(plain.env));
      prompt3.push(await timeToPrompt(three.env));
      prompt20.push(await timeToPrompt(twenty.env));
    }
    row(`node -e ''`, ms(median(floor)));
    row(
      'hac --version',
      `${ms(median(version))}  (${ratio(median(version), median(floor))} node; target <= 1.1x)`,
    );
    row('prompt, 0 MCP servers', `${ms(median(prompt0))}  (target <= 150 ms)`);
    row('prompt, 3 MCP servers', `${ms(median(prompt3))}  (target <= 150 ms)`);
    row(
      'prompt, 20 MCP servers',
      `${ms(median(prompt20))}  (${ratio(median(prompt20), median(prompt0))} with none; target <= 1.05x)`,
    );
    // 20 servers, one of them slow to start: the first message waits for their tools, and should not wait much
    // longer than that server alone takes to start and list its tools.
    const slow = home({ servers: 20, slowStartMs: SLOW_START_MS });
    const toolList = [];
    const slowAlone = [];
    const twentyBare = [];
    for (let i = 0; i < runs; i++) {
      toolList.push(await timeToToolList(slow.env));
      slowAlone.push((await run(process.execPath, [bareFiles.slowServer], slow.env)).ms);
      twentyBare.push((await run(process.execPath, [bareFiles.twentyServers], slow.env)).ms);
    }
    row(
      `first message's tools, 20 servers`,
      `${ms(median(toolList))} vs the slow one alone ${ms(median(slowAlone))} = ` +
        `${ratio(median(toolList), median(slowAlone))}  (it waits ${SLOW_START_MS} ms to start; target <= 1.2x)`,
    );
    row(
      `  the same 20, bare official client`,
      `${ms(median(twentyBare))}: hac's first request ${ratio(median(toolList), median(twentyBare))} that`,
    );
  }

  if (sections.has('oneshot')) {
    const openai = await versus(plain.env, bareFiles.openai, runs);
    row(
      'hac -p, OpenAI SSE',
      `${ms(openai.hac)} vs bare openai SDK ${ms(openai.bare)} = ${ratio(openai.hac, openai.bare)}  (target <= 0.6x)`,
    );
    const ollama = await versus(ollamaHome.env, bareFiles.ollama, runs);
    row(
      'hac -p, Ollama NDJSON',
      `${ms(ollama.hac)} vs bare ollama SDK ${ms(ollama.bare)} = ${ratio(ollama.hac, ollama.bare)}  (target <= 0.9x)`,
    );
    const mcp = await versus(home({ servers: 1 }).env, bareFiles.openaiMcp, runs);
    row(
      'hac -p, OpenAI + 1 stdio MCP server',
      `${ms(mcp.hac)} vs bare SDKs ${ms(mcp.bare)} = ${ratio(mcp.hac, mcp.bare)}  (target <= 0.8x)`,
    );
    const everything = await versus(
      home({ servers: 1, server: everythingServer }).env,
      bareFiles.openaiEverything,
      runs,
    );
    row(
      'hac -p, OpenAI + server-everything',
      `${ms(everything.hac)} vs bare SDKs ${ms(everything.bare)} = ${ratio(everything.hac, everything.bare)}  (target <= 0.8x)`,
    );
    row(
      'last byte -> exit, with server-everything',
      `${ms(everything.tail)}  (bare script ${ms(everything.bareTail)}; target <= 150 ms)`,
    );
    row(
      'last byte -> exit, hac -p OpenAI',
      `${ms(openai.tail)}  (bare openai script ${ms(openai.bareTail)}; Ollama ${ms(ollama.tail)}, with MCP ${ms(mcp.tail)}; target <= 25 ms)`,
    );
    row(
      '  the slowest of the runs',
      `OpenAI ${ms(openai.worstTail)}, Ollama ${ms(ollama.worstTail)}  (Ollama's target: <= 25 ms in every run)`,
    );
    const sessions = readdirSync(join(plain.hacHome, 'sessions')).length;
    if (sessions <= runs) throw new Error(`only ${sessions} session files for ${runs + 1} runs`);
  }

  if (sections.has('stream')) {
    for (const [provider, env, bareFile] of [
      ['OpenAI', plain.env, bareFiles.openai],
      ['Ollama', ollamaHome.env, bareFiles.ollama],
    ]) {
      const figures = [];
      for (const mb of [1, 5]) {
        const text = 'Streaming 한국어 日本語 text. '.repeat(Math.ceil((mb << 20) / 30)).slice(0, mb << 20);
        answer(text.match(/[\s\S]{1,16}/g));
        const r = await versus(env, bareFile, streamRuns);
        figures.push(r);
        row(
          `${mb} MB in 16-char events, ${provider}`,
          `${ms(r.hac)} vs bare SDK ${ms(r.bare)} = ${ratio(r.hac, r.bare)}  (target <= 1.3x)`,
        );
      }
      row(
        `  5 MB / 1 MB, ${provider}`,
        `hac ${ratio(figures[1].hac, figures[0].hac)}, bare ${ratio(figures[1].bare, figures[0].bare)}  (linear: about 5x)`,
      );
    }
    answer(Array.from({ length: 60 }, (_, i) => `word${i} `));
  }

  if (sections.has('phases')) {
    await phases(plain.env);
    const all = [];
    for (let i = 0; i < runs; i++) all.push(await phases(plain.env));
    console.log(`phases of hac -p, OpenAI (median of ${runs}):`);
    for (const name of Object.keys(all[0])) row(`  ${name}`, ms(median(all.map((p) => p[name]))));
  }
} finally {
  server.close();
  for (const dir of homes) rmSync(dir, { recursive: true, force: true });
  for (const file of Object.values(bareFiles)) rmSync(file, { force: true });
}
