// The terminal host's speed (issue 6, R-PERF-1), every figure against a floor measured in the same run:
//  1. time until `humble-ai> ` appears in a pseudo-terminal, with 0 and with 3 stdio MCP servers configured,
//     vs `node -e ''` (target <= 150 ms, and the 3 servers add nothing: they connect after the prompt);
//  2. a one-shot answer (`hac -p`) from a local OpenAI-shaped SSE server vs a bare script streaming the same
//     answer with the openai SDK (target <= 0.7x), and the peak RSS of both (/usr/bin/time -f %M).
//  3. where hac's one-shot time goes: HAC_PROFILE=1 makes hac print its phase marks on stderr.
// Run: npm run build && node bench/cli.mjs [runs=10]
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pty from 'node-pty';

const runs = Number(process.argv[2] ?? 10);
const root = new URL('..', import.meta.url).pathname;
const hacBin = join(root, 'dist/cli/hac.mjs');
const testServer = join(root, 'test/fixtures/mcp/test-server.mjs');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms) => `${ms.toFixed(1)} ms`;

// An OpenAI-shaped server answering every chat request with the same 60-chunk stream.
const WORDS = Array.from({ length: 60 }, (_, i) => `word${i} `);
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = (delta, finish = null) =>
      `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-bench', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    res.write(chunk({ role: 'assistant', content: '' }));
    for (const w of WORDS) res.write(chunk({ content: w }));
    res.write(chunk({}, 'stop'));
    res.end('data: [DONE]\n\n');
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const baseUrl = `http://127.0.0.1:${server.address().port}/v1`;

function home(servers) {
  const dir = mkdtempSync(join(tmpdir(), 'hac-bench-'));
  const hacHome = join(dir, '.humble-ai-cli');
  mkdirSync(hacHome);
  writeFileSync(
    join(hacHome, 'config.json'),
    JSON.stringify({
      models: [{ name: 'gpt-bench', provider: 'openai', apiKey: 'sk-bench-000000', baseUrl, active: true }],
    }),
  );
  writeFileSync(join(hacHome, 'system_prompt.txt'), 'You are terse.\n');
  if (servers) {
    const entries = Object.fromEntries(
      Array.from({ length: servers }, (_, i) => [
        `s${i}`,
        { command: process.execPath, args: [testServer, 'stdio'] },
      ]),
    );
    writeFileSync(join(hacHome, 'mcp-servers.json'), JSON.stringify({ mcpServers: entries }));
  }
  return {
    dir,
    env: { PATH: process.env.PATH, HOME: dir, HAC_HOME: hacHome, LANG: 'C.UTF-8', TERM: 'xterm-256color' },
  };
}

function run(cmd, args, env, { stdin = '' } = {}) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(cmd, args, { env, cwd: root });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) =>
      code === 0
        ? resolve({ ms: performance.now() - start, stdout, stderr })
        : reject(new Error(`${cmd} ${args.join(' ')}: exit ${code}\n${stderr}`)),
    );
    child.stdin.end(stdin);
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
        const ms = performance.now() - start;
        term.write('/exit\r');
        term.onExit(() => resolve(ms));
      }
    });
  });
}

const bare = `
import OpenAI from 'openai';
const client = new OpenAI({ baseURL: ${JSON.stringify(baseUrl)}, apiKey: 'sk-bench-000000', maxRetries: 0 });
const stream = await client.chat.completions.create({ model: 'gpt-bench', stream: true, temperature: 0.1,
  messages: [{ role: 'system', content: 'You are terse.' }, { role: 'user', content: 'hello' }] });
for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta?.content ?? '');
process.stdout.write('\\n');`;
const bareFile = join(root, 'bench', '.bare-openai.mjs');
writeFileSync(bareFile, bare);

const plain = home(0);
const three = home(3);
try {
  // 1. Start-up to the prompt.
  const floor = [];
  const prompt0 = [];
  const prompt3 = [];
  await run(process.execPath, ['-e', ''], plain.env);
  await timeToPrompt(plain.env);
  for (let i = 0; i < runs; i++) {
    floor.push((await run(process.execPath, ['-e', ''], plain.env)).ms);
    prompt0.push(await timeToPrompt(plain.env));
    prompt3.push(await timeToPrompt(three.env));
  }
  console.log(`node -e ''                      ${fmt(median(floor))}`);
  console.log(
    `prompt, 0 MCP servers           ${fmt(median(prompt0))}  (${(median(prompt0) / median(floor)).toFixed(2)}x node; target <= 150 ms)`,
  );
  console.log(
    `prompt, 3 MCP servers           ${fmt(median(prompt3))}  (+${fmt(median(prompt3) - median(prompt0))} vs 0 servers)`,
  );

  // 2. One-shot answer vs the bare SDK script.
  const expected = `${WORDS.join('')}\n`;
  const hacRuns = [];
  const bareRuns = [];
  for (let i = 0; i < runs + 1; i++) {
    const h = await run(process.execPath, [hacBin, '-p', 'hello'], plain.env);
    const b = await run(process.execPath, [bareFile], plain.env);
    if (h.stdout !== expected || b.stdout !== expected)
      throw new Error(`unexpected output: ${JSON.stringify(h.stdout)} / ${JSON.stringify(b.stdout)}`);
    if (i > 0) {
      hacRuns.push(h.ms);
      bareRuns.push(b.ms);
    }
  }
  console.log(`bare openai SDK script          ${fmt(median(bareRuns))}`);
  console.log(
    `hac -p                          ${fmt(median(hacRuns))}  (${(median(hacRuns) / median(bareRuns)).toFixed(2)}x the bare script; target <= 0.7x)`,
  );

  const rss = async (args) =>
    Number(
      (await run('/usr/bin/time', ['-f', '%M', process.execPath, ...args], plain.env)).stderr
        .trim()
        .split('\n')
        .at(-1),
    );
  const hacRss = await rss([hacBin, '-p', 'hello']);
  const bareRss = await rss([bareFile]);
  console.log(
    `peak RSS: hac -p ${(hacRss / 1024).toFixed(1)} MB, bare script ${(bareRss / 1024).toFixed(1)} MB  (${(hacRss / bareRss).toFixed(2)}x; target <= 1x)`,
  );

  // 3. Phases of one hac -p run.
  const profiled = await run(process.execPath, [hacBin, '-p', 'hello'], { ...plain.env, HAC_PROFILE: '1' });
  const marks = profiled.stderr.split('\n').filter((l) => l.startsWith('[hac-profile]'));
  console.log(
    marks.length
      ? `phases (ms since process start):\n  ${marks.join('\n  ')}`
      : 'phases: (hac printed no profile marks)',
  );
} finally {
  server.close();
  rmSync(plain.dir, { recursive: true, force: true });
  rmSync(three.dir, { recursive: true, force: true });
  rmSync(bareFile, { force: true });
}
