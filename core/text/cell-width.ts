import { eastAsianWidth } from 'get-east-asian-width';

/** Escape sequences that take no cells: SGR styles and OSC strings (hyperlinks, marks). */
const ESCAPES = /\x1b\[[0-9;]*m|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;

/** Combining marks, zero-width spaces and joiners, variation selectors: drawn on the character before them. */
export function isZeroWidth(cp: number): boolean {
  return (
    (cp >= 0x0300 && cp <= 0x036f) ||
    (cp >= 0x1ab0 && cp <= 0x1aff) ||
    (cp >= 0x1dc0 && cp <= 0x1dff) ||
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0x20d0 && cp <= 0x20ff) ||
    (cp >= 0x2060 && cp <= 0x206f) ||
    (cp >= 0xfe00 && cp <= 0xfe0f) ||
    (cp >= 0xfe20 && cp <= 0xfe2f) ||
    cp < 0x20
  );
}

/**
 * How many terminal cells `text` takes: a wide character (Hangul, kana, Han, full-width forms, emoji) two, a
 * combining mark none, styles none. Hand-written over get-east-asian-width rather than string-width, whose
 * Unicode-property regexes cost every start of hac about 30 ms to compile.
 */
export function cellWidth(text: string): number {
  let width = 0;
  for (const char of text.replace(ESCAPES, '')) {
    const cp = char.codePointAt(0)!;
    if (!isZeroWidth(cp)) width += eastAsianWidth(cp);
  }
  return width;
}
