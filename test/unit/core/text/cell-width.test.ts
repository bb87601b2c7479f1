import { describe, expect, it } from 'vitest';
import { cellWidth } from '../../../../core/text/cell-width.js';

describe('cellWidth', () => {
  it.each([
    ['abc', 3],
    ['한국어', 6],
    ['日本語のテキスト', 16],
    ['中文，标点。', 12],
    ['ＡＢ', 4], // full-width Latin
    ['✅ ok', 5],
    ['e\u0301', 1], // a combining accent sits on its letter
    ['\x1b[1mbold\x1b[22m', 4],
    ['\x1b]8;;https://x.dev\x1b\\link\x1b]8;;\x1b\\', 4],
  ])('%j takes %i cells', (text, cells) => {
    expect(cellWidth(text)).toBe(cells);
  });
});
