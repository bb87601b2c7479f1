// Markdown rendering: the cost of showing a 1 MB Markdown answer styled, against printing it as written,
// in the same run, for two kinds of text:
//  - typical: whole answers as models write them (test/fixtures/markdown/long-answers.ts: prose, some inline
//    styles, lists, a few code blocks of several lines; English, Korean, Japanese), repeated to 1 MB;
//  - dense: the renderer's torture corpus (answers.ts: a marker every few characters, a code block every 150).
//  1. end to end: the REPL in a pseudo-terminal streams the 1 MB answer (in 16-character SSE events) from a local
//     OpenAI-shaped server; hac's CPU time (user + system, /proc) from Enter to the next prompt, "markdown": true
//     vs false (target <= 1.2x on typical answers), and the wall time;
//  2. in process: the renderer alone on the same text in 16-character deltas, ms per MB.
// Run: npm run build && node bench/markdown.mjs [runs=3]
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pty from 'node-pty';
import { importTs } from './import-ts.mjs';

const runs = Number(process.argv[2] ?? 3);
const root = new URL('..', import.meta.url).pathname;
const hacBin = join(root, 'dist/cli/hac.cjs');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const { MARKDOWN_ANSWERS } = await importTs('test/fixtures/markdown/answers.ts');
const { LONG_ANSWERS } = await importTs('test/fixtures/markdown/long-answers.ts');
const oneMegabyte = (texts) => {
  const block = texts.map((t) => t.trimEnd()).join('\n\n') + '\n\n';
  return block.repeat(Math.ceil((1 << 20) / block.length)).slice(0, 1 << 20);
};
const corpora = {
  typical: oneMegabyte(LONG_ANSWERS),
  dense: oneMegabyte(MARKDOWN_ANSWERS.map((a) => a.text)),
};
let events = [];

const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = (delta, finish = null) =>
      `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    let body = chunk({ role: 'assistant', content: '' });
    for (const e of events) body += chunk({ content: e });
    res.end(`${body}${chunk({}, 'stop')}data: [DONE]\n\n`);
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const baseUrl = `http://127.0.0.1:${server.address().port}/v1`;

function home(markdown) {
  const dir = mkdtempSync(join(tmpdir(), 'hac-bench-md-'));
  mkdirSync(join(dir, '.humble-ai-cli'));
  const models = [{ name: 'm', provider: 'openai', apiKey: 'sk-bench-000000', baseUrl, active: true }];
  writeFileSync(join(dir, '.humble-ai-cli', 'config.json'), JSON.stringify({ models, markdown }));
  return dir;
}

/** CPU time (user + system) a process has used so far, in ms, from /proc. */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

/** Enter to the next prompt, in a pty that a reader drains as a terminal would: wall time and hac's CPU time. */
async function turn(markdown) {
  const dir = home(markdown);
  const term = pty.spawn(process.execPath, [hacBin], {
    cols: 120,
    rows: 40,
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      HAC_HOME: join(dir, '.humble-ai-cli'),
      TERM: 'xterm-256color',
      LANG: 'C.UTF-8',
    },
  });
  // The reader keeps only a short tail to search, as a terminal would not re-read its scrollback: searching the
  // whole growing output on every data event would make the reader, not hac, the bottleneck.
  let tail = '';
  let seen = 0;
  let waiter;
  term.onData((d) => {
    tail = (tail + d).slice(-64);
    seen += d.length;
    waiter?.();
  });
  const waitFor = (text, after = 0) =>
    new Promise((resolve) => {
      waiter = () => seen > after && tail.includes(text) && resolve();
      waiter();
    });
  await waitFor('humble-ai> ');
  await new Promise((r) => setTimeout(r, 300)); // the highlighter loads in the background after the prompt
  tail = '';
  const from = seen;
  const cpu = cpuMs(term.pid);
  const start = performance.now();
  term.write('go\r');
  await waitFor('humble-ai> ', from + 10);
  const ms = performance.now() - start;
  const used = cpuMs(term.pid) - cpu;
  term.kill();
  rmSync(dir, { recursive: true, force: true });
  return { ms, cpu: used };
}

const { MarkdownStream } = await importTs('core/transcript/markdown-stream.ts');
const { loadHighlighter } = await importTs('core/transcript/highlight.ts');
const highlight = await loadHighlighter();
const wall = (xs) => median(xs.map((x) => x.ms));
const cpu = (xs) => median(xs.map((x) => x.cpu));

for (const [name, answer] of Object.entries(corpora)) {
  events = answer.match(/[\s\S]{1,16}/g);
  const styled = [];
  const raw = [];
  for (let i = 0; i < runs; i++) {
    raw.push(await turn(false));
    styled.push(await turn(true));
  }
  const inProcess = [];
  for (let i = 0; i < 5; i++) {
    const md = new MarkdownStream({ hyperlinks: true, highlight });
    const start = performance.now();
    for (const e of events) md.push(e);
    md.flush();
    inProcess.push(performance.now() - start);
  }
  const target = name === 'typical' ? '(target <= 1.2x)' : '(worst case, no target)';
  console.log(
    `1 MB ${name} answer in 16-char events (median of ${runs}): hac's CPU time raw ${cpu(raw).toFixed(0)} ms, Markdown ${cpu(styled).toFixed(0)} ms = ${(cpu(styled) / cpu(raw)).toFixed(2)}x ${target}`,
  );
  console.log(
    `  Enter to prompt (wall): raw ${wall(raw).toFixed(0)} ms, Markdown ${wall(styled).toFixed(0)} ms = ${(wall(styled) / wall(raw)).toFixed(2)}x`,
  );
  console.log(`  renderer alone, 16-char deltas, highlighting on: ${median(inProcess).toFixed(0)} ms per MB`);
}
server.close();
