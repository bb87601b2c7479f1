// Loads a TypeScript module of ours in a bench: esbuild bundles it (and its dependencies) into a temp dir first.
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = new URL('..', import.meta.url).pathname;

/** `await importTs('core/prompt/index.ts')`: the module's exports, from a throwaway bundle. */
export async function importTs(entry) {
  const dir = mkdtempSync(join(tmpdir(), 'hac-bench-'));
  const outfile = join(dir, 'bundle.mjs');
  try {
    await build({
      absWorkingDir: root,
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile,
      logLevel: 'warning',
    });
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
