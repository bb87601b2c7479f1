// The desktop page in one Chromium run (its speed figures), each against a floor measured in the
// same run:
//   stream  a 1 MB answer from the OpenAI fake through `hac web` until its last line is on screen, vs the same
//           text written into a bare xterm.js page (same options, no hac) until its last line is on screen;
//           target <= 1.2x. The server side reads 12.6 MB of SSE (300-500 ms of hac web's CPU per stream, most of
//           it Node's HTTP parser and JSON.parse of each event), on the same two cores as Chromium and this fake.
//   resume  `/resume` of a session of 2,000 messages (2.6 MB) until the prompt is ready with the conversation's
//           last screen drawn; target <= 500 ms
//   open    navigation until the prompt has focus, vs a static page with only xterm.js until it is open;
//           target <= 1.3x
//   heap    the page's JS heap (after a forced GC) and its DOM nodes after 50, 200, 800 and 1,000 turns: bounded, not
//           growing per turn; and the RSS of `hac web` (its server), at most 20 KB more per turn after turn 50
// Run: npm run build && node bench/desktop.mjs [runs=5]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { importTs } from './import-ts.mjs';

const runs = Number(process.argv[2] ?? 5);
const root = new URL('..', import.meta.url).pathname;
const { startOpenAIFake, openaiReply } = await importTs('test/fakes/openai-fake.ts');

const fake = await startOpenAIFake();
const home = mkdtempSync(join(tmpdir(), 'hac-bench-desktop-'));
mkdirSync(join(home, '.humble-ai-cli'));
writeFileSync(
  join(home, '.humble-ai-cli/config.json'),
  JSON.stringify({
    models: [
      { name: 'bench', provider: 'openai', apiKey: 'sk-bench-0000', baseUrl: fake.baseUrl, active: true },
    ],
  }),
);
const web = spawn(process.execPath, [join(root, 'dist/cli/hac.cjs'), 'web'], {
  env: { PATH: process.env.PATH, HOME: home, HAC_HOME: join(home, '.humble-ai-cli') },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise((resolve) => {
  let out = '';
  web.stdout.on('data', (d) => {
    out += d;
    if (out.includes('\n')) resolve(out.split('\n')[0]);
  });
});

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});

// The floor page: xterm.js alone, with the options the transcript uses, served from a route (no network).
const BARE = 'http://bare.invalid/';
const xtermJs = readFileSync(join(root, 'node_modules/@xterm/xterm/lib/xterm.js'), 'utf8');
const xtermCss = readFileSync(join(root, 'node_modules/@xterm/xterm/css/xterm.css'), 'utf8');
const barePage = `<!doctype html><html><head><style>${xtermCss} html,body,#t{height:100%;margin:0}</style>
<script>${xtermJs}</script></head><body><div id="t"></div><script>
const term = new Terminal({ disableStdin: true, scrollback: 10000, convertEol: true, fontSize: 14 });
term.open(document.getElementById('t'));
window.term = term; window.ready = true;
</script></body></html>`;
async function newPage() {
  const page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
  await page.route(`${BARE}**`, (route) => route.fulfill({ contentType: 'text/html', body: barePage }));
  return page;
}

// The answer: 1 MB of mixed text, ending with a marker line.
const line = (i) => `${String(i).padStart(5, '0')} Lorem ipsum dolor sit amet, 한국어 텍스트도 조금 섞어서.`;
const lines = [];
for (let i = 0, size = 0; size < 1024 * 1024; i++) {
  lines.push(line(i));
  size += Buffer.byteLength(line(i)) + 1;
}
lines.push('END-OF-ANSWER');
const answer = lines.join('\n');
const chunks = [];
for (let i = 0; i < answer.length; i += 16) chunks.push(answer.slice(i, i + 16));
// Its 44,569 SSE events are encoded once, before any run (a model's server starts sending at once; the fake would
// spend a few hundred milliseconds of the measured time encoding them first), and still sent one event per write,
// each its own chunk of the HTTP body, as a real server sends them.
const bigAnswer = openaiReply.text(chunks)({
  body: { model: 'bench', stream_options: { include_usage: true } },
});

/** Resolves in the page when the marker is in the visible rows (checked every frame). */
const untilVisible = () =>
  new Promise((resolve) => {
    const check = () =>
      document.querySelector('.xterm-rows')?.textContent?.includes('END-OF-ANSWER')
        ? resolve(performance.now())
        : requestAnimationFrame(check);
    check();
  });

async function streamHac() {
  const page = await newPage();
  await page.goto(url);
  await page.waitForFunction(() => document.activeElement?.id === 'prompt');
  fake.reply(bigAnswer);
  await page.locator('#prompt').fill('a long answer, please');
  await page.evaluate(() => {
    document
      .getElementById('prompt')
      .addEventListener('keydown', () => (window.t0 = performance.now()), { once: true, capture: true });
  });
  const visible = page.evaluate(`(${untilVisible})()`);
  await page.keyboard.press('Enter');
  const t1 = await visible;
  const t0 = await page.evaluate(() => window.t0);
  await page.close();
  return t1 - t0;
}

async function streamBare() {
  const page = await newPage();
  await page.goto(BARE);
  await page.waitForFunction(() => window.ready);
  const ms = await page.evaluate(
    async ([parts, wait]) => {
      const t0 = performance.now();
      for (const part of parts) window.term.write(part);
      const t1 = await eval(`(${wait})()`);
      return t1 - t0;
    },
    [chunks, untilVisible.toString()],
  );
  await page.close();
  return ms;
}

async function openHac() {
  const page = await newPage();
  const t0 = Date.now();
  await page.goto(url);
  await page.waitForFunction(() => document.activeElement?.id === 'prompt', null, { polling: 'raf' });
  const ms = Date.now() - t0;
  await page.close();
  return ms;
}

async function openBare() {
  const page = await newPage();
  const t0 = Date.now();
  await page.goto(BARE);
  await page.waitForFunction(() => window.ready, null, { polling: 'raf' });
  const ms = Date.now() - t0;
  await page.close();
  return ms;
}

/** A session of 2,000 messages (about 2.6 MB), written by hac's own session store, to resume. */
async function longSession() {
  const { FileSessionStore } = await importTs('core/sessions/session-store.ts');
  const { SecretRegistry } = await importTs('core/logging/secrets.ts');
  const store = new FileSessionStore(join(home, '.humble-ai-cli/sessions'), new SecretRegistry());
  const prose =
    'A paragraph of an earlier answer, with **bold** words and `code`, 한국어와 日本語も少し. '.repeat(13);
  const messages = [];
  for (let i = 0; i < 1000; i++) {
    messages.push({ role: 'user', content: `earlier question ${i}` });
    messages.push({ role: 'assistant', content: `${prose}\n\nanswer ${i} ends here`, model: 'bench' });
  }
  const session = { version: 1, startedAt: '2026-11-26T01:00:00+09:00', model: 'bench', messages };
  await store.create(session, new Date(), 'a long conversation');
}

async function resumeHac() {
  const page = await newPage();
  await page.goto(url);
  await page.waitForFunction(() => document.activeElement?.id === 'prompt');
  await page.locator('#prompt').fill('/resume 1');
  await page.evaluate(() => {
    document
      .getElementById('prompt')
      .addEventListener('keydown', () => (window.t0 = performance.now()), { once: true, capture: true });
  });
  const ready = page.evaluate(
    () =>
      new Promise((resolve) => {
        const check = () =>
          document.querySelector('.xterm-rows')?.textContent?.includes('answer 999 ends here') &&
          document.body.dataset.state !== 'working' &&
          document.activeElement?.id === 'prompt'
            ? resolve(performance.now())
            : requestAnimationFrame(check);
        check();
      }),
  );
  await page.keyboard.press('Enter');
  const t1 = await ready;
  const t0 = await page.evaluate(() => window.t0);
  await page.close();
  return t1 - t0;
}

const rssKb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${web.pid}/status`, 'utf8'))[1]);

async function heap() {
  const page = await newPage();
  const cdp = await page.context().newCDPSession(page);
  await page.goto(url);
  await page.waitForFunction(() => document.activeElement?.id === 'prompt');
  const used = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    return (await cdp.send('Runtime.getHeapUsage')).usedSize;
  };
  const figures = {};
  // Answers of a dozen lines: the transcript's 10,000 lines of scrollback are full from about turn 700, which the
  // figures at 800 and 1,000 turns show.
  const tenLines = Array.from({ length: 10 }, (_, i) => `line ${i} of the answer, with some text to read\n`);
  // Each reply answers the question it is given: past the context budget, a summary request comes first (it gets
  // the one for the summary), so two are queued a turn.
  const answerFor = (request) => {
    const asked = /question (\d+)$/.exec(request.body.messages.at(-1).content)?.[1];
    return openaiReply.text(
      asked ? [`Answer ${asked}:\n`, ...tenLines, `done ${asked}.`] : ['An earlier summary.'],
    )(request);
  };
  for (let turn = 1; turn <= 1000; turn++) {
    fake.reply(answerFor, answerFor);
    await page.waitForFunction(() => document.body.dataset.state !== 'working'); // the page keeps a line typed mid-answer
    await page.locator('#prompt').fill(`question ${turn}`);
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      (n) => document.querySelector('.xterm-rows')?.textContent?.includes(`done ${n}.`),
      turn,
    );
    if ([50, 200, 800, 1000].includes(turn)) {
      const nodes = await page.evaluate(() => document.getElementsByTagName('*').length);
      const lines = await page.evaluate(() => window.hacTranscript.lines().length);
      figures[turn] = { heap: await used(), nodes, lines, rss: rssKb() };
    }
  }
  await page.close();
  // A person pauses between messages: V8 gives back what its collector no longer needs once hac is idle.
  await new Promise((resolve) => setTimeout(resolve, 30_000));
  figures.idle = rssKb();
  return figures;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const times = async (fn) => {
  const out = [];
  for (let i = 0; i < runs; i++) out.push(await fn());
  return median(out);
};

await streamHac(); // warm-up: the first conversation starts the runtime's model client
const stream = { hac: await times(streamHac), bare: await times(streamBare) };
const open = { hac: await times(openHac), bare: await times(openBare) };
await longSession();
const resume = await times(resumeHac);
const heapUse = await heap();
const mb = (n) => `${(n / 1024 / 1024).toFixed(1)} MB`;
console.log(
  `answer: ${(Buffer.byteLength(answer) / 1024 / 1024).toFixed(2)} MB in ${chunks.length} chunks; median of ${runs} runs`,
);
console.log(
  `stream  hac ${stream.hac.toFixed(0)} ms   bare xterm ${stream.bare.toFixed(0)} ms   ratio ${(stream.hac / stream.bare).toFixed(2)}x (target <= 1.2x)`,
);
console.log(
  `open    hac ${open.hac} ms   bare xterm ${open.bare} ms   ratio ${(open.hac / open.bare).toFixed(2)}x (target <= 1.3x)`,
);
console.log(
  `resume  2,000 messages: prompt ready with the last screen drawn in ${resume.toFixed(0)} ms (target <= 500 ms)`,
);
const each = (pick) => [50, 200, 800, 1000].map((turn) => pick(heapUse[turn])).join(' / ');
console.log(
  `heap    page after 50 / 200 / 800 / 1,000 turns ${each((f) => mb(f.heap))}, DOM nodes ${each((f) => f.nodes)}, ` +
    `transcript lines ${each((f) => f.lines)}`,
);
console.log(
  `server  hac web RSS after 50 / 1,000 turns ${(heapUse[50].rss / 1024).toFixed(1)} / ` +
    `${(heapUse[1000].rss / 1024).toFixed(1)} MB = ` +
    `${((heapUse[1000].rss - heapUse[50].rss) / 950).toFixed(1)} KB/turn (target <= 20); after 30 s idle ` +
    `${(heapUse.idle / 1024).toFixed(1)} MB = ${((heapUse.idle - heapUse[50].rss) / 950).toFixed(1)} KB/turn`,
);

await browser.close();
web.kill('SIGTERM');
await fake.close();
rmSync(home, { recursive: true, force: true });
