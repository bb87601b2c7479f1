import { cellWidth } from '../text/cell-width.js';

/**
 * What an inserted break ends its line with: an erase to the line's end, which erases nothing there (the line ends
 * at the cursor). It is what tells an inserted break from a line's own end in the bytes, so a program reading them
 * (the tests) can read the lines unwrapped.
 */
export const INSERTED_BREAK = '\x1b[K\n';

/** The start of a line that its continuation lines are indented under: spaces, and a list's `1) ` or `- `. */
const HANGING = /^ *(?:(?:\d{1,3}\)|[-•*]) )?/;

/**
 * hac's own lines (notices, command output, errors, a tool's summary) for a terminal `columns` wide: a line that
 * does not fit breaks at spaces, its continuation indented under its text, so no word is cut in two by the
 * terminal's own wrap. A word longer than a line (a path, an address, a command) is never broken: it goes on a
 * line of its own, whole, to be read and copied in one piece.
 */
export function wrapOwnLines(text: string, columns: number): string {
  if (columns < 20 || cellWidth(text) <= columns) return text;
  return text
    .split('\n')
    .map((line) => wrapLine(line, columns))
    .join('\n');
}

function wrapLine(line: string, columns: number): string {
  if (cellWidth(line) <= columns) return line;
  const hang = HANGING.exec(line.replace(/\x1b\[[0-9;]*m/g, ''))?.[0].length ?? 0;
  const indent = ' '.repeat(hang > columns / 2 ? 0 : hang);
  const lead = /^ */.exec(line)![0];
  const [first = '', ...words] = line.slice(lead.length).split(' ');
  const rows: string[] = [];
  let row = `${lead}${first}`;
  for (const word of words) {
    const next = `${row} ${word}`;
    if (cellWidth(next) <= columns || row.trim() === '') {
      row = next;
      continue;
    }
    rows.push(row);
    row = `${indent}${word}`;
  }
  rows.push(row);
  return rows.join(INSERTED_BREAK);
}
