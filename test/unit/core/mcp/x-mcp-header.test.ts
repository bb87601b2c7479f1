import { describe, expect, it } from 'vitest';
import { headerMarkProblem } from '../../../../core/mcp/x-mcp-header.js';

const tool = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  ...extra,
});

describe('x-mcp-header marks', () => {
  it('accepts-string-integer-and-boolean-parameters-at-any-depth', () => {
    const nested = { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } };
    expect(
      headerMarkProblem(
        tool({
          region: { type: 'string', 'x-mcp-header': 'Region' },
          count: { type: 'integer', 'x-mcp-header': 'Count' },
          dry: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
          where: nested,
        }),
      ),
    ).toBeUndefined();
    expect(headerMarkProblem(tool({ plain: { type: 'number' } }))).toBeUndefined();
  });

  it('names-the-parameter-and-the-rule-it-breaks', () => {
    expect(headerMarkProblem(tool({ score: { type: 'number', 'x-mcp-header': 'Score' } }))).toBe(
      'parameter "score" is of type number, not string, integer or boolean',
    );
    expect(headerMarkProblem(tool({ v: { type: 'string', 'x-mcp-header': 'Region:Primary' } }))).toContain(
      'not a valid header name',
    );
    expect(headerMarkProblem(tool({ v: { type: 'string', 'x-mcp-header': '' } }))).toContain(
      'empty header name',
    );
    expect(
      headerMarkProblem(
        tool({
          a: { type: 'string', 'x-mcp-header': 'MyField' },
          b: { type: 'string', 'x-mcp-header': 'myfield' },
        }),
      ),
    ).toBe('header "myfield" is declared twice (also as "MyField")');
  });

  it('refuses-marks-that-do-not-name-one-value', () => {
    const underItems = tool({ list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } });
    expect(headerMarkProblem(underItems)).toBe('parameter "list" is not a plain parameter');
    const inDefs = tool(
      { id: { $ref: '#/$defs/id' } },
      { $defs: { id: { type: 'string', 'x-mcp-header': 'Id' } } },
    );
    expect(headerMarkProblem(inDefs)).toBe('the schema itself is not a plain parameter');
    const inBranch = tool({}, { anyOf: [{ properties: { x: { type: 'string', 'x-mcp-header': 'X' } } }] });
    expect(headerMarkProblem(inBranch)).toBe('parameter "x" is not a plain parameter');
  });
});
