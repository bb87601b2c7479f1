import path from 'node:path';
import { build } from 'esbuild';

/** hac's atomic writer bundled into `outfile`, for a child process to write with (and be killed while it does). */
export async function bundleAtomicWriter(outfile: string): Promise<string> {
  await build({
    entryPoints: [path.resolve(import.meta.dirname, '../../core/fs/atomic-write.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    logLevel: 'silent',
  });
  return outfile;
}
