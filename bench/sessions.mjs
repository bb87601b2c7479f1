// Conversations at scale, measured from outside in a pseudo-terminal (the built `hac`, a home with 10,000 sessions
// of about 4 KB each, Korean, Japanese and English text):
//  1. `/sessions`: from Enter to the last line of the listing (target <= 100 ms), the first time (the index beside
//     the sessions is built from the files) and then as it stays;
//  2. `/sessions <two words>`: a search over every message (target <= 300 ms);
//  3. start-up: time until `humble-ai> ` with 10,000 sessions vs with none, same run (target <= 1.05x: start-up
//     never reads the sessions);
//  4. `/resume` of one long session (2,000 messages, 2.6 MB): from Enter until the prompt is back (target <= 300 ms).
// Run: npm run build && node bench/sessions.mjs [runs=10] [sessions=10000]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pty from 'node-pty';

const runs = Number(process.argv[2] ?? 10);
const count = Number(process.argv[3] ?? 10_000);
const root = new URL('..', import.meta.url).pathname;
const hacBin = join(root, 'dist/cli/hac.cjs');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(1)} ms`;
const row = (label, text) => console.log(`${label.padEnd(52)}${text}`);

/** A home with a config and `n` session files, each a short conversation of six messages. */
function home(n) {
  const dir = mkdtempSync(join(tmpdir(), 'hac-bench-sessions-'));
  const hac = join(dir, '.humble-ai-cli');
  mkdirSync(join(hac, 'sessions'), { recursive: true });
  const model = {
    name: 'm',
    provider: 'openai',
    apiKey: 'sk-bench-0000',
    baseUrl: 'http://127.0.0.1:9',
    active: true,
  };
  writeFileSync(join(hac, 'config.json'), JSON.stringify({ models: [model] }));
  const words = [
    '서울',
    '날씨',
    '東京',
    '天気',
    'deploy',
    'review',
    'database',
    'query',
    '알겠습니다',
    'release',
  ];
  for (let i = 0; i < n; i++) {
    const messages = Array.from({ length: 6 }, (_, j) => ({
      role: j % 2 ? 'assistant' : 'user',
      content: Array.from({ length: 60 }, (_, k) => words[(i * 7 + j * 13 + k) % words.length]).join(' '),
      createdAt: '2026-01-01T00:00:00+09:00',
    }));
    // One session in a thousand holds the words searched for.
    if (i % 1000 === 7) messages[3].content += ' the quarterly 보고서 needs a rollback plan';
    const stamp = `2026${String(1 + (i % 12)).padStart(2, '0')}01_${String(i).padStart(6, '0')}`;
    writeFileSync(
      join(hac, 'sessions', `${stamp}_s.json`),
      JSON.stringify({ version: 1, startedAt: '2026-01-01T00:00:00+09:00', model: 'm', messages }, null, 2),
    );
  }
  return dir;
}

/** A running hac in a pty, with the time from writing a line to seeing `until`. */
function start(dir) {
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    HAC_HOME: join(dir, '.humble-ai-cli'),
    LANG: 'C.UTF-8',
    TERM: 'xterm-256color',
  };
  const began = performance.now();
  const term = pty.spawn(process.execPath, [hacBin], { env, cols: 120, rows: 40, cwd: dir });
  let out = '';
  let waiters = [];
  term.onData((d) => {
    out += d;
    const now = performance.now();
    waiters = waiters.filter((w) => !(out.includes(w.text, w.from) && (w.resolve(now), true)));
  });
  const waitFor = (text, from = 0) =>
    new Promise((resolve) => {
      if (out.includes(text, from)) resolve(performance.now());
      else waiters.push({ text, from, resolve });
    });
  return {
    prompt: waitFor('humble-ai> ').then((t) => t - began),
    async timed(line, until) {
      const from = out.length;
      const t0 = performance.now();
      term.write(`${line}\r`);
      const t1 = await waitFor(until, from);
      await waitFor('humble-ai> ', from);
      return t1 - t0;
    },
    async close() {
      term.write('/exit\r');
      await new Promise((resolve) => term.onExit(resolve));
    },
  };
}

/** A home whose one session is a long day: 2,000 messages of about 1,300 bytes (2.6 MB). */
function longHome() {
  const dir = home(0);
  const line = 'The deploy went out at noon; 서울 팀이 확인했습니다 and the 東京 review follows. ';
  const messages = Array.from({ length: 2000 }, (_, i) => ({
    role: i % 2 ? 'assistant' : 'user',
    content: `${i}: ${line.repeat(14)}`,
    createdAt: '2026-01-01T00:00:00+09:00',
  }));
  const session = { version: 1, startedAt: '2026-01-01T00:00:00+09:00', model: 'm', messages };
  writeFileSync(
    join(dir, '.humble-ai-cli/sessions/20260101_000000_long.json'),
    JSON.stringify(session, null, 2),
  );
  return dir;
}

const many = home(count);
const none = home(0);
const long = longHome();
try {
  // 1 and 2: one hac, the index built on the first listing.
  const hac = start(many);
  await hac.prompt;
  const first = await hac.timed('/sessions', 'Use /resume');
  const listing = [];
  const search = [];
  for (let i = 0; i < runs; i++) {
    listing.push(await hac.timed('/sessions', 'Use /resume'));
    search.push(await hac.timed('/sessions 보고서 rollback', 'Use /resume'));
  }
  await hac.close();
  row(`/sessions, ${count} sessions, first (index built)`, ms(first));
  row(
    `/sessions, ${count} sessions (target <= 100 ms)`,
    `${ms(median(listing))}  ${median(listing) <= 100 ? 'ok' : 'OVER'}`,
  );
  row(
    `/sessions <2 words>, ${count} sessions (target <= 300 ms)`,
    `${ms(median(search))}  ${median(search) <= 300 ? 'ok' : 'OVER'}`,
  );

  // 3: start-up with and without sessions, alternated.
  const withSessions = [];
  const without = [];
  for (let i = 0; i < runs; i++) {
    for (const [dir, into] of [
      [many, withSessions],
      [none, without],
    ]) {
      const h = start(dir);
      into.push(await h.prompt);
      await h.close();
    }
  }
  const r = median(withSessions) / median(without);
  row('time to prompt, no sessions (floor)', ms(median(without)));
  row(
    `time to prompt, ${count} sessions (target <= 1.05x)`,
    `${ms(median(withSessions))}  ${r.toFixed(2)}x  ${r <= 1.05 ? 'ok' : 'OVER'}`,
  );

  // 4: the same long session resumed again and again in one hac (each time after /new).
  const resumes = [];
  const hac2 = start(long);
  await hac2.prompt;
  for (let i = 0; i < runs; i++) {
    await hac2.timed('/new', 'humble-ai> ');
    await hac2.timed('/sessions', 'Use /resume');
    resumes.push(await hac2.timed('/resume 1', 'Resumed '));
  }
  await hac2.close();
  row(
    '/resume, 2,000 messages (2.6 MB) (target <= 300 ms)',
    `${ms(median(resumes))}  ${median(resumes) <= 300 ? 'ok' : 'OVER'}`,
  );
} finally {
  rmSync(long, { recursive: true, force: true });
  rmSync(many, { recursive: true, force: true });
  rmSync(none, { recursive: true, force: true });
}
