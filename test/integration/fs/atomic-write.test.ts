import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  blockingCalls,
  pooledCalls,
  removeStaleTempFiles,
  StartedRewrite,
  writeFileAtomic,
  writeNewFile,
} from '../../../core/fs/atomic-write.js';
import { bundleAtomicWriter } from '../../helpers/atomic-write-bundle.js';
import { useTempDir } from '../../helpers/temp-home.js';

const tempDir = useTempDir();
const child = path.resolve(import.meta.dirname, '../../fixtures/atomic-writer-child.mjs');

describe('writeFileAtomic', () => {
  it('survives-kill-9-of-a-writer-the-file-always-parses', async () => {
    const dir = tempDir();
    const bundle = await bundleAtomicWriter(path.join(dir, 'atomic-write.mjs'));
    const target = path.join(dir, 'session.json');
    writeFileSync(target, JSON.stringify({ i: -1 }));
    for (let round = 0; round < 5; round++) {
      const proc = spawn(process.execPath, [child, target, bundle], { stdio: 'ignore' });
      // Let it write a few times, then kill it mid-loop without warning.
      let seen = -1;
      while (seen < round * 3 + 3) {
        const parsed = JSON.parse(readFileSync(target, 'utf8')) as { i: number };
        seen = parsed.i;
        await new Promise((r) => setImmediate(r));
      }
      proc.kill('SIGKILL');
      await new Promise((r) => proc.once('exit', r));
      const after = JSON.parse(readFileSync(target, 'utf8')) as { i: number };
      expect(after.i).toBeGreaterThanOrEqual(0);
    }
  }, 60_000);

  it('keeps-the-mode-of-an-existing-file-and-uses-0600-for-new-ones', async () => {
    const dir = tempDir();
    const f = path.join(dir, 'a.json');
    await writeFileAtomic(f, '{}');
    const { statSync, chmodSync } = await import('node:fs');
    expect(statSync(f).mode & 0o777).toBe(0o600);
    chmodSync(f, 0o640);
    await writeFileAtomic(f, '{"b":1}');
    expect(statSync(f).mode & 0o777).toBe(0o640);
    expect(readdirSync(dir)).toEqual(['a.json']); // no temp files left behind
  });

  it('removes-temp-files-whose-writer-is-gone-and-keeps-those-of-a-live-writer', async () => {
    const dir = tempDir();
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    try {
      const name = (pid: number) => `.config.json.${pid}.0a1b2c3d.tmp`;
      for (const f of [name(dead), name(live.pid!), 'notes.tmp', '.x.12.zz.tmp'])
        writeFileSync(path.join(dir, f), '{');
      const old = `.session.json.${live.pid!}.ffffffff.tmp`; // a live pid, but older than any write of ours
      writeFileSync(path.join(dir, old), '{');
      utimesSync(
        path.join(dir, old),
        new Date(Date.now() - 2 * 3600_000),
        new Date(Date.now() - 2 * 3600_000),
      );
      expect(await removeStaleTempFiles([dir, path.join(dir, 'missing')])).toBe(2);
      expect(readdirSync(dir).sort()).toEqual([name(live.pid!), '.x.12.zz.tmp', 'notes.tmp'].sort());
    } finally {
      live.kill();
    }
  });

  it('exclusive-mode-never-replaces-an-existing-file', async () => {
    const f = path.join(tempDir(), 'x.json');
    await writeFileAtomic(f, 'first', { exclusive: true });
    await expect(writeFileAtomic(f, 'second', { exclusive: true })).rejects.toMatchObject({ code: 'EEXIST' });
    expect(readFileSync(f, 'utf8')).toBe('first');
    expect(readdirSync(path.dirname(f))).toEqual(['x.json']); // no temp file left
  });

  it.each([
    ['through-the-thread-pool', pooledCalls],
    ['blocking', blockingCalls],
  ])('a-new-file-takes-the-first-free-name-and-writers-at-once-never-share-one-%s', async (_how, calls) => {
    const dir = tempDir();
    const name = (attempt: number) => path.join(dir, attempt === 1 ? 's.json' : `s_${attempt}.json`);
    writeFileSync(name(1), 'taken');
    const written = await Promise.all(
      ['a', 'b', 'c', 'd'].map((text) =>
        writeNewFile(name, [Buffer.from(text)], 0o600, calls).then((file) => [file, text]),
      ),
    );
    expect(new Set(written.map(([file]) => file)).size).toBe(4);
    for (const [file, text] of written) expect(readFileSync(file!, 'utf8')).toBe(text);
    expect(readFileSync(name(1), 'utf8')).toBe('taken');
    expect(readdirSync(dir).sort()).toEqual(['s.json', 's_2.json', 's_3.json', 's_4.json', 's_5.json']);
  });

  it.each([
    ['through-the-thread-pool', pooledCalls],
    ['blocking', blockingCalls],
  ])('a-new-file-that-cannot-be-written-is-reported-with-its-path-%s', async (_how, calls) => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'sessions'), 'a file where a folder should be');
    const file = path.join(dir, 'sessions', 's.json');
    await expect(writeNewFile(() => file, 'text', 0o600, calls)).rejects.toThrow(
      `${file} (or a folder above it) is a file, but hac needs a folder there.`,
    );
    expect(readdirSync(dir)).toEqual(['sessions']);
  });
});

describe('StartedRewrite', () => {
  const bytes = (...texts: string[]) => texts.map((t) => Buffer.from(t));
  const temps = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.tmp'));

  it('the-file-stays-as-it-was-until-finish-then-holds-exactly-the-finished-pieces', async () => {
    const dir = tempDir();
    const f = path.join(dir, 's.json');
    writeFileSync(f, 'old content', { mode: 0o640 });
    const shared = Buffer.from('[1,2,3,');
    const rewrite = new StartedRewrite(f, [shared, ...bytes('4', ']')]);
    await new Promise((r) => setTimeout(r, 20));
    expect(readFileSync(f, 'utf8')).toBe('old content');
    expect(temps(dir)).toHaveLength(1); // begun: the start is in the temp file
    // The start's pieces, then ones that differ: the shared one is kept, the rest written after it.
    await rewrite.finish([shared, ...bytes('4,', '5]')]);
    expect(readFileSync(f, 'utf8')).toBe('[1,2,3,4,5]');
    expect(statSync(f).mode & 0o777).toBe(0o640);
    expect(temps(dir)).toEqual([]);
  });

  it('finishes-shorter-than-it-started-and-with-nothing-in-common', async () => {
    const dir = tempDir();
    const f = path.join(dir, 's.json');
    writeFileSync(f, 'old');
    const shorter = new StartedRewrite(f, bytes('abc', 'defghijklmnop'));
    await shorter.finish(bytes('abc', 'd'));
    expect(readFileSync(f, 'utf8')).toBe('abcd');
    // Equal bytes in other objects count as the same; a different first piece rewrites it all.
    const other = new StartedRewrite(f, bytes('abc', 'xyz'));
    await other.finish(bytes('ABC', 'xyz'));
    expect(readFileSync(f, 'utf8')).toBe('ABCxyz');
    expect(temps(dir)).toEqual([]);
  });

  it('discard-leaves-the-file-and-no-temp-file', async () => {
    const dir = tempDir();
    const f = path.join(dir, 's.json');
    writeFileSync(f, 'kept');
    await new StartedRewrite(f, bytes('never')).discard();
    expect(readFileSync(f, 'utf8')).toBe('kept');
    expect(readdirSync(dir)).toEqual(['s.json']);
  });

  it('a-temp-file-removed-while-waiting-is-written-whole-instead', async () => {
    const dir = tempDir();
    const f = path.join(dir, 's.json');
    writeFileSync(f, 'old');
    const rewrite = new StartedRewrite(f, bytes('start'));
    await new Promise((r) => setTimeout(r, 20));
    // What another hac's cleanup does to a temp file left longer than an hour.
    for (const temp of temps(dir)) rmSync(path.join(dir, temp));
    await rewrite.finish(bytes('start', ' and end'));
    expect(readFileSync(f, 'utf8')).toBe('start and end');
    expect(temps(dir)).toEqual([]);
  });
});
