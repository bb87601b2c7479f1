import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** End-to-end tests drive the built `hac`: build it once before any test runs (esbuild takes about a second). */
export default function setup(): void {
  const root = path.resolve(import.meta.dirname, '..');
  execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
}
