// A long day in one conversation: the REPL in a pseudo-terminal answers N turns of 2,500 characters each from a
// loopback OpenAI-shaped server, with the context summaries on and off, `runs` times each. Printed per run:
// - time per turn, the last 50 against turns 50-100 (wall clock, and hac's own CPU time, all threads);
// - RSS as a user sees it, after the conversation idles (20 s without input) at turn 20 and at the end, per turn;
// - the live heap (after a full collection, read through the inspector) at the same two points, per turn, against
//   the conversation's own text per turn as V8 holds it (two bytes a character: the answers hold Hangul and kanji);
// - summary calls, and how many turns they came apart once the context was full.
// Targets: time per turn <= 1.2x; RSS <= 20 KB per turn; live heap <= the text; at most one summary per 5 turns.
// PROFILE=1 also profiles hac's main thread in turns 50-100 and the last 50, and prints what grew.
// HEAPSNAP=<dir> also writes V8 heap snapshots of hac at turn 20 and at the end (SIGUSR2), to compare.
// Run: npm run build && node bench/long-day.mjs [turns=1000] [on|off|both] [runs=1]
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pty from 'node-pty';
import { importTs } from './import-ts.mjs';
import { allocationSampler, cpuProfiler, freePort, heapReading } from './inspect-memory.mjs';

const turns = Number(process.argv[2] ?? 1000);
const which = process.argv[3] ?? 'both';
const runs = Number(process.argv[4] ?? 1);
const snapshots = process.env.HEAPSNAP;
/** How long hac is left idle before its memory is read: a person pausing between messages. */
const idleMs = Number(process.env.IDLE_MS ?? 20_000);
/**
 * Where the early reading is taken: turn 20, as the issue's own measurement. Not at turn 50: the reading idles 20 s
 * and makes a full collection, which left turns 50-100 (the time baseline) running on a freshly compacted heap.
 */
const early = Number(process.env.EARLY ?? 20);
/**
 * MODEL_MS=<ms>: how long the model takes before its first token (0 by default: the answer comes at once, so
 * anything hac does beside the request, such as writing the session file, shows in the time per turn).
 */
const modelMs = Number(process.env.MODEL_MS ?? 0);
const root = new URL('..', import.meta.url).pathname;
const hacBin = join(root, 'dist/cli/hac.cjs');

// ---- A model that answers every request (a turn or a summary) with about 2,500 characters of prose, in 25 events.
const words = 'the quick brown fox jumps over the lazy dog while 서울 and 東京 wait '.split(' ');
const answerText = (n) =>
  Array.from({ length: 25 }, (_, i) => `${words.slice(0, 1 + ((n + i) % words.length)).join(' ')} ${n}.${i}`)
    .join(' ')
    .padEnd(2500, ' filler')
    .match(/.{1,100}/gs);
let served = 0;
/** The turns (counted by the bench) at which a summary was asked for. */
let summaryTurns = [];
let turnNow = 0;
/** When the turn's own request (not a summary's) arrived, complete, and when its answer had been sent. */
let requestAt = 0;
let servedAt = 0;
let requestChars = 0;
const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', async () => {
    const summary = body.includes('Summarise the following conversation');
    if (summary) summaryTurns.push(turnNow);
    else [requestAt, requestChars] = [performance.now(), body.length];
    const sse = (payload) => `data: ${JSON.stringify(payload)}\n\n`;
    const chunk = (delta, finish = null) =>
      sse({
        id: 'c',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'm',
        choices: [{ index: 0, delta, finish_reason: finish }],
      });
    if (modelMs) await pause(modelMs);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const piece of answerText(served++)) res.write(chunk({ content: piece }));
    res.write(chunk({}, 'stop'));
    res.end('data: [DONE]\n\n');
    if (!summary) servedAt = performance.now();
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const baseUrl = `http://127.0.0.1:${server.address().port}/v1`;

const rssKb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
/** CPU time the process has used, all its threads, user and system, in ms (clock ticks of 10 ms). */
const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const pause = (ms) => new Promise((r) => setTimeout(r, ms));
const kb = (bytes) => bytes / 1024;

async function day(summarize, run) {
  const dir = mkdtempSync(join(tmpdir(), 'hac-long-day-'));
  const hacHome = join(dir, '.humble-ai-cli');
  mkdirSync(hacHome);
  const models = [{ name: 'm', provider: 'openai', apiKey: 'sk-bench-000000', baseUrl, active: true }];
  writeFileSync(join(hacHome, 'config.json'), JSON.stringify({ models, summarize }));
  // Someone who lives in hac has a full input history (1,000 entries): its cost is the same on every turn.
  const history = Array.from({ length: 1000 }, (_, i) => `an earlier question ${i}`);
  writeFileSync(join(hacHome, 'history'), `${history.join('\n')}\n`, { mode: 0o600 });
  const port = await freePort();
  const flags = [`--inspect=127.0.0.1:${port}`, ...(snapshots ? ['--heapsnapshot-signal=SIGUSR2'] : [])];
  // For a look inside (BENCH_NODE_FLAGS=--trace-gc, with BENCH_OUTPUT=<file> to keep what hac printed).
  flags.push(...(process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? []));
  const term = pty.spawn(process.execPath, [...flags, hacBin], {
    name: 'xterm-256color',
    cols: 120,
    rows: 40,
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: dir, HAC_HOME: hacHome, LANG: 'C.UTF-8', TERM: 'xterm-256color' },
  });
  // Only the tail is kept: the bench must not be what grows.
  let tail = '';
  let prompts = 0;
  let wake = () => undefined;
  const output = process.env.BENCH_OUTPUT;
  term.onData((d) => {
    if (output) appendFileSync(output, d);
    tail = (tail + d).slice(-200);
    // An empty prompt: the prompt, then the cursor put right after it (column 12).
    if (tail.includes('humble-ai> \x1b[12G')) {
      prompts++;
      tail = '';
      wake();
    }
  });
  const nextPrompt = (count) =>
    new Promise((resolve) => {
      if (prompts >= count) return resolve();
      wake = () => prompts >= count && resolve();
    });
  await nextPrompt(1);
  const times = [];
  /** Where each turn's time went: before its request reached the model, the answer sent, after it. */
  const phases = [];
  const cpu = new Map();
  const snap = async (label) => {
    if (!snapshots) return;
    const before = new Set(readdirSync(dir));
    process.kill(term.pid, 'SIGUSR2');
    let made;
    while (!(made = readdirSync(dir).find((f) => f.endsWith('.heapsnapshot') && !before.has(f))))
      await pause(200);
    await pause(2000);
    mkdirSync(snapshots, { recursive: true });
    writeFileSync(
      join(snapshots, `${summarize ? 'on' : 'off'}-${label}.heapsnapshot`),
      readFileSync(join(dir, made)),
    );
  };
  // RSS once hac has idled, then what V8 holds (committed) and the live heap after a full collection.
  const idleReading = async () => {
    await pause(idleMs);
    const rss = rssKb(term.pid);
    const committed = await heapReading(port);
    const live = await heapReading(port, { collect: true });
    return { rss, committed, live: kb(live.memory.heapUsed) };
  };
  let textChars = 0;
  const readings = {};
  let sampler;
  let profiler;
  const profiles = [];
  summaryTurns = [];
  for (let turn = 1; turn <= turns; turn++) {
    turnNow = turn;
    const question = `question ${turn}: tell me about the fox and 서울, briefly`;
    const started = performance.now();
    term.write(`${question}\r`);
    await nextPrompt(turn + 1);
    const ended = performance.now();
    times.push(ended - started);
    phases.push({
      before: requestAt - started,
      serve: servedAt - requestAt,
      after: ended - servedAt,
      chars: requestChars,
    });
    if (turn > early) textChars += question.length + 2500;
    if ([50, 100, turns - 50, turns].includes(turn)) cpu.set(turn, cpuMs(term.pid));
    // ALLOCATIONS=1: where hac allocates during turns 100-150, by function (what makes V8 collect and grow).
    if (process.env.ALLOCATIONS && turn === 100) sampler = await allocationSampler(port);
    if (sampler && turn === 150) {
      const rows = await sampler.stop();
      const total = rows.reduce((sum, [bytes]) => sum + bytes, 0);
      console.log(`  allocated in turns 100-150: ${(kb(total) / 50).toFixed(0)} KB a turn; the most:`);
      for (const [bytes, where] of rows.slice(0, 25))
        console.log(`    ${(kb(bytes) / 50).toFixed(1).padStart(7)} KB  ${where}`);
      sampler = undefined;
    }
    // PROFILE=1: where hac's main thread spends a turn in turns 50-100 and in the last 50, by function.
    if (process.env.PROFILE && (turn === 50 || turn === turns - 50)) profiler = await cpuProfiler(port);
    if (profiler && (turn === 100 || turn === turns)) {
      profiles.push(new Map((await profiler.stop()).map(([ms, where]) => [where, ms / 50])));
      profiler = undefined;
    }
    if (turn === early) {
      await snap(String(early));
      readings.early = await idleReading();
    }
  }
  await snap(String(turns));
  readings.last = await idleReading();
  term.kill();
  rmSync(dir, { recursive: true, force: true });

  const span = turns - early;
  const ratio = median(times.slice(-50)) / median(times.slice(50, 100));
  const cpuRatio = (cpu.get(turns) - cpu.get(turns - 50)) / (cpu.get(100) - cpu.get(50));
  const { early: e, last: l } = readings;
  const perTurn = (from, to) => `${((to - from) / span).toFixed(1)} KB/turn`;
  const mb = (k) => (k / 1024).toFixed(1);
  const label = `run ${run}, summaries ${summarize ? 'on ' : 'off'}`;
  console.log(
    `${label}: time per turn ${ratio.toFixed(2)}x (CPU ${cpuRatio.toFixed(2)}x; target <= 1.2x) · RSS after ` +
      `${idleMs / 1000} s idle ${mb(e.rss)} -> ${mb(l.rss)} MB = ${perTurn(e.rss, l.rss)} (target <= 20) · live heap ` +
      `${mb(e.live)} -> ${mb(l.live)} MB = ${perTurn(e.live, l.live)} (the text: ${(kb(textChars * 2) / span).toFixed(1)} KB/turn)`,
  );
  // Where the time goes: each phase's median in turns 50-100 and in the last 50 (ms).
  const phase = (key, from, to) => median(phases.slice(from, to).map((p) => p[key]));
  // What the user waits for hac, not for the model nor the disk: (a) Enter -> the request's last byte at the model,
  // (b) the answer's last byte -> the prompt taking keys (saves run behind it).
  const waited = (key, name) => {
    const [from, to] = [phase(key, 50, 100), phase(key, -50)];
    return `${name} ${from.toFixed(1)} -> ${to.toFixed(1)} ms (${(to / from).toFixed(2)}x)`;
  };
  console.log(
    `  ${waited('before', '(a) Enter -> request at the model')}, ${waited('after', '(b) answer -> prompt')}` +
      ` (targets: each <= 1.2x and <= 15 ms at turn ${turns})`,
  );
  console.log(
    `  time per turn (ms, turns 50-100 -> last 50): ` +
      ['before', 'serve', 'after']
        .map((key) => `${key} ${phase(key, 50, 100).toFixed(1)} -> ${phase(key, -50).toFixed(1)}`)
        .join(', ') +
      `; request ${phase('chars', 50, 100)} -> ${phase('chars', -50)} characters` +
      ` (before: hac sends the request; serve: the model answers; after: hac shows it, saves, and prompts)`,
  );
  if (profiles.length === 2) {
    const [first, last] = profiles;
    const total = (profile) => [...profile.values()].reduce((sum, ms) => sum + ms, 0);
    console.log(
      `  main thread busy (ms a turn): ${total(first).toFixed(2)} -> ${total(last).toFixed(2)}; grew most:`,
    );
    const grown = [...new Set([...first.keys(), ...last.keys()])]
      .map((key) => [(last.get(key) ?? 0) - (first.get(key) ?? 0), key])
      .sort((a, b) => b[0] - a[0]);
    for (const [ms, key] of grown.slice(0, 15))
      console.log(
        `    ${ms.toFixed(3).padStart(7)} ms  ${key} (${(first.get(key) ?? 0).toFixed(3)} -> ${(last.get(key) ?? 0).toFixed(3)})`,
      );
  }
  const spaces = (reading) =>
    Object.entries(reading.committed.spaces)
      .filter(([, space]) => space.committed > 0)
      .map(([name, space]) => `${name.replace('_space', '')} ${mb(kb(space.committed))}`)
      .join(', ');
  console.log(
    `  V8 committed (MB) at turn ${early}: ${spaces(e)}; external ${mb(kb(e.committed.memory.external))}`,
  );
  console.log(
    `  V8 committed (MB) at turn ${turns}: ${spaces(l)}; external ${mb(kb(l.committed.memory.external))}`,
  );
  if (summarize) {
    const full = summaryTurns[0];
    const after = summaryTurns.filter((t) => t > full).length;
    const apart =
      full === undefined ? 'never' : `${((turns - full) / Math.max(1, after)).toFixed(1)} turns apart`;
    console.log(
      `  summary calls: ${summaryTurns.length} in ${turns} turns, the first at turn ${full ?? '-'}; after it ` +
        `${after}, ${apart} (target: at least 5)`,
    );
  }
}

for (let run = 1; run <= runs; run++) {
  if (which !== 'off') await day(true, run);
  if (which !== 'on') await day(false, run);
}
server.close();

// The session write alone, as the conversation grows: its median at turns 50-100 and at 950-1000 (target: under
// 10 ms at 1,000 turns), as a whole rewrite and as hac does it after an answer (begun when the question was sent,
// so the turn waits only for what the answer adds).
const { FileSessionStore } = await importTs('core/sessions/session-store.ts');
const { SecretRegistry } = await importTs('core/logging/secrets.ts');
const sessionsDir = mkdtempSync(join(tmpdir(), 'hac-long-day-sessions-'));
const secrets = new SecretRegistry();
secrets.add(['sk-bench-000000']);
const store = new FileSessionStore(sessionsDir, secrets);
await store.list(); // the index exists, as after a /sessions
const session = { version: 1, startedAt: '2026-11-26T01:00:00+09:00', model: 'm', messages: [] };
const file = await store.create(session, new Date(), 'hello');
const whole = [];
const begun = [];
for (let i = 0; i < 1000; i++) {
  const user = { role: 'user', content: `question ${i}` };
  const answer = {
    role: 'assistant',
    content: answerText(i).join(''),
    model: 'm',
    usage: { inputTokens: 1, outputTokens: 2 },
  };
  const asked = { ...session, messages: [...session.messages, user] };
  session.messages = [...asked.messages, answer];
  let started = performance.now();
  await store.save(file, session, [user, answer]);
  whole.push(performance.now() - started);
  store.prepareSave(file, asked, { role: 'assistant', content: '[not answered yet]', status: 'failed' });
  await new Promise((r) => setTimeout(r, 15)); // the answer streams in
  started = performance.now();
  await store.save(file, session, [user, answer]);
  begun.push(performance.now() - started);
}
rmSync(sessionsDir, { recursive: true, force: true });
const growth = (xs) => `${median(xs.slice(50, 100)).toFixed(2)} -> ${median(xs.slice(-50)).toFixed(2)} ms`;
console.log(
  `the disk's share, a session write, turns 50-100 -> 950-1000: ${growth(begun)} after the answer (the whole ` +
    `file: ${growth(whole)}); behind the prompt since 2026-12-02, so no turn waits for it`,
);
