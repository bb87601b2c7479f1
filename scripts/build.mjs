// Bundles the hosts with esbuild. The CLI entry stays tiny (--version/--help need nothing else);
// the rest is split into chunks loaded with import() only when a path needs them.
// Chunks are content-hashed and written before the entry, which is renamed into place last, so a build
// never breaks a hac (or a test) that is running from dist/ at the same moment.
import { build } from 'esbuild';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { writePageFonts } from './page-fonts.mjs';

const root = path.resolve(import.meta.dirname, '..');
const outdir = path.join(root, 'dist/cli');
const { version, engines } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
// The oldest Node hac runs on, from package.json's engines (">=22.12"): the entry checks it before anything else.
const nodeFloor = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(engines.node)?.[1];
if (!nodeFloor) throw new Error(`package.json engines.node "${engines.node}" is not ">=X.Y"`);

// Bundled CommonJS dependencies call require() for Node built-ins; ESM output needs a real require for that.
// https and child_process are handed over as stand-ins that load the module on first use: electron-log requires
// both as it loads, for what hac never uses (remote logging, opening a URL), and they cost every start ~13 ms
// (https loads TLS, and Node then parses the root certificates on another thread and frees them at exit).
const requireShim = [
  "import { createRequire as __hacCreateRequire } from 'node:module';",
  'const __hacRequire = __hacCreateRequire(import.meta.url);',
  'const __hacOnFirstUse = (id) => { let m; return new Proxy({}, { get: (_, key) => (m ??= __hacRequire(id))[key] }); };',
  "const require = Object.assign((id) => (id === 'https' || id === 'child_process' ? __hacOnFirstUse(id) : __hacRequire(id)), __hacRequire);",
].join(' ');

const common = {
  absWorkingDir: root,
  write: false,
  bundle: true,
  format: 'esm',
  platform: 'node',
  // Prefer ESM builds: some packages' UMD `main` (jsonc-parser) hides requires esbuild cannot follow.
  mainFields: ['module', 'main'],
  target: 'node22',
  outExtension: { '.js': '.mjs' },
  banner: { js: requireShim },
  define: { __HAC_VERSION__: JSON.stringify(version), __HAC_NODE_FLOOR__: JSON.stringify(nodeFloor) },
  legalComments: 'none',
  logLevel: 'warning',
  minifySyntax: true,
  minifyWhitespace: true,
  // A native addon: loaded from node_modules at run time, only when an image is attached.
  external: ['sharp'],
};

// The MCP pool is its own bundle. Split with the rest, the modules of zod it shares with the start-up path
// would pull the whole of zod (locales included) into a chunk every start loads (~35 ms); apart, start-up
// keeps only zod/mini.
const mcpApart = {
  name: 'mcp-apart',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/mcp\/index\.js$/ }, (args) =>
      args.importer.endsWith(path.join('core', 'host', 'mcp-loader.ts'))
        ? { path: '../mcp.mjs', external: true }
        : undefined,
    );
  },
};

// The Ollama SDK asks `headers instanceof Headers` before every request, and the first use of the global Headers
// loads all of Node's undici (~40 ms, core/providers/plain-response.ts). Only something with a forEach method can
// be a Headers, so asking that first gives the same answer without loading undici for the plain object hac passes.
// The build fails if the SDK's code changes, so an upgrade is looked at again.
const ollamaWithoutUndici = {
  name: 'ollama-without-undici',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]ollama[\\/]dist[\\/]browser\.mjs$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const check = 'headers instanceof Headers';
      if (source.split(check).length !== 2) throw new Error(`${args.path}: expected one "${check}" to patch`);
      return {
        contents: source.replace(check, `typeof headers?.forEach === 'function' && ${check}`),
        loader: 'js',
      };
    });
  },
};

// The entry is CommonJS (see cli/hac.ts); it loads start.mjs, the ES module all the rest is split from.
const startApart = {
  name: 'start-apart',
  setup(b) {
    b.onResolve({ filter: /^\.\/start\.js$/ }, () => ({ path: './start.mjs', external: true }));
  },
};

const [entryBuild, main, mcp] = await Promise.all([
  build({
    ...common,
    entryPoints: { hac: 'cli/hac.ts' },
    outdir,
    format: 'cjs',
    banner: {},
    outExtension: { '.js': '.cjs' },
    plugins: [startApart],
  }),
  build({
    ...common,
    entryPoints: { start: 'cli/start.ts' },
    outdir,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    plugins: [mcpApart, ollamaWithoutUndici],
  }),
  build({ ...common, entryPoints: { mcp: 'core/mcp/index.ts' }, outdir }),
]);
const result = { outputFiles: [...mcp.outputFiles, ...main.outputFiles, ...entryBuild.outputFiles] };

const entry = path.join(outdir, 'hac.cjs');
const written = new Set();
for (const file of result.outputFiles.sort((a, b) => (a.path === entry ? 1 : b.path === entry ? -1 : 0))) {
  mkdirSync(path.dirname(file.path), { recursive: true });
  const temp = `${file.path}.${process.pid}.tmp`;
  writeFileSync(temp, file.contents, { mode: file.path === entry ? 0o755 : 0o644 });
  renameSync(temp, file.path);
  written.add(file.path);
}

rmSync(path.join(outdir, 'hac.mjs'), { force: true }); // the entry of builds before it was CommonJS

// Chunks of older builds: removed once they are a minute old (a running hac has loaded them by then).
const chunks = path.join(outdir, 'chunks');
for (const name of readdirSync(chunks)) {
  const file = path.join(chunks, name);
  if (!written.has(file) && Date.now() - statSync(file).mtimeMs > 60_000) rmSync(file, { force: true });
}

// The desktop page (renderer/): one browser bundle plus its static files, in dist/renderer. `hac web` serves it;
// the Electron window loads it through app://.
const rendererOut = path.join(root, 'dist/renderer');
mkdirSync(rendererOut, { recursive: true });
await build({
  absWorkingDir: root,
  entryPoints: { renderer: 'renderer/main.ts' },
  outdir: rendererOut,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome120'],
  legalComments: 'none',
  logLevel: 'warning',
  minify: true,
});
for (const [from, to] of [
  ['renderer/index.html', 'index.html'],
  ['renderer/styles.css', 'styles.css'],
  ['node_modules/@xterm/xterm/css/xterm.css', 'xterm.css'],
]) {
  writeFileSync(path.join(rendererOut, to), readFileSync(path.join(root, from)));
}
writePageFonts(root, rendererOut);

// The Electron shell: main as ESM (Electron runs it on its own Node), the preload as CommonJS (a sandboxed preload
// cannot load ES modules). `electron` itself is provided by the app at run time.
const electronOut = path.join(root, 'dist/electron');
await Promise.all([
  build({
    absWorkingDir: root,
    entryPoints: { main: 'electron/main.ts' },
    outdir: electronOut,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    mainFields: ['module', 'main'],
    external: ['electron', 'sharp'],
    plugins: [ollamaWithoutUndici],
    banner: { js: requireShim },
    logLevel: 'warning',
    legalComments: 'none',
  }),
  build({
    absWorkingDir: root,
    entryPoints: { preload: 'electron/preload.ts' },
    outdir: electronOut,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    external: ['electron'],
    logLevel: 'warning',
    legalComments: 'none',
  }),
]);
