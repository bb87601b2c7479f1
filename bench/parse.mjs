// Parsing function calls out of model text (1 MB, linear): the whole-text parser and the
// streaming hold-back on 1 MB and 4 MB of model-like text, against a floor measured in the same run (a native
// linear pass: JSON.parse of the same text as one JSON string), and the 1 MB -> 4 MB growth (linear: ~4).
// Run: node bench/parse.mjs [runs]
// It first bundles the TypeScript sources (jsonrepair included) into a temp dir (bench/import-ts.mjs).
import { performance } from 'node:perf_hooks';
import { importTs } from './import-ts.mjs';

const runs = Number(process.argv[2] ?? 5);
const prompt = await importTs('core/prompt/index.ts');

const tools = [
  { server: 'context7', name: 'resolve-library-id' },
  { server: 'context7', name: 'get-library-docs' },
  { server: 'hac', name: 'ask_user' },
];

// Model-like text: prose (English and Korean), data JSON, code fences, markdown, calls in every shape, and a
// few things that force the slow paths (a stray quote, an unclosed brace, a `<tool_call>` mention).
const block = [
  'Here is what I found about the library. 서울 사무소 예산에 대한 결정 사항을 정리했습니다.\n',
  '{"name": "Alice", "age": 3, "tags": ["a", "b"]}\n',
  '```python\nprint({"x": 1})\n```\n',
  '[link](https://example.com) and a < b, <b>bold</b>\n',
  '{"server": "context7", "name": "resolve-library-id", "arguments": {"libraryName": "java"}}\n',
  '```json\n{"name": "get-library-docs", "arguments": {"context7CompatibleLibraryID": "/java/java",},}\n```\n',
  '<tool_call>{"name": "ask_user", "arguments": {"question": "Which one?"}}</tool_call>\n',
  '{ "note": "a stray quote\n',
  'Use the <tool_call> tag for calls.\n',
].join('');
const textOf = (bytes) => block.repeat(Math.ceil(bytes / block.length)).slice(0, bytes);

function best(fn) {
  let min = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    min = Math.min(min, performance.now() - start);
  }
  return min;
}

function streamed(text, size) {
  const holdBack = prompt.createHoldBack(tools);
  for (let i = 0; i < text.length; i += size) holdBack.push(text.slice(i, i + size));
  return holdBack.end();
}

const MB = 1 << 20;
const rows = [];
let calls = 0;
for (const bytes of [MB, 4 * MB]) {
  const text = textOf(bytes);
  const asJson = JSON.stringify(text);
  best(() => prompt.parseFunctionCalls(text, tools)); // warm up
  const floor = best(() => JSON.parse(asJson));
  const whole = best(() => (calls = prompt.parseFunctionCalls(text, tools).calls.length));
  const stream = best(() => streamed(text, 8));
  rows.push({ bytes, floor, whole, stream });
}

const [one, four] = rows;
for (const r of rows) {
  console.log(
    `${(r.bytes / MB).toFixed(0)} MB: parse ${r.whole.toFixed(1)} ms (${(r.whole / r.floor).toFixed(1)}x floor ${r.floor.toFixed(1)} ms), ` +
      `hold-back in 8-char deltas ${r.stream.toFixed(1)} ms`,
  );
}
console.log(`calls found in 4 MB: ${calls}`);
console.log(
  `growth 1 MB -> 4 MB: parse x${(four.whole / one.whole).toFixed(2)}, hold-back x${(four.stream / one.stream).toFixed(2)}, floor x${(four.floor / one.floor).toFixed(2)} (linear = 4)`,
);
