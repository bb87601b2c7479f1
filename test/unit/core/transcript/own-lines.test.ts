import { describe, expect, it } from 'vitest';
import { INSERTED_BREAK, wrapOwnLines } from '../../../../core/transcript/own-lines.js';
import { cellWidth } from '../../../../core/text/cell-width.js';

const rows = (text: string) => text.split(/\x1b\[K\n|\n/);

describe("hac's own lines in a narrow terminal", () => {
  it('break-at-spaces-never-mid-word-each-row-within-the-width', () => {
    const line =
      'OPENAI_API_KEY is not set: set it in hac\'s environment, or write ${VAR} as "apiKey" of "gpt-4o" in /home/me/.humble-ai-cli/config.json';
    const wrapped = wrapOwnLines(line, 40);
    for (const row of rows(wrapped))
      if (!row.includes('/home/me')) expect(cellWidth(row)).toBeLessThanOrEqual(40);
    // Read unwrapped, the words are the same words, none cut.
    expect(wrapped.split(INSERTED_BREAK).join(' ')).toBe(line);
  });

  it('keeps-a-path-longer-than-a-line-whole-on-a-line-of-its-own', () => {
    const path = '/very/long/path/to/the/folder/where/hac/keeps/its/mcp-servers.json';
    const wrapped = wrapOwnLines(`No MCP servers configured in ${path} yet.`, 30);
    expect(rows(wrapped)).toContain(path);
  });

  it('indents-a-list-items-continuation-under-its-text-and-leaves-short-lines-and-korean-alone', () => {
    const wrapped = wrapOwnLines(
      '  1) openai: qwen2.5-coder-32b (key from $OPENAI_API_KEY at http://127.0.0.1:9/v1)',
      50,
    );
    expect(rows(wrapped)[1]).toMatch(/^ {5}\S/);
    expect(wrapOwnLines('짧은 줄.\n두 번째 줄', 20)).toBe('짧은 줄.\n두 번째 줄');
    // Korean words count two cells a syllable: a row of them still fits.
    for (const row of rows(wrapOwnLines('서울 날씨는 맑고 기온은 열여덟 도이며 바람이 약하게 붑니다', 20)))
      expect(cellWidth(row)).toBeLessThanOrEqual(20);
  });
});
