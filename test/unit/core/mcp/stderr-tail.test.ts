import { describe, expect, it } from 'vitest';
import { StderrTail } from '../../../../core/mcp/stderr-tail.js';

describe('StderrTail (R-MCP-8)', () => {
  it('keeps-the-last-n-lines-across-chunk-boundaries', () => {
    const tail = new StderrTail(3);
    expect(tail.push('one\ntw')).toEqual(['one']);
    expect(tail.push('o\r\nthree\nfour\nfi')).toEqual(['two', 'three', 'four']);
    expect(tail.lines()).toEqual(['three', 'four', 'fi']);
  });

  it('bounds-line-length', () => {
    const tail = new StderrTail(2, 5);
    tail.push(`${'x'.repeat(100)}\n`);
    expect(tail.lines()).toEqual(['xxxxx']);
    tail.push('y'.repeat(1_000_000));
    expect(tail.lines()[1]).toBe('yyyyy');
  });
});
