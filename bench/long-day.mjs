// A long day in one conversation: the REPL in a pseudo-terminal answers N turns of a few KB each from a loopback
// OpenAI-shaped server, with the context summaries on and off. Printed: the process's RSS after turn 50 and at the
// end (growth per turn after turn 50), and the time per turn of the last 50 against turns 50-100 (wall clock, and
// hac's own CPU time per turn, all threads, user and system: what it did itself rather than waited for).
// Targets: at most 20 KB per turn, and at most 1.2x.
// HEAPSNAP=<dir> also writes V8 heap snapshots of hac at turn 50 and at the end (SIGUSR2), to compare.
// Run: npm run build && node bench/long-day.mjs [turns=1000] [on|off|both]
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pty from 'node-pty';
import { importTs } from './import-ts.mjs';

const turns = Number(process.argv[2] ?? 1000);
const which = process.argv[3] ?? 'both';
const snapshots = process.env.HEAPSNAP;
/** How long hac is left idle after the last turn before its RSS is read once more. */
const idleMs = Number(process.env.IDLE_MS ?? 15_000);
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
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const sse = (payload) => `data: ${JSON.stringify(payload)}\n\n`;
    const chunk = (delta, finish = null) =>
      sse({
        id: 'c',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'm',
        choices: [{ index: 0, delta, finish_reason: finish }],
      });
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const piece of answerText(served++)) res.write(chunk({ content: piece }));
    res.write(chunk({}, 'stop'));
    res.end('data: [DONE]\n\n');
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

async function day(summarize) {
  const dir = mkdtempSync(join(tmpdir(), 'hac-long-day-'));
  const hacHome = join(dir, '.humble-ai-cli');
  mkdirSync(hacHome);
  const models = [{ name: 'm', provider: 'openai', apiKey: 'sk-bench-000000', baseUrl, active: true }];
  writeFileSync(join(hacHome, 'config.json'), JSON.stringify({ models, summarize }));
  // Someone who lives in hac has a full input history (1,000 entries): its cost is the same on every turn.
  const history = Array.from({ length: 1000 }, (_, i) => `an earlier question ${i}`);
  writeFileSync(join(hacHome, 'history'), `${history.join('\n')}\n`, { mode: 0o600 });
  const args = snapshots ? ['--heapsnapshot-signal=SIGUSR2', hacBin] : [hacBin];
  const term = pty.spawn(process.execPath, args, {
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
  term.onData((d) => {
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
  const rss = new Map();
  const cpu = new Map();
  const snap = (label) => {
    if (!snapshots) return;
    const before = new Set(readdirSync(dir));
    process.kill(term.pid, 'SIGUSR2');
    return new Promise((resolve) => {
      const poll = setInterval(() => {
        const made = readdirSync(dir).find((f) => f.endsWith('.heapsnapshot') && !before.has(f));
        if (!made) return;
        clearInterval(poll);
        setTimeout(() => {
          mkdirSync(snapshots, { recursive: true });
          writeFileSync(
            join(snapshots, `${summarize ? 'on' : 'off'}-${label}.heapsnapshot`),
            readFileSync(join(dir, made)),
          );
          resolve();
        }, 2000);
      }, 200);
    });
  };
  for (let turn = 1; turn <= turns; turn++) {
    const started = performance.now();
    term.write(`question ${turn}: tell me about the fox and 서울, briefly\r`);
    await nextPrompt(turn + 1);
    times.push(performance.now() - started);
    if (turn % 50 === 0 || turn === turns) rss.set(turn, rssKb(term.pid));
    if ([50, 100, turns - 50, turns].includes(turn)) cpu.set(turn, cpuMs(term.pid));
    if (turn === 50) await snap('50');
  }
  await snap(String(turns));
  // A person pauses between messages: V8 gives back what its collector no longer needs once hac is idle.
  await new Promise((r) => setTimeout(r, idleMs));
  const idle = rssKb(term.pid);
  term.kill();
  rmSync(dir, { recursive: true, force: true });
  const at50 = rss.get(50);
  const last = rss.get(turns);
  const early = median(times.slice(50, 100));
  const late = median(times.slice(-50));
  const label = `summaries ${summarize ? 'on ' : 'off'}`;
  console.log(
    `${label}  RSS turn 50 -> ${turns}: ${(at50 / 1024).toFixed(1)} -> ${(last / 1024).toFixed(1)} MB = ` +
      `${((last - at50) / (turns - 50)).toFixed(1)} KB/turn (target <= 20)  ·  time per turn ` +
      `${early.toFixed(1)} -> ${late.toFixed(1)} ms = ${(late / early).toFixed(2)}x (target <= 1.2x)`,
  );
  const earlyCpu = (cpu.get(100) - cpu.get(50)) / 50;
  const lateCpu = (cpu.get(turns) - cpu.get(turns - 50)) / 50;
  console.log(
    `  hac's CPU per turn (all threads), turns 50-100 -> last 50: ${earlyCpu.toFixed(1)} -> ${lateCpu.toFixed(1)} ms = ` +
      `${(lateCpu / earlyCpu).toFixed(2)}x`,
  );
  console.log(
    `  RSS every 50 turns (MB): ${[...rss.values()].map((kb) => (kb / 1024).toFixed(0)).join(' ')}; ` +
      `after ${idleMs / 1000} s idle: ${(idle / 1024).toFixed(1)} MB = ${((idle - at50) / (turns - 50)).toFixed(1)} KB/turn`,
  );
}

if (which !== 'off') await day(true);
if (which !== 'on') await day(false);
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
  store.prepareSave(file, asked);
  await new Promise((r) => setTimeout(r, 15)); // the answer streams in
  started = performance.now();
  await store.save(file, session, [user, answer]);
  begun.push(performance.now() - started);
}
rmSync(sessionsDir, { recursive: true, force: true });
const growth = (xs) => `${median(xs.slice(50, 100)).toFixed(2)} -> ${median(xs.slice(-50)).toFixed(2)} ms`;
console.log(
  `session write, turns 50-100 -> 950-1000: ${growth(begun)} after the answer (the whole file: ${growth(whole)}; ` +
    'target < 10 ms at 1,000 turns)',
);
