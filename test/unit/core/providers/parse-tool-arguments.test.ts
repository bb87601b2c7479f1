import { describe, expect, it } from 'vitest';
import { MemoryLogger } from '../../../../core/logging/logger.js';
import { parseToolArguments } from '../../../../core/providers/parse-tool-arguments.js';

describe('parseToolArguments', () => {
  const logger = new MemoryLogger();
  it.each([
    ['{"a":1}', { a: 1 }],
    [{ b: 2 }, { b: 2 }],
    ['', {}],
    ['{"a":1,}', { a: 1 }],
    ["{a: 'x'}", { a: 'x' }],
    ['[1,2]', {}],
    [undefined, {}],
  ])('reads %j', (raw, expected) => {
    expect(parseToolArguments(raw, logger, 't')).toEqual(expected);
  });
});
