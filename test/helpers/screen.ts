import { Terminal } from '@xterm/headless';

/** A pty's output replayed into a headless xterm of the pty's size: the screen as a terminal shows it. */
export async function replay(output: string, cols = 100, rows = 30): Promise<Terminal> {
  const term = new Terminal({ cols, rows, allowProposedApi: true });
  await new Promise<void>((resolve) => term.write(output, resolve));
  return term;
}

/** The rows of a replayed screen, trailing empty rows dropped. */
export function rowsOf(term: Terminal): string[] {
  const buffer = term.buffer.active;
  const rows: string[] = [];
  for (let y = 0; y < buffer.length; y++) rows.push(buffer.getLine(y)?.translateToString(true) ?? '');
  while (rows.length && rows.at(-1) === '') rows.pop();
  return rows;
}

/** The cells of the first screen row that contains `text`, from where it starts: its characters and styles. */
export function cellsOf(term: Terminal, text: string) {
  const buffer = term.buffer.active;
  for (let y = 0; y < buffer.length; y++) {
    const line = buffer.getLine(y);
    if (!line) continue;
    // Wide characters take two cells (the second one empty): map each character of the row to its cell.
    let row = '';
    const cellAt: number[] = [];
    for (let x = 0; x < line.length; x++) {
      const chars = line.getCell(x)?.getChars() ?? '';
      for (let i = 0; i < chars.length; i++) cellAt.push(x);
      row += chars;
    }
    const at = row.indexOf(text);
    if (at < 0) continue;
    return [...text].map((_, i) => {
      const cell = line.getCell(cellAt[at + i] ?? 0);
      return {
        char: cell?.getChars() ?? '',
        bold: cell?.isBold() !== 0,
        italic: cell?.isItalic() !== 0,
        underline: cell?.isUnderline() !== 0,
        colour: cell?.isFgDefault() ? 'default' : (cell?.getFgColor() ?? -1),
      };
    });
  }
  return undefined;
}
