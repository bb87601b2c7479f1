import { describe, expect, it } from 'vitest';
import { MarkdownStream } from '../../../../core/transcript/markdown-stream.js';
import { MAX_TABLE_CHARS } from '../../../../core/transcript/markdown-table.js';

const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');
/** The answer as shown, cut into pieces of `size` characters as a stream would bring it. */
function show(answer: string, { columns, size = 3 }: { columns?: number; size?: number } = {}): string {
  const md = new MarkdownStream({ hyperlinks: false, columns: () => columns });
  let out = '';
  for (let i = 0; i < answer.length; i += size) out += md.push(answer.slice(i, i + size));
  return plain(out + md.finish());
}

describe('Markdown tables (issue 29)', () => {
  it('lines up columns by display width: a Korean or Japanese character takes two cells', () => {
    const shown = show(
      '| 이름 | 点数 | note |\n|:--|--:|:-:|\n| 김민수 | 90 | ok |\n| Lee | 100 | 좋음 |\nDone.',
    );
    expect(shown).toBe(
      [
        '┌────────┬──────┬──────┐',
        '│ 이름   │ 点数 │ note │',
        '├────────┼──────┼──────┤',
        '│ 김민수 │   90 │  ok  │',
        '│ Lee    │  100 │ 좋음 │',
        '└────────┴──────┴──────┘',
        'Done.',
      ].join('\n'),
    );
  });

  it('shows a table too wide for the screen, or lines without a separator row, as written', () => {
    const table = '| a | b |\n|---|---|\n| 1 | 2 |\n';
    expect(show(table, { columns: 8 })).toBe(table); // drawn, it would take 9 cells
    expect(show(table, { columns: 9 })).toContain('┌───┬───┐');
    expect(show('| just | pipes |\n| no | separator |\n')).toBe('| just | pipes |\n| no | separator |\n');
  });

  it('ends a table at the end of the answer, a row without its line break included', () => {
    expect(show('| a | b |\n|---|---|\n| 1 | 2 |')).toBe(
      ['┌───┬───┐', '│ a │ b │', '├───┼───┤', '│ 1 │ 2 │', '└───┴───┘', ''].join('\n'),
    );
  });

  it('holds a table only so long: past the bound it is shown as written', () => {
    const rows = Array.from({ length: Math.ceil(MAX_TABLE_CHARS / 10) }, (_, i) => `| row ${i} | x |`);
    const answer = ['| h | v |', '|---|---|', ...rows].join('\n') + '\n';
    const shown = show(answer, { size: 97 });
    expect(shown).toContain('| h | v |\n|---|---|\n| row 0 | x |');
    expect(shown.replace(/[┌┐└┘├┤┬┴┼─│ ]/g, '')).toContain('row');
  });
});
