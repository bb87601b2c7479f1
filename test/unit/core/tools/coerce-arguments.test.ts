import { describe, expect, it } from 'vitest';
import { coerceArguments } from '../../../../core/tools/coerce-arguments.js';

const schema = {
  type: 'object',
  properties: {
    count: { type: 'integer' },
    ratio: { type: 'number' },
    strict: { type: 'boolean' },
    name: { type: 'string' },
    either: { type: ['number', 'null'] },
    loose: { type: ['string', 'number'] },
    nested: { type: 'object', properties: { depth: { type: 'integer' } } },
  },
};

describe('argument coercion (R-PARSE-8)', () => {
  it('converts exact numbers, integers and booleans written as strings', () => {
    expect(
      coerceArguments(
        { count: '45', ratio: '3.5', strict: 'true', either: '-2e3', nested: { depth: '2' }, name: '45' },
        schema,
      ),
    ).toEqual({ count: 45, ratio: 3.5, strict: true, either: -2000, nested: { depth: 2 }, name: '45' });
    expect(coerceArguments({ strict: 'false' }, schema)).toEqual({ strict: false });
  });

  it.each([
    ['a fraction for an integer', { count: '4.5' }],
    ['a word', { count: 'forty' }],
    ['a padded number', { ratio: ' 3' }],
    ['hex', { ratio: '0x10' }],
    ['leading zeros', { count: '007' }],
    ['an empty string', { count: '' }],
    ['Infinity', { ratio: 'Infinity' }],
    ['a capitalised boolean', { strict: 'True' }],
    ['yes for a boolean', { strict: 'yes' }],
    ['a string where a string is allowed', { loose: '12' }],
    ['an unknown key', { other: '12' }],
  ])('leaves %s as written', (_what, args) => {
    expect(coerceArguments(args, schema)).toEqual(args);
  });

  it('keeps values that already have the right type, and returns the same object when nothing changes', () => {
    const args = { count: 3, strict: false, name: 'x' };
    expect(coerceArguments(args, schema)).toBe(args);
    expect(coerceArguments(args, undefined)).toBe(args);
    expect(coerceArguments(args, { type: 'object' })).toBe(args);
  });
});
