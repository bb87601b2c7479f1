import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, renameSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openaiReply, startOpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome } from '../../helpers/cli-home.js';
import { runHac } from '../../helpers/run-hac.js';
import { bundleAtomicWriter } from '../../helpers/atomic-write-bundle.js';
import { useTempDir } from '../../helpers/temp-home.js';

// A writer killed mid-write leaves its temp file beside the file it was replacing. Every folder hac writes into
// atomically gets one from a real writer killed with SIGKILL, and the next start must remove them all.
const tempDir = useTempDir();
const writerChild = path.resolve(import.meta.dirname, '../../fixtures/atomic-writer-child.mjs');

const temps = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.tmp'));

/** Runs hac's atomic writer on `file` in a loop and kills it while a temp file of it exists. */
async function killWriterIn(file: string, bundle: string): Promise<void> {
  const dir = path.dirname(file);
  for (let attempt = 0; attempt < 20; attempt++) {
    const writer = spawn(process.execPath, [writerChild, file, bundle], { stdio: 'ignore' });
    const exited = new Promise((resolve) => writer.once('exit', resolve));
    while (temps(dir).length === 0 && writer.exitCode === null) await new Promise((r) => setImmediate(r));
    writer.kill('SIGKILL');
    await exited;
    // The write may have finished between the look and the kill: then try again.
    if (temps(dir).length > 0) return;
  }
  throw new Error(`no temp file was left in ${dir} after 20 kills`);
}

describe('temp files of killed writers', () => {
  it('the-next-start-removes-them-from-every-folder-hac-writes-into', async () => {
    const home = tempDir();
    const fake = await startOpenAIFake();
    try {
      fake.reply(openaiReply.text(['ok']));
      const hacHome = writeCliHome(home, fake.baseUrl);
      const bundle = await bundleAtomicWriter(path.join(home, 'atomic-write.mjs'));
      // config.json and memory.md kept elsewhere and linked, as dotfile managers do.
      const dotfiles = path.join(home, 'dotfiles');
      const notes = path.join(home, 'notes');
      mkdirSync(dotfiles);
      mkdirSync(notes);
      renameSync(path.join(hacHome, 'config.json'), path.join(dotfiles, 'config.json'));
      symlinkSync(path.join(dotfiles, 'config.json'), path.join(hacHome, 'config.json'));
      symlinkSync(path.join(notes, 'memory.md'), path.join(hacHome, 'memory.md'));
      const folders = [
        hacHome,
        path.join(hacHome, 'sessions'),
        path.join(hacHome, 'sessions', '.index'),
        path.join(hacHome, 'sessions', '20261128_090000_pictures.assets'),
        path.join(hacHome, 'mcp-auth'),
        path.join(hacHome, 'tool-results'),
        dotfiles,
        notes,
      ];
      for (const folder of folders) {
        mkdirSync(folder, { recursive: true });
        await killWriterIn(path.join(folder, 'written-when-killed.json'), bundle);
      }
      expect(folders.filter((folder) => temps(folder).length === 0)).toEqual([]);

      const run = await runHac(home, ['-p', 'hello']);
      expect(run.stdout).toBe('ok\n');
      expect(folders.map((folder) => [folder, temps(folder)])).toEqual(folders.map((folder) => [folder, []]));
    } finally {
      await fake.close();
    }
  }, 60_000);
});
