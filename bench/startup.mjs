// Start-up cost of `hac --version` against the floor of starting Node itself, measured in the same run.
// Run: npm run build && node bench/startup.mjs [runs]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const runs = Number(process.argv[2] ?? 20);
const hac = new URL('../dist/cli/hac.cjs', import.meta.url).pathname;
if (!existsSync(hac)) throw new Error(`${hac} is missing: run "npm run build" first`);

function wallMs(args) {
  const start = performance.now();
  const result = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}`);
  return performance.now() - start;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Interleave the two so machine noise hits both alike; one warm-up each fills the page cache.
wallMs(['-e', '']);
wallMs([hac, '--version']);
const floor = [];
const version = [];
for (let i = 0; i < runs; i++) {
  floor.push(wallMs(['-e', '']));
  version.push(wallMs([hac, '--version']));
}
const ratio = median(version) / median(floor);
console.log(`node -e ''        median ${median(floor).toFixed(1)} ms (${runs} runs)`);
console.log(`hac --version     median ${median(version).toFixed(1)} ms (${runs} runs)`);
console.log(`ratio             ${ratio.toFixed(2)}x (target <= 1.5x)`);
