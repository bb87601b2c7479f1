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

  // The one file that touches console: it takes the MCP SDK's console warnings off the screen into the log.
  const consoleGuard = path.join(root, 'core/mcp/sdk-warnings.ts');
  it('the-console-guard-sends-only-the-sdks-lines-to-the-log', () => {
    const code = readFileSync(consoleGuard, 'utf8');
    expect(code.match(/console\.\w+/g)).toEqual(['console.warn', 'console.warn', 'console.warn']);
  });

  it.each(coreFiles.filter((f) => f !== consoleGuard).map((f) => [path.relative(root, f), f]))(
    '%s never writes to the terminal',
    (_name, file) => {
      const code = readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\/\/.*$/gm, '');
      expect(code).not.toMatch(/process\.(stdout|stderr)\b|console\.(log|info|warn|error|debug)\b/);
    },
  );
});
