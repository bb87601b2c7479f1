// Byte for byte the spec's function-call-block.txt without its final newline; the tabs and the
// trailing commas are part of the contract. test/unit/core/prompt/function-call-block.test.ts checks it.
/** The FUNCTION_CALL block, appended last to a prompt-mode system message. */
export const FUNCTION_CALL_BLOCK = [
  'FUNCTION_CALL:',
  '- Schema',
  '{',
  '\t"server": "server name",',
  '\t"name": "function name",',
  '\t"arguments": {',
  '\t  "arg1 name": "argument1 value",',
  '\t  "arg2 name": "argument2 value",',
  '\t}',
  '}',
  '- Example',
  '{',
  '\t"server": "context7",',
  '\t"name": "resolve-library-id",',
  '\t"arguments": {',
  '\t  "libraryName": "java"',
  '\t}',
  '}',
].join('\n');
