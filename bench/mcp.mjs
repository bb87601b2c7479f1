// MCP pool overhead. Run: node bench/mcp.mjs [calls=300]
// Bundles core/mcp with esbuild into a temp dir, then in the same run, on the same stdio server program
// (test/fixtures/mcp/test-server.mjs):
//   1. a tool call through McpPool vs a bare SDK Client (median of >= 200 interleaved calls each);
//      target: pool <= 1.1 x bare + 1 ms;
//   2. the start (connect + tools/list) of 3 stdio servers in parallel vs one, and vs 3 in a row (median of 5 each).
//      Each server is a Node process that loads the SDK (~250 ms of CPU): on 2 cores, 3 cannot start in the time of 1.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { bundleMcp } from '../test/fixtures/mcp/bundle-mcp.mjs';

const root = path.resolve(import.meta.dirname, '..');
const server = path.join(root, 'test/fixtures/mcp/test-server.mjs');
const calls = Math.max(200, Number(process.argv[2] ?? 300));
const work = mkdtempSync(path.join(os.tmpdir(), 'hac-bench-mcp-'));
const { McpPool } = await import(await bundleMcp(path.join(work, 'mcp.mjs')));

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const ms = (x) => `${x.toFixed(3)} ms`;
const entry = () => ({ command: process.execPath, args: [server, 'stdio'] });

function poolFile(count) {
  const file = path.join(work, `mcp-servers-${count}.json`);
  const servers = Object.fromEntries(Array.from({ length: count }, (_, i) => [`s${i}`, entry()]));
  writeFileSync(file, JSON.stringify({ mcpServers: servers }));
  return file;
}

// 1. Call overhead.
const pool = new McpPool({ file: poolFile(1) });
await pool.ready();
const bare = new Client({ name: 'bench', version: '1' });
await bare.connect(new StdioClientTransport({ ...entry(), stderr: 'pipe' }));
const signal = new AbortController().signal;
const args = { text: 'hello' };
for (let i = 0; i < 30; i += 1) {
  await pool.call('s0', 'echo', args, signal);
  await bare.callTool({ name: 'echo', arguments: args });
}
const poolTimes = [];
const bareTimes = [];
for (let i = 0; i < calls; i += 1) {
  let t = performance.now();
  await pool.call('s0', 'echo', args, signal);
  poolTimes.push(performance.now() - t);
  t = performance.now();
  await bare.callTool({ name: 'echo', arguments: args });
  bareTimes.push(performance.now() - t);
}
await pool.close();
await bare.close();
const p = median(poolTimes);
const b = median(bareTimes);
const target = 1.1 * b + 1;
console.log(
  `tool call, median of ${calls}: pool ${ms(p)}, bare SDK client ${ms(b)}, ratio ${(p / b).toFixed(2)}x; target <= ${ms(target)}: ${p <= target ? 'met' : 'MISSED'}`,
);

// 2. Parallel start.
async function startTime(count) {
  const times = [];
  for (let i = 0; i < 5; i += 1) {
    const started = new McpPool({ file: poolFile(count) });
    const t = performance.now();
    await started.ready();
    times.push(performance.now() - t);
    if (started.status().some((s) => s.state !== 'connected')) throw new Error('a server did not start');
    await started.close();
  }
  return median(times);
}
const one = await startTime(1);
const three = await startTime(3);
// The same 3 servers one after another, as a floor for what "parallel" buys on this machine.
const serialTimes = [];
for (let i = 0; i < 5; i += 1) {
  const t = performance.now();
  for (let j = 0; j < 3; j += 1) {
    const single = new McpPool({ file: poolFile(1) });
    await single.ready();
    await single.close();
  }
  serialTimes.push(performance.now() - t);
}
const serial = median(serialTimes);
console.log(
  `start, median of 5: 1 server ${ms(one)}; 3 servers in parallel ${ms(three)} (${(three / one).toFixed(2)}x one); ` +
    `3 one after another ${ms(serial)} (includes closing); ${os.availableParallelism()} cores`,
);
