// `npm run check`: the type check, the linter and the formatter, then the tests. The first three read the same
// files and each uses about one core: ESLint (the longest) runs beside the type check and the formatter, which
// halves their wait on a two-core machine. Each one's output is printed whole when it ends, so none interleave.
import { spawn } from 'node:child_process';

/** Runs one npm script; resolves with its exit code once its output is printed. */
function run(script, { quiet = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], {
      stdio: quiet ? 'pipe' : 'inherit',
      shell: false,
    });
    let output = '';
    if (quiet) {
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
    }
    child.on('close', (code) => {
      process.stdout.write(`${output}${code === 0 ? '✓' : '✗'} npm run ${script}\n`);
      resolve(code ?? 1);
    });
  });
}

const inOrder = async (...scripts) => {
  for (const script of scripts) {
    const code = await run(script, { quiet: true });
    if (code !== 0) return code;
  }
  return 0;
};

const codes = await Promise.all([inOrder('typecheck', 'format'), run('lint:code', { quiet: true })]);
const failed = codes.find((code) => code !== 0);
process.exit(failed ?? (await run('test')));
