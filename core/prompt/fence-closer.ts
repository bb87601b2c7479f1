/**
 * Watches the lines of a fenced block for its closing fence: a line of at least as many backticks as the
 * opening fence, with only blanks around them.
 */
export class FenceCloser {
  private phase: 'lead' | 'ticks' | 'trail' | 'none' = 'lead';
  private ticks = 0;

  constructor(private readonly openTicks: number) {}

  /** Feeds one character; true when `c` is the line break that ends a closing fence line. */
  feed(c: string): boolean {
    switch (this.phase) {
      case 'lead':
        if (c === '`') {
          this.phase = 'ticks';
          this.ticks = 1;
        } else if (c !== ' ' && c !== '\t' && c !== '\n') this.phase = 'none';
        break;
      case 'ticks':
        if (c === '`') this.ticks++;
        else if (c === '\n') {
          if (this.ticks >= this.openTicks) return true;
        } else if ((c === ' ' || c === '\t' || c === '\r') && this.ticks >= this.openTicks)
          this.phase = 'trail';
        else this.phase = 'none';
        break;
      case 'trail':
        if (c === '\n') return true;
        if (c !== ' ' && c !== '\t' && c !== '\r') this.phase = 'none';
        break;
      case 'none':
        break;
    }
    if (c === '\n') this.phase = 'lead';
    return false;
  }

  /** True when the text ends on a closing fence line without its line break. */
  closedAtEnd(): boolean {
    return (this.phase === 'ticks' && this.ticks >= this.openTicks) || this.phase === 'trail';
  }
}
