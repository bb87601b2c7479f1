import { cellWidth } from '../text/cell-width.js';
import { SGR } from './markdown-styles.js';

/** What a table may hold before it is shown as written: rows are held until the table ends. */
export const MAX_TABLE_CHARS = 16_000;

/** What feeding a table brought: nothing yet, or its end with the text to print and what to read after it. */
export type TableStep =
  | undefined
  /** The table ended at the start of a line that is not a row: `reread` is that line's start. */
  | { out: string; reread: string }
  /** Too long to hold: shown as written, and the rest of its last line comes as written too. */
  | { out: string; overflow: true };

/**
 * A Markdown table as it streams: each row held until a line that is not one (or the end of the answer, or too
 * much to hold), then drawn by drawTable. Rows may be indented.
 */
export class TableBlock {
  private lines: string[] = [];
  private line = '';
  private chars = 0;
  /** At the start of the line after a row: what is held of it (indentation) decides whether the table goes on. */
  private next: string | undefined;

  constructor(
    private readonly columns: number | undefined,
    private readonly styleCell: (text: string) => string,
  ) {}

  feed(c: string): TableStep {
    if (this.next !== undefined) {
      if (c === ' ' || c === '\t') return void (this.next += c);
      if (c !== '|') return { out: this.end(), reread: this.next + c };
      this.line = this.next;
      this.next = undefined;
    }
    if (c === '\n') {
      this.lines.push(this.line);
      this.line = '';
      this.next = '';
      return undefined;
    }
    this.line += c;
    if (++this.chars <= MAX_TABLE_CHARS) return undefined;
    return { out: this.lines.map((line) => `${line}\n`).join('') + this.line, overflow: true };
  }

  /** The table drawn (a row cut short by the end of the answer included). */
  end(): string {
    const row = this.next === undefined && this.line.trim() !== '' ? [this.line] : [];
    return drawTable([...this.lines, ...row], this.columns, this.styleCell);
  }
}

type Align = 'left' | 'right' | 'center';

/**
 * A Markdown table (its lines as written, without line breaks) drawn with box-drawing lines, each cell styled by
 * `styleCell` (inline Markdown), its columns as wide as their widest cell in terminal cells (a CJK character takes
 * two, styles none), the header bold; each line ends with a line break. Lines that are not a table (no `|---|` row under the first), or a table wider than `columns`, come back
 * as written.
 */
export function drawTable(
  lines: readonly string[],
  columns: number | undefined,
  styleCell: (text: string) => string,
): string {
  const asWritten = lines.map((line) => `${line}\n`).join('');
  const rows = lines.map(splitRow);
  const aligns = rows[1]?.map(alignOf);
  if (rows.length < 2 || !aligns || aligns.some((a) => a === undefined)) return asWritten;
  const body = [rows[0]!, ...rows.slice(2)].map((row) => row.map(styleCell));
  const count = Math.max(...body.map((row) => row.length), aligns.length);
  const widths = Array.from({ length: count }, (_, i) =>
    Math.max(1, ...body.map((row) => cellWidth(row[i] ?? ''))),
  );
  const total = widths.reduce((sum, w) => sum + w + 3, 1);
  if (columns !== undefined && total > columns) return asWritten;

  // Lines at full strength: a dim one-pixel line can all but vanish between two pixel rows.
  const rule = (left: string, middle: string, right: string) =>
    `${left}${widths.map((w) => '─'.repeat(w + 2)).join(middle)}${right}\n`;
  const bar = '│';
  const line = (row: string[], bold: boolean) =>
    `${bar}${widths
      .map((w, i) => {
        const cell = pad(row[i] ?? '', w, aligns[i] ?? 'left');
        return ` ${bold ? `${SGR.boldOn}${cell}${SGR.boldOff}` : cell} `;
      })
      .join(bar)}${bar}\n`;
  return [
    rule('┌', '┬', '┐'),
    line(body[0]!, true),
    rule('├', '┼', '┤'),
    ...body.slice(1).map((row) => line(row, false)),
    rule('└', '┴', '┘'),
  ].join('');
}

/** The cells of a table line: split at `|` (not at `\|`), the outer pipes dropped, each cell trimmed. */
function splitRow(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  for (let i = 0; i < line.length; i++) {
    const c = line.charAt(i);
    if (c === '\\' && line.charAt(i + 1) === '|') {
      cell += '|';
      i++;
    } else if (c === '|') {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  cells.push(cell);
  if (cells[0]?.trim() === '') cells.shift();
  if (cells.length > 1 && cells.at(-1)?.trim() === '') cells.pop();
  return cells.map((c) => c.trim());
}

/** A separator cell's alignment (`---`, `:--`, `--:`, `:-:`), or undefined when it is not one. */
function alignOf(cell: string): Align | undefined {
  if (!/^:?-+:?$/.test(cell)) return undefined;
  if (cell.startsWith(':') && cell.endsWith(':')) return 'center';
  return cell.endsWith(':') ? 'right' : 'left';
}

function pad(text: string, width: number, align: Align): string {
  const room = width - cellWidth(text);
  if (align === 'right') return ' '.repeat(room) + text;
  if (align === 'center') return ' '.repeat(Math.floor(room / 2)) + text + ' '.repeat(Math.ceil(room / 2));
  return text + ' '.repeat(room);
}
