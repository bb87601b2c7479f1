#!/usr/bin/env node
// The `hac` entry, built as CommonJS: Node starts a CommonJS file without setting up its ES module loader (about
// 4 ms), so `hac --version` costs what `node -e ''` does (bench/cli.mjs). Everything else is in start.ts.
import { writeSync } from 'node:fs';
import { enableCompileCache } from 'node:module';
import { nodeIsNewEnough } from './node-floor.js';

declare const __HAC_VERSION__: string;
declare const __HAC_NODE_FLOOR__: string;

const args = process.argv.slice(2);
if (!nodeIsNewEnough(process.versions.node, __HAC_NODE_FLOOR__)) {
  // One line and exit 2, never a stack trace from whatever failed first. This file must stay plain enough
  // for an old Node to parse.
  writeSync(
    2,
    `hac needs Node ${__HAC_NODE_FLOOR__} or newer, and this is Node ${process.versions.node}: install a newer Node (https://nodejs.org) and run hac again.\n`,
  );
  process.exitCode = 2;
} else if (args.includes('--version') || args.includes('-v')) {
  // Straight to fd 1: setting up process.stdout (a stream over the pipe or terminal) costs more than the rest.
  try {
    writeSync(1, `hac ${__HAC_VERSION__}\n`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error; // `hac --version | true`
  }
} else {
  // V8's code cache on disk (Node 22+): later runs skip compiling the bundle (bench/cli.mjs measures it).
  enableCompileCache();
  import('./start.js').catch((error: unknown) => {
    // What an uncaught error does in an ES module: the stack on stderr, exit 1.
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
