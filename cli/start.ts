// Everything `hac` does but --version, loaded by the entry (hac.ts) with import().
import { main } from './main.js';
import { mark } from './profile.js';

declare const __HAC_VERSION__: string;

// `hac -p … | head -1`: a reader that stops early is not an error worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  if (error.code !== 'EIO') throw error; // EIO: the terminal hung up; the SIGHUP handler closes hac
});
// A closed terminal makes readline's setRawMode fail with EIO on the way out: not an error to crash on.
process.stdin.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EIO') throw error;
});
mark('modules loaded');
const code = await main(process.argv.slice(2), __HAC_VERSION__);
// Exit as soon as the output is flushed: idle sockets or timers must not delay a finished run.
mark('done');
process.stdout.write('', () => process.exit(code));
