import { performance } from 'node:perf_hooks';
const { importTs } = await import(process.argv[2] + '/bench/import-ts.mjs');
const prompt = await importTs('core/prompt/index.ts');
const tools = [{ server: 'context7', name: 'resolve-library-id' }, { server: 'web', name: 'search' }, { server: 'files', name: 'search' }, { server: 'hac', name: 'ask_user' }];
const nasty = (bytes) => '{"a": "b\n[{\n<tool_call>{\n```json\n{'.repeat(bytes / 32);
const time = (t) => { const s = performance.now(); prompt.parseFunctionCalls(t, tools); return performance.now() - s; };
time(nasty(1 << 16));
for (const size of [1 << 18, 1 << 19, 1 << 20]) {
  const t = Math.min(time(nasty(size)), time(nasty(size)), time(nasty(size)));
  console.log(size, t.toFixed(1), 'ms');
}
