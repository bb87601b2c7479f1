// The first keystroke: hac's REPL in a pseudo-terminal; a key is written the moment the prompt's bytes arrive, or
// some milliseconds after them (what loads after the prompt would delay it), and the time until its echo comes
// back is measured. Median of `tries` starts for each delay, with and without MCP servers configured (two stdio
// servers of the test fixture). The floor is the same round trip through Node's own readline in the same pty.
// Target: a median <= 30 ms at every delay.
// Run: npm run build && node bench/first-key.mjs [tries=20] [delays-ms=0,25,50,100,200]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pty from 'node-pty';

const tries = Number(process.argv[2] ?? 20);
const delays = (process.argv[3] ?? '0,25,50,100,200').split(',').map(Number);
let delayMs = 0;
const root = new URL('..', import.meta.url).pathname;
const hacBin = join(root, 'dist/cli/hac.cjs');
const testServer = join(root, 'test/fixtures/mcp/test-server.mjs');

// A model that is never asked: the REPL needs an active model to start as a user's does.
const server = http.createServer((req, res) => res.end());
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const baseUrl = `http://127.0.0.1:${server.address().port}/v1`;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pause = (ms) => new Promise((r) => setTimeout(r, ms));

function home(withServers) {
  const dir = mkdtempSync(join(tmpdir(), 'hac-first-key-'));
  const hacHome = join(dir, '.humble-ai-cli');
  mkdirSync(hacHome);
  const models = [{ name: 'm', provider: 'openai', apiKey: 'sk-bench-000000', baseUrl, active: true }];
  writeFileSync(join(hacHome, 'config.json'), JSON.stringify({ models }));
  const servers = withServers
    ? {
        one: { command: process.execPath, args: [testServer] },
        two: { command: process.execPath, args: [testServer] },
      }
    : {};
  writeFileSync(join(hacHome, 'mcp-servers.json'), JSON.stringify({ mcpServers: servers }));
  return { dir, hacHome };
}

/** Milliseconds from writing a key the moment `ready` shows up (plus `delayMs`) until the key is echoed. */
function echoDelay(args, ready, env) {
  return new Promise((resolve, reject) => {
    const term = pty.spawn(process.execPath, args, { name: 'xterm-256color', cols: 100, rows: 30, ...env });
    let seen = '';
    let sentAt;
    const timer = setTimeout(() => {
      term.kill();
      reject(new Error(`no prompt or echo within 20 s; screen: ${JSON.stringify(seen.slice(-300))}`));
    }, 20_000);
    term.onData(async (data) => {
      seen += data;
      if (sentAt === undefined && seen.includes(ready)) {
        sentAt = 0;
        if (delayMs) await pause(delayMs);
        seen = '';
        sentAt = performance.now();
        term.write('k');
      } else if (sentAt && seen.includes('k')) {
        const took = performance.now() - sentAt;
        clearTimeout(timer);
        term.onExit(() => resolve(took)); // its home is removed once it has gone
        term.kill();
      }
    });
  });
}

const hacRun = (withServers) => {
  const { dir, hacHome } = home(withServers);
  const env = { cwd: dir, env: { PATH: process.env.PATH, HOME: dir, HAC_HOME: hacHome, LANG: 'C.UTF-8' } };
  return echoDelay([hacBin], 'humble-ai> ', env).finally(() =>
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 }),
  );
};
const floorRun = () =>
  echoDelay(
    [
      '-e',
      "const rl = require('node:readline').createInterface({ input: process.stdin, output: process.stdout, prompt: 'ready> ' }); rl.prompt();",
    ],
    'ready> ',
    { env: { PATH: process.env.PATH } },
  );

const line = (label, xs) =>
  `  ${label.padEnd(30)} median ${median(xs).toFixed(1)} ms, worst ${Math.max(...xs).toFixed(1)} ms (${xs.length} starts)`;
for (delayMs of delays) {
  // Interleaved, so the machine's load falls on all three alike.
  const results = { floor: [], bare: [], servers: [] };
  for (let i = 0; i < tries; i++) {
    results.floor.push(await floorRun());
    results.bare.push(await hacRun(false));
    results.servers.push(await hacRun(true));
  }
  console.log(
    `a key ${delayMs ? `${delayMs} ms after` : 'the moment of'} the prompt, echoed after (target: median <= 30 ms):`,
  );
  console.log(line("node's readline (the floor)", results.floor));
  console.log(line('hac, no MCP servers', results.bare));
  console.log(line('hac, two MCP servers', results.servers));
}
server.close();
