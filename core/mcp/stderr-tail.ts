/** The last lines a stdio server wrote to stderr, bounded in count and line length. */
export class StderrTail {
  private readonly kept: string[] = [];
  private partial = '';

  constructor(
    private readonly maxLines: number,
    private readonly maxLineChars = 1000,
  ) {}

  /** Adds a chunk of output; returns the lines it completed (for the log). */
  push(chunk: string): string[] {
    const text = this.partial + chunk;
    const pieces = text.split(/\r?\n/);
    this.partial = (pieces.pop() ?? '').slice(0, this.maxLineChars * 4);
    const lines = pieces.map((line) => line.slice(0, this.maxLineChars));
    for (const line of lines) this.kept.push(line);
    if (this.kept.length > this.maxLines) this.kept.splice(0, this.kept.length - this.maxLines);
    return lines;
  }

  /** The kept lines, oldest first (a line still being written counts as the last). */
  lines(): string[] {
    const all = this.partial ? [...this.kept, this.partial.slice(0, this.maxLineChars)] : [...this.kept];
    return all.slice(-this.maxLines);
  }
}
