import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  FUNCTION_CALL_BLOCK,
  NO_TOOL_FUNCTIONS_BLOCK,
  renderFunctionsBlock,
} from '../../../../core/prompt/index.js';
import { context7, everything } from './prompt-test-servers.js';

const spec = (name: string): string =>
  readFileSync(new URL(`../../../fixtures/spec/${name}`, import.meta.url), 'utf8');

describe('renderFunctionsBlock', () => {
  it('matches-the-spec-example-byte-for-byte', () => {
    expect(`${renderFunctionsBlock([context7])}\n`).toBe(spec('functions-block-example.txt'));
  });

  it('keeps-the-schema-key-order', () => {
    const block = renderFunctionsBlock([
      { name: 's', tools: [{ name: 't', description: 'd', inputSchema: { z: 1, a: { y: 2, b: 3 } } }] },
    ]);
    expect(block).toContain(
      '    {\n      "z": 1,\n      "a": {\n        "y": 2,\n        "b": 3\n      }\n    }',
    );
  });

  it('separates-servers-and-tools-by-one-blank-line', () => {
    const block = renderFunctionsBlock([context7, everything]);
    expect(block).toContain(
      '      "$schema": "http://json-schema.org/draft-07/schema#"\n    }\n\n## everything\n',
    );
    expect(block).toContain('    }\n\n- **get-library-docs**: ');
    expect(block.endsWith('\n    }')).toBe(true);
  });

  it('no-tool-gives-the-exact-no-tool-text', () => {
    expect(renderFunctionsBlock([])).toBe(
      'FUNCTIONS:\n\n# Connected MCP Servers\n\nNo MCP server is connected: no tool can be called.',
    );
    expect(renderFunctionsBlock([{ name: 'idle', tools: [] }])).toBe(NO_TOOL_FUNCTIONS_BLOCK);
  });

  it('indents-multi-line-descriptions-inside-the-list-item', () => {
    const block = renderFunctionsBlock([
      { name: 's', tools: [{ name: 't', description: 'First line.\n\n## Usage\nMore.\n', inputSchema: {} }] },
    ]);
    expect(block).toContain('- **t**: First line.\n\n    ## Usage\n    More.\n    Input Schema:\n    {}');
  });

  it('a-schema-that-is-not-json-becomes-an-empty-object', () => {
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.self = cyclic;
    const block = renderFunctionsBlock([
      { name: 's', tools: [{ name: 't', description: 'd', inputSchema: cyclic }] },
    ]);
    expect(block).toContain('    Input Schema:\n    {}');
  });
});

describe('FUNCTION_CALL_BLOCK', () => {
  it('is-the-spec-file-without-its-final-newline', () => {
    const file = spec('function-call-block.txt');
    expect(file.endsWith('}\n')).toBe(true);
    expect(FUNCTION_CALL_BLOCK).toBe(file.slice(0, -1));
    expect(FUNCTION_CALL_BLOCK).toContain('\t  "arg2 name": "argument2 value",\n\t}');
  });
});
