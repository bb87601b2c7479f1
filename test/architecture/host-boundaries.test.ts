import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|mts)$/.test(entry) && !entry.endsWith('.d.ts') ? [full] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)].map((m) => m[1]!);
}

/** A relative import as the .ts file it names. */
function resolveImport(from: string, spec: string): string {
  return path.resolve(path.dirname(from), spec).replace(/\.js$/, '.ts');
}

/** Every file reachable from `entry` through relative imports, and every bare module it names. */
function reach(entry: string): { files: Set<string>; modules: Set<string> } {
  const files = new Set<string>();
  const modules = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const spec of importsOf(file)) {
      if (spec.startsWith('.')) visit(resolveImport(file, spec));
      else modules.add(spec);
    }
  };
  visit(entry);
  return { files, modules };
}

/** The only ways into the core for a front end. */
const PUBLIC_ENTRIES = ['core/index.ts', 'core/browser.ts'];
const hostFiles = ['cli', 'electron', 'renderer'].flatMap((dir) => sourceFiles(path.join(root, dir)));

describe('front ends reach the core through its public entries only', () => {
  it('has host files to check', () => {
    expect(hostFiles.length).toBeGreaterThan(5);
  });

  it.each(hostFiles.map((f) => [path.relative(root, f), f]))('%s', (_name, file) => {
    for (const spec of importsOf(file)) {
      if (!spec.startsWith('.')) continue;
      const target = path.relative(root, resolveImport(file, spec));
      if (target.startsWith(`core${path.sep}`))
        expect(PUBLIC_ENTRIES, `${spec} in ${file}`).toContain(target);
    }
  });
});

describe('front ends drive conversations through the chat controller only', () => {
  it.each(hostFiles.map((f) => [path.relative(root, f), f]))('%s', (_name, file) => {
    const code = readFileSync(file, 'utf8');
    // A chat opened by hand (or a turn run by hand) would skip what the controller does once for everyone:
    // masking secrets, batching, commands and questions.
    expect(code).not.toMatch(/\.openChat\(|\bengine\.run\(|\brunCommand\(/);
  });
});

/** The names in the `{ … }` of every import or export statement of `file` whose module matches `from`. */
function namesFrom(file: string, from: RegExp): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g)]
    .filter((m) => from.test(m[2]!))
    .flatMap((m) => m[1]!.split(','))
    .map((name) => name.replace(/^\s*type\s+/, '').trim())
    .filter(Boolean);
}

describe('the public entries export what front ends use, and nothing else', () => {
  const entries = [
    { entry: 'core/index.ts', importedAs: /core\/index\.js$/ },
    { entry: 'core/browser.ts', importedAs: /(core\/browser|\/core-types)\.js$/ },
  ];
  it.each(entries)('$entry', ({ entry, importedAs }) => {
    const exported = namesFrom(path.join(root, entry), /./);
    const used = new Set(hostFiles.flatMap((file) => namesFrom(file, importedAs)));
    expect(exported.length).toBeGreaterThan(3);
    expect(exported.filter((name) => !used.has(name))).toEqual([]);
  });
});

describe('what a browser bundles reaches no Node module', () => {
  const browserSafe = [
    'core/browser.ts',
    ...sourceFiles(path.join(root, 'core/types')).map((f) => path.relative(root, f)),
  ];

  it.each(browserSafe)('%s', (entry) => {
    const { files, modules } = reach(path.join(root, entry));
    const nodeModules = [...modules].filter(
      (m) => m.startsWith('node:') || /^(fs|path|os|child_process)$/.test(m),
    );
    expect(
      nodeModules,
      `reached from ${entry} through ${[...files].map((f) => path.relative(root, f)).join(', ')}`,
    ).toEqual([]);
    for (const file of files) expect(existsSync(file), `${file} exists`).toBe(true);
  });
});
