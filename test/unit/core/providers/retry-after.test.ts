import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../../../core/providers/retry-after.js';

const now = Date.parse('2026-11-22T03:00:00Z');
const headers = (values: Record<string, string>) => new Headers(values);

describe('parseRetryAfter', () => {
  it.each([
    [{ 'retry-after': '3' }, 3000],
    [{ 'retry-after': '1.5' }, 1500],
    [{ 'retry-after': 'Sun, 22 Nov 2026 03:00:07 GMT' }, 7000],
    [{ 'retry-after': 'Sun, 22 Nov 2026 02:59:00 GMT' }, 0],
    [{ 'retry-after-ms': '120', 'retry-after': '9' }, 120],
    [{ 'retry-after': 'soon' }, undefined],
    [{}, undefined],
  ])('reads %j as %s ms', (values, expected) => {
    expect(parseRetryAfter(headers(values), now)).toBe(expected);
  });

  it('no-headers-is-undefined', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
