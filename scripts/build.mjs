// Bundles the hosts with esbuild. The CLI entry stays tiny (--version/--help need nothing else);
// the rest is split into chunks loaded with import() only when a path needs them.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// Bundled CommonJS dependencies call require() for Node built-ins; ESM output needs a real require for that.
const requireShim =
  "import { createRequire as __hacCreateRequire } from 'node:module'; const require = __hacCreateRequire(import.meta.url);";

rmSync('dist/cli', { recursive: true, force: true });

await build({
  entryPoints: { hac: 'cli/hac.ts' },
  outdir: 'dist/cli',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  // Prefer ESM builds: some packages' UMD `main` (jsonc-parser) hides requires esbuild cannot follow.
  mainFields: ['module', 'main'],
  target: 'node20',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
  banner: { js: requireShim },
  define: { __HAC_VERSION__: JSON.stringify(version) },
  legalComments: 'none',
  logLevel: 'warning',
  minifySyntax: true,
  minifyWhitespace: true,
});
