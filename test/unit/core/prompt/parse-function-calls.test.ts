import { describe, expect, it } from 'vitest';
import { createHoldBack, parseFunctionCalls, type ToolRef } from '../../../../core/prompt/index.js';

const tools: ToolRef[] = [
  { server: 'context7', name: 'resolve-library-id' },
  { server: 'context7', name: 'get-library-docs' },
  { server: 'web', name: 'search' },
  { server: 'files', name: 'search' },
  { server: 'my.server', name: 'list' },
  { server: 'hac', name: 'ask_user' },
];

const resolveJava = {
  type: 'call',
  server: 'context7',
  name: 'resolve-library-id',
  arguments: { libraryName: 'java' },
};
const calls = (text: string) => parseFunctionCalls(text, tools).calls;

describe('parseFunctionCalls: accepted shapes', () => {
  it('canonical-server-name-arguments', () => {
    expect(
      calls('{"server": "context7", "name": "resolve-library-id", "arguments": {"libraryName": "java"}}'),
    ).toEqual([resolveJava]);
  });

  it('canonical-with-reason', () => {
    expect(
      calls(
        '{"server":"context7","name":"resolve-library-id","arguments":{"libraryName":"java"},"reason":"find the id"}',
      ),
    ).toEqual([{ ...resolveJava, reason: 'find the id' }]);
  });

  it('the-function-call-template-with-tabs-and-trailing-commas', () => {
    const text =
      '{\n\t"server": "context7",\n\t"name": "resolve-library-id",\n\t"arguments": {\n\t  "libraryName": "java",\n\t},\n}';
    expect(calls(text)).toEqual([resolveJava]);
  });

  it('name-and-arguments-finds-the-server-of-a-unique-tool', () => {
    expect(calls('{"name": "resolve-library-id", "arguments": {"libraryName": "java"}}')).toEqual([
      resolveJava,
    ]);
  });

  it('namespaced-server-double-underscore-name', () => {
    expect(calls('{"name": "context7__resolve-library-id", "arguments": {"libraryName": "java"}}')).toEqual([
      resolveJava,
    ]);
  });

  it('native-name-of-a-server-with-a-dot', () => {
    expect(calls('{"name": "my_server__list", "arguments": {}}')).toEqual([
      { type: 'call', server: 'my.server', name: 'list', arguments: {} },
    ]);
  });

  it('function-key-names-the-tool', () => {
    expect(calls('{"function": "resolve-library-id", "arguments": {"libraryName": "java"}}')).toEqual([
      resolveJava,
    ]);
  });

  it('tool-key-and-parameters', () => {
    expect(calls('{"tool": "resolve-library-id", "parameters": {"libraryName": "java"}}')).toEqual([
      resolveJava,
    ]);
  });

  it('arguments-given-as-a-json-string', () => {
    expect(calls('{"name": "resolve-library-id", "arguments": "{\\"libraryName\\": \\"java\\"}"}')).toEqual([
      resolveJava,
    ]);
  });

  it('openai-style-function-object', () => {
    expect(
      calls(
        '{"type": "function", "function": {"name": "resolve-library-id", "arguments": "{\\"libraryName\\":\\"java\\"}"}}',
      ),
    ).toEqual([resolveJava]);
  });

  it('an-object-naming-a-tool-without-arguments-is-text-its-other-keys-are-not-arguments', () => {
    // R-PARSE-2 (sharpened): `{"name": "search", "type": …, "max_shingle_size": 3}` ran with its keys as arguments.
    expect(calls('{"server": "context7", "name": "resolve-library-id", "libraryName": "java"}')).toEqual([]);
    expect(calls('{"name": "resolve-library-id", "type": "shingle", "max_shingle_size": 3}')).toEqual([]);
  });

  it('a-tool-definition-is-text-not-a-call-with-its-schema-as-arguments', () => {
    const definition =
      '{"name": "resolve-library-id", "description": "Finds a library", "parameters": {"type": "object", "properties": {"libraryName": {"type": "string"}}}}';
    expect(calls(definition)).toEqual([]);
    expect(
      calls('{"name": "resolve-library-id", "description": "d", "inputSchema": {"properties": {}}}'),
    ).toEqual([]);
  });

  it('the-function-call-template-quoted-back-is-text-not-an-error', () => {
    const template =
      '{\n\t"server": "server name",\n\t"name": "function name",\n\t"arguments": {\n\t  "arg1 name": "argument1 value",\n\t  "arg2 name": "argument2 value",\n\t}\n}';
    expect(calls(template)).toEqual([]);
    expect(
      calls(
        '{"server": "context7", "name": "resolve-library-id", "arguments": {"libraryName": "argument1 value"}}',
      ),
    ).toEqual([]);
  });

  it('array-of-calls-in-order', () => {
    const text =
      '[\n  {"server": "context7", "name": "resolve-library-id", "arguments": {"libraryName": "java"}},\n  {"server": "hac", "name": "ask_user", "arguments": {"question": "Which version?"}}\n]';
    expect(calls(text)).toEqual([
      resolveJava,
      { type: 'call', server: 'hac', name: 'ask_user', arguments: { question: 'Which version?' } },
    ]);
  });

  it('json-fence', () => {
    expect(
      calls('```json\n{"name": "resolve-library-id", "arguments": {"libraryName": "java"}}\n```'),
    ).toEqual([resolveJava]);
  });

  it('plain-fence', () => {
    expect(calls('```\n{"name": "resolve-library-id", "arguments": {"libraryName": "java"}}\n```\n')).toEqual(
      [resolveJava],
    );
  });

  it('fence-closed-on-the-line-of-the-json', () => {
    expect(
      parseFunctionCalls(
        '```json\n{"name": "resolve-library-id", "arguments": {"libraryName": "java"}}```',
        tools,
      ),
    ).toEqual({
      text: '',
      calls: [resolveJava],
    });
  });

  it('xml-fence-around-a-tool-call-tag', () => {
    expect(
      calls(
        '```xml\n<tool_call>{"name": "resolve-library-id", "arguments": {"libraryName": "java"}}</tool_call>\n```',
      ),
    ).toEqual([resolveJava]);
  });

  it('tool-calls-wrapper-object', () => {
    expect(
      calls(
        '{"tool_calls": [{"type": "function", "function": {"name": "resolve-library-id", "arguments": {"libraryName": "java"}}}]}',
      ),
    ).toEqual([resolveJava]);
  });

  it('function-call-tag-with-name-attribute', () => {
    expect(calls('<function_call name="resolve-library-id">{"libraryName": "java"}</function_call>')).toEqual(
      [resolveJava],
    );
  });

  it('function-call-tag-with-empty-body-has-empty-arguments', () => {
    expect(calls('<function_call name="my.server__list"></function_call>')).toEqual([
      { type: 'call', server: 'my.server', name: 'list', arguments: {} },
    ]);
  });

  it('tool-call-tag', () => {
    expect(
      calls(
        '<tool_call>\n{"name": "resolve-library-id", "arguments": {"libraryName": "java"}}\n</tool_call>',
      ),
    ).toEqual([resolveJava]);
  });

  it('lenient-json-comments-unquoted-keys-single-quotes', () => {
    const text =
      "{\n  // look it up\n  server: 'context7', name: 'resolve-library-id',\n  arguments: {libraryName: 'java',},\n}";
    expect(calls(text)).toEqual([resolveJava]);
  });

  it('a-call-cut-off-at-the-end-is-never-completed-into-a-run-and-stays-text', () => {
    // R-PARSE-8 (sharpened): `{"text": "rm -rf /important/dir` must not run as a complete string.
    const cut =
      'On it.\n{"server": "context7", "name": "resolve-library-id", "arguments": {"libraryName": "ja';
    const result = parseFunctionCalls(cut, tools);
    expect(result.calls).toEqual([]);
    expect(result.text).toBe(cut);
    expect(result.cutOff).toBe(true);
    expect(parseFunctionCalls('A brace { that never closes', tools).cutOff).toBeUndefined();
  });

  it('mixed-with-prose-before-and-after', () => {
    const result = parseFunctionCalls(
      'I will look that up.\n{"name": "resolve-library-id", "arguments": {"libraryName": "java"}}\nOne moment.',
      tools,
    );
    expect(result.calls).toEqual([resolveJava]);
    expect(result.text).toBe('I will look that up.\nOne moment.');
  });

  it('raw-line-breaks-inside-an-argument-string-with-prose-after', () => {
    const text =
      'Writing it.\n{"server": "hac", "name": "ask_user", "arguments": {"question": "Line one\nline two"}}\nDone.';
    expect(parseFunctionCalls(text, tools)).toEqual({
      text: 'Writing it.\nDone.',
      calls: [
        { type: 'call', server: 'hac', name: 'ask_user', arguments: { question: 'Line one\nline two' } },
      ],
    });
  });

  it('stray-quote-in-a-line-does-not-swallow-a-later-call', () => {
    const text =
      '{ "note": "unclosed\nmore prose\n{"name": "resolve-library-id", "arguments": {"libraryName": "java"}}\nend';
    const result = parseFunctionCalls(text, tools);
    expect(result.calls).toEqual([resolveJava]);
    expect(result.text).toBe('{ "note": "unclosed\nmore prose\nend');
  });

  it('two-calls-on-separate-lines', () => {
    const text =
      '{"name": "resolve-library-id", "arguments": {"libraryName": "java"}}\n{"name": "get-library-docs", "arguments": {"context7CompatibleLibraryID": "/java/java"}}';
    expect(calls(text).map((c) => c.name)).toEqual(['resolve-library-id', 'get-library-docs']);
  });
});

describe('parseFunctionCalls: no false positives', () => {
  it('example-object-in-prose-is-text', () => {
    expect(parseFunctionCalls('Example: {"name":"Alice","age":3}', tools)).toEqual({
      text: 'Example: {"name":"Alice","age":3}',
      calls: [],
    });
  });

  it('data-object-on-its-own-line-is-text', () => {
    const text = 'Here is the record:\n{"name": "Alice", "age": 3}\nThat is all.';
    expect(parseFunctionCalls(text, tools)).toEqual({ text, calls: [] });
  });

  it('json-fence-of-data-is-text', () => {
    const text = '```json\n{"name": "my-package", "version": "1.0.0"}\n```';
    expect(parseFunctionCalls(text, tools)).toEqual({ text, calls: [] });
  });

  it('config-with-a-server-key-but-no-tool-name-is-text', () => {
    const text = '{"server": "localhost", "port": 8080}';
    expect(parseFunctionCalls(text, tools)).toEqual({ text, calls: [] });
  });

  it('a-tool-description-is-not-a-call', () => {
    const text = '{"name": "resolve-library-id", "description": "Resolves a name"}';
    expect(parseFunctionCalls(text, tools)).toEqual({ text, calls: [] });
  });

  it('code-block-with-a-call-inside-other-code-is-text', () => {
    const text = '```python\nx = {"name": "resolve-library-id", "arguments": {}}\n```';
    expect(parseFunctionCalls(text, tools)).toEqual({ text, calls: [] });
  });

  it('markdown-links-checkboxes-and-templates-are-text', () => {
    const text =
      '[Docs](https://example.com)\n[ ] todo\n[x] done\n{{ template }}\n{ not json }\n<b>bold</b> <tool_call> tag';
    expect(parseFunctionCalls(text, tools)).toEqual({ text, calls: [] });
  });
});

describe('parseFunctionCalls: attempted calls', () => {
  it('unknown-tool-with-arguments-lists-the-available-tools', () => {
    const [call] = calls('{"name": "weather", "arguments": {"city": "Seoul"}}');
    expect(call).toEqual({
      type: 'attempted-call-error',
      name: 'weather',
      message:
        'There is no tool named "weather". Available tools: "resolve-library-id", "get-library-docs" on server "context7"; "search" on server "web"; "search" on server "files"; "list" on server "my.server"; "ask_user" on server "hac".',
    });
  });

  it('a-wrong-server-for-a-tool-only-one-server-has-runs-it-there', () => {
    const [call] = calls('{"server": "nope", "name": "resolve-library-id", "arguments": {}}');
    expect(call).toMatchObject({ type: 'call', name: 'resolve-library-id' });
    expect(call?.type === 'call' && call.server).not.toBe('nope');
    for (const written of [
      'nope__resolve-library-id',
      'nope.resolve-library-id',
      'nope/resolve-library-id',
    ]) {
      const [named] = calls(`{"name": "${written}", "arguments": {}}`);
      expect(named).toMatchObject({ type: 'call', name: 'resolve-library-id' });
    }
  });

  it('gemma-3-tool-code-with-a-bare-call-and-numbers-is-a-call', () => {
    for (const body of [
      'get-library-docs(tokens=2000, topic="hooks")',
      'print(get-library-docs(tokens=2000))',
    ]) {
      const parsed = parseFunctionCalls(`Let me look.\n\`\`\`tool_code\n${body}\n\`\`\`\n`, tools);
      expect(parsed.text).toBe('Let me look.\n');
      expect(parsed.calls).toMatchObject([
        { type: 'call', name: 'get-library-docs', arguments: { tokens: 2000 } },
      ]);
    }
  });

  it('an-unknown-tool-on-an-unknown-server-is-an-attempted-call', () => {
    const [call] = calls('{"server": "nope", "name": "no-such-tool", "arguments": {}}');
    expect(call).toMatchObject({ type: 'attempted-call-error', server: 'nope', name: 'no-such-tool' });
    expect(call?.type === 'attempted-call-error' && call.message).toMatch(
      /^There is no tool "no-such-tool" on server "nope"\. Available tools: /,
    );
  });

  it('name-two-servers-share-without-server-lists-both', () => {
    expect(calls('{"name": "search", "arguments": {"q": "x"}}')).toEqual([
      {
        type: 'attempted-call-error',
        name: 'search',
        message:
          'Tool "search" exists on more than one server: "web", "files". Call it again with "server" set to the one you mean.',
      },
    ]);
  });

  it('shared-name-with-server-is-a-call', () => {
    expect(calls('{"server": "files", "name": "search", "arguments": {"q": "x"}}')).toEqual([
      { type: 'call', server: 'files', name: 'search', arguments: { q: 'x' } },
    ]);
  });

  it('arguments-that-are-not-an-object', () => {
    expect(calls('{"name": "resolve-library-id", "arguments": [1, 2]}')).toEqual([
      {
        type: 'attempted-call-error',
        server: 'context7',
        name: 'resolve-library-id',
        message:
          'The "arguments" of the call to tool "resolve-library-id" on server "context7" must be a JSON object.',
      },
    ]);
  });

  it('unreadable-tool-call-tag-is-an-attempted-call', () => {
    const result = parseFunctionCalls('<tool_call>{ @@@ }</tool_call>', tools);
    expect(result.text).toBe('');
    expect(result.calls).toHaveLength(1);
    expect(result.calls[0]?.type).toBe('attempted-call-error');
  });

  it('array-element-that-is-not-a-call-becomes-an-error-in-place', () => {
    const result = calls(
      '[{"name": "resolve-library-id", "arguments": {"libraryName": "java"}}, {"foo": 1}]',
    );
    expect(result.map((c) => c.type)).toEqual(['call', 'attempted-call-error']);
  });

  it('no-tools-available-still-reports-attempted-calls', () => {
    const result = parseFunctionCalls('{"server": "x", "name": "y", "arguments": {}}', []);
    expect(result.calls).toEqual([
      {
        type: 'attempted-call-error',
        server: 'x',
        name: 'y',
        message: 'There is no tool "y" on server "x". No tool is available.',
      },
    ]);
  });
});

describe('calls after prose on the same line (R-PARSE-6)', () => {
  const java = {
    type: 'call',
    server: 'context7',
    name: 'resolve-library-id',
    arguments: { libraryName: 'java' },
  };

  it('a-call-after-prose-is-found-and-the-prose-around-it-kept', () => {
    const result = parseFunctionCalls(
      'I will use the resolver: {"name": "resolve-library-id", "arguments": {"libraryName": "java"}} and wait.',
      tools,
    );
    expect(result.calls).toEqual([java]);
    expect(result.text).toBe('I will use the resolver: and wait.');
  });

  it('a-pretty-printed-call-opened-mid-line-is-found', () => {
    const result = parseFunctionCalls(
      'Calling it now: {\n  "server": "context7",\n  "name": "resolve-library-id",\n  "arguments": {"libraryName": "java"}\n}',
      tools,
    );
    expect(result.calls).toEqual([java]);
  });

  it('ordinary-braces-and-data-in-prose-stay-text', () => {
    for (const text of [
      'Use a set like {1, 2, 3} here.',
      'The object {"a": 1} is data.',
      'A person {"name": "Alice", "age": 3} is not a call.',
      'Write `{"name": "resolve-library-id", "arguments": {"libraryName": "java"}}` to call it.',
      'An unfinished { "name',
    ]) {
      const result = parseFunctionCalls(text, tools);
      expect([text, result.calls]).toEqual([text, []]);
      expect(result.text).toBe(text);
    }
  });

  it('streaming-shows-prose-braces-at-once', () => {
    const holdBack = createHoldBack(tools);
    expect(holdBack.push('Use a set like {1').show).toBe('Use a set like {1');
    expect(holdBack.push(' and {"a"').show).toBe(' and {"a"');
    expect(holdBack.push(' then {"na').show).toBe(' then ');
  });
});
