import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HAC_BIN } from '../../helpers/pty.js';

// hac started by a Node older than package.json's engines floor (Debian 13 ships Node 20): one line naming both
// Nodes, exit 2, no stack trace. Runs where such a Node is installed, as on the machines hac is built on.
const root = path.resolve(import.meta.dirname, '../../..');
const floor = /(\d+\.\d+)/.exec(
  (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } }).engines
    .node,
)![1]!;
const older = ['/usr/bin/node', '/usr/local/bin/node'].find((node) => {
  try {
    const version = execFileSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
    const [major = 0, minor = 0] = version.split('.').map(Number);
    const [needMajor = 0, needMinor = 0] = floor.split('.').map(Number);
    return major < needMajor || (major === needMajor && minor < needMinor);
  } catch {
    return false;
  }
});

describe.skipIf(!older)(
  `hac on a Node older than ${floor}${older ? '' : ' (skipped: no such Node installed)'}`,
  () => {
    it.each(['--version', '-p hello', 'with-no-arguments'])(
      'hac %s says-which-node-it-needs-in-one-line',
      (line) => {
        const args = line.startsWith('with-') ? [] : line.split(' ');
        const found = execFileSync(older!, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
        const run = spawnSync(older!, [HAC_BIN, ...args], { encoding: 'utf8', input: '', timeout: 10_000 });
        expect(run.status).toBe(2);
        expect(run.stdout).toBe('');
        expect(run.stderr).toBe(
          `hac needs Node ${floor} or newer, and this is Node ${found}: install a newer Node (https://nodejs.org) and run hac again.\n`,
        );
      },
    );
  },
);
