// Markdown rendering (issue 21): the cost of showing a 1 MB Markdown answer styled, against printing it as written,
// in the same run.
//  1. end to end: the REPL in a pseudo-terminal streams a 1 MB answer (16-character SSE events) from a local
//     OpenAI-shaped server; time from Enter to the next prompt, "markdown": true vs false (target <= 1.2x);
//  2. in process: the renderer alone on the same text in 16-character deltas, ms per MB.
// Run: npm run build && node bench/markdown.mjs [runs=3]
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pty from 'node-pty';
import { importTs } from './import-ts.mjs';

const runs = Number(process.argv[2] ?? 3);
const root = new URL('..', import.meta.url).pathname;
const hacBin = join(root, 'dist/cli/hac.mjs');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const block = [
  '## Section\n\nSome **bold** text, some *italic*, a `code span` and a [link](https://example.com/x).\n\n',
  '- first item with `npm test`\n- second item, 서울 **사무소**\n1. one\n2. two\n\n',
  '```python\ndef add(a, b):\n    return a + b  # comment\n```\n\n> a quote with ~~strike~~\n\n---\n\n',
  'Plain prose that goes on for a while, 2*3*4 and snake_case_names, 東京の**天気**は晴れです。\n\n',
].join('');
const answer = block.repeat(Math.ceil((1 << 20) / block.length)).slice(0, 1 << 20);
const events = answer.match(/[\s\S]{1,16}/g);

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

/** Enter to the next prompt, in a pty that a reader drains as a terminal would. */
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
  let output = '';
  let waiter;
  term.onData((d) => {
    output += d;
    waiter?.();
  });
  const waitFor = (text, from = 0) =>
    new Promise((resolve) => {
      waiter = () => output.indexOf(text, from) >= 0 && resolve(output.indexOf(text, from));
      waiter();
    });
  await waitFor('humble-ai> ');
  await new Promise((r) => setTimeout(r, 300)); // the highlighter loads in the background after the prompt
  const from = output.length;
  const start = performance.now();
  term.write('go\r');
  await waitFor('humble-ai> ', from + 10);
  const ms = performance.now() - start;
  term.kill();
  rmSync(dir, { recursive: true, force: true });
  return ms;
}

const styled = [];
const raw = [];
for (let i = 0; i < runs; i++) {
  raw.push(await turn(false));
  styled.push(await turn(true));
}
server.close();

const { MarkdownStream } = await importTs('core/transcript/markdown-stream.ts');
const { loadHighlighter } = await importTs('core/transcript/highlight.ts');
const highlight = await loadHighlighter();
const inProcess = [];
for (let i = 0; i < 5; i++) {
  const md = new MarkdownStream({ hyperlinks: true, highlight });
  const start = performance.now();
  for (const e of events) md.push(e);
  md.flush();
  inProcess.push(performance.now() - start);
}

const r = median(raw);
const s = median(styled);
console.log(
  `1 MB answer in 16-char events, Enter to prompt (median of ${runs}): raw ${r.toFixed(0)} ms, Markdown ${s.toFixed(0)} ms = ${(s / r).toFixed(2)}x (target <= 1.2x)`,
);
console.log(`renderer alone, 16-char deltas, highlighting on: ${median(inProcess).toFixed(0)} ms per MB`);
