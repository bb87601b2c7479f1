/** A table row's cells: the text between its pipes, trimmed (an escaped `\|` stays in its cell). */
function cells(line: string): string[] {
  const inner = line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '');
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

const FENCE = /^\s*(`{3,}|~{3,})\s*([^\s`]*)/;
const TABLE_RULE = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;

/**
 * An answer's Markdown read aloud in order (the terminal's screen-reader mode): a table as lines of
 * `Header: value`, a blank line between its rows, instead of a grid a reader would read pipe by pipe; fenced code
 * between `Code (python):` and `End of code.`; everything else as written. Fed as the answer streams; a line is
 * given once it is whole (a table's header waits for the line after it, which says whether it is one).
 */
export class LinearAnswer {
  private partial = '';
  private code: string | undefined;
  private maybeHeader: string | undefined;
  private headers: string[] | undefined;

  push(text: string): string {
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop() ?? '';
    return lines.map((line) => this.line(line)).join('');
  }

  /** The end of the answer (or something else to say): whatever was held, said now. */
  finish(): string {
    const rest = this.partial;
    this.partial = '';
    let out = rest ? this.line(rest) : '';
    if (this.maybeHeader !== undefined) out += `${this.maybeHeader}\n`;
    if (this.code !== undefined) out += 'End of code.\n';
    this.maybeHeader = undefined;
    this.headers = undefined;
    this.code = undefined;
    return out;
  }

  private line(line: string): string {
    if (this.code !== undefined) {
      const fence = FENCE.exec(line);
      if (fence && fence[1]!.startsWith(this.code) && !fence[2] && line.trim() === fence[1]) {
        this.code = undefined;
        return 'End of code.\n';
      }
      return `${line}\n`;
    }
    if (this.maybeHeader !== undefined) {
      const header = this.maybeHeader;
      this.maybeHeader = undefined;
      if (TABLE_RULE.test(line)) {
        this.headers = cells(header);
        return '';
      }
      return `${header}\n${this.line(line)}`;
    }
    if (this.headers) {
      if (line.includes('|')) {
        const row = cells(line);
        return `${this.headers.map((name, i) => `${name}: ${row[i] ?? ''}`).join('\n')}\n\n`;
      }
      this.headers = undefined;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      this.code = fence[1]![0]!.repeat(fence[1]!.length);
      return fence[2] ? `Code (${fence[2]}):\n` : 'Code:\n';
    }
    if (line.includes('|')) {
      this.maybeHeader = line;
      return '';
    }
    return `${line}\n`;
  }
}
