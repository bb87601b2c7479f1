import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|js|mjs)$/.test(entry) ? [full] : [];
  });
}

const coreFiles = sourceFiles(path.join(root, 'core'));

describe('core stays UI-agnostic', () => {
  it('has source files to check', () => {
    expect(coreFiles.length).toBeGreaterThan(5);
  });

  it.each(coreFiles.map((f) => [path.relative(root, f), f]))('%s imports no host folder', (_name, file) => {
    const text = readFileSync(file, 'utf8');
    const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"]([^'"]+)['"]/g)].map(
      (m) => m[1]!,
    );
    for (const spec of specifiers) {
      if (!spec.startsWith('.')) continue;
      const target = path.relative(root, path.resolve(path.dirname(file), spec));
      expect(target.split(path.sep)[0], `${spec} in ${file}`).toBe('core');
    }
    expect(specifiers.filter((s) => /^(electron($|\/)|@xterm\/|node-pty|(node:)?readline$)/.test(s))).toEqual(
      [],
    );
  });

  it.each(coreFiles.map((f) => [path.relative(root, f), f]))(
    '%s does not import the public entries (they sit on top of every folder)',
    (_name, file) => {
      const entries = ['index.ts', 'browser.ts'].map((name) => path.join(root, 'core', name));
      const text = readFileSync(file, 'utf8');
      for (const [, spec] of text.matchAll(/(?:from\s+|import\s*\(\s*)['"](\.[^'"]+)['"]/g)) {
        const target = path.resolve(path.dirname(file), spec!).replace(/\.js$/, '.ts');
        expect(entries, `${spec} in ${file}`).not.toContain(target);
      }
    },
  );

  // The files that touch console: they take the MCP SDK's console warnings off the screen into the log, and the
  // ollama SDK's "invalid json" warning off the screen into the stream's error.
  const consoleGuards = [
    path.join(root, 'core/mcp/sdk-warnings.ts'),
    path.join(root, 'core/providers/ollama/invalid-lines.ts'),
  ];
  it.each(consoleGuards.map((f) => [path.relative(root, f), f]))(
    '%s touches console.warn only, to take an SDK warning off the screen',
    (_name, file) => {
      const used = readFileSync(file, 'utf8').match(/console\.\w+/g) ?? [];
      expect(used.length).toBeGreaterThan(0);
      expect(new Set(used)).toEqual(new Set(['console.warn']));
    },
  );

  it.each(coreFiles.filter((f) => !consoleGuards.includes(f)).map((f) => [path.relative(root, f), f]))(
    '%s never writes to the terminal',
    (_name, file) => {
      const code = readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\/\/.*$/gm, '');
      expect(code).not.toMatch(/process\.(stdout|stderr)\b|console\.(log|info|warn|error|debug)\b/);
    },
  );
});
