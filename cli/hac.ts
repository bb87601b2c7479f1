#!/usr/bin/env node
// The `hac` entry. Kept tiny: --version answers without loading anything else (bench/startup).
import { enableCompileCache } from 'node:module';

declare const __HAC_VERSION__: string;

const args = process.argv.slice(2);
if (args.includes('--version') || args.includes('-v')) {
  process.stdout.write(`hac ${__HAC_VERSION__}\n`);
} else {
  // `hac -p … | head -1`: a reader that stops early is not an error worth a stack trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    if (error.code !== 'EIO') throw error; // EIO: the terminal hung up; the SIGHUP handler closes hac
  });
  // A closed terminal makes readline's setRawMode fail with EIO on the way out: not an error to crash on.
  process.stdin.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EIO') throw error;
  });
  // V8's code cache on disk (Node 22+): later runs skip compiling the bundle (bench/cli.mjs measures it).
  enableCompileCache();
  const { main } = await import('./main.js');
  const { mark } = await import('./profile.js');
  mark('modules loaded');
  const code = await main(args, __HAC_VERSION__);
  // Exit as soon as the output is flushed: idle sockets or timers must not delay a finished run.
  mark('done');
  process.stdout.write('', () => process.exit(code));
}
