import { isSpace } from './markdown-emphasis.js';
import { SGR } from './markdown-styles.js';

// A link is held until it closes, within these bounds.
const MAX_LINK_TEXT = 300;
const MAX_LINK_URL = 2000;

/** A `[text](url)` being read after its `[`: held until it closes, or shown as written when it turns out not to be one. */
export class LinkReader {
  private phase: 'text' | 'paren' | 'url' = 'text';
  private text = '';
  private url = '';

  /** One more character: still `held`, the link is `done`, or it `failed` (read the held text and `c` again). */
  feed(c: string): 'held' | 'done' | 'failed' {
    if (this.phase === 'text') {
      if (c === ']') this.phase = 'paren';
      else if (c === '\n' || c === '[' || this.text.length >= MAX_LINK_TEXT) return 'failed';
      else this.text += c;
      return 'held';
    }
    if (this.phase === 'paren') {
      if (c !== '(') return 'failed';
      this.phase = 'url';
      return 'held';
    }
    if (c === ')' && this.url !== '') return 'done';
    if (isSpace(c) || this.url.length >= MAX_LINK_URL) return 'failed';
    this.url += c;
    return 'held';
  }

  /** What was held after the `[`, as written. */
  held(): string {
    return this.text + (this.phase === 'text' ? '' : ']') + (this.phase === 'url' ? `(${this.url}` : '');
  }

  /** The link styled: an OSC 8 hyperlink, or its text with the URL after it. */
  print(hyperlinks: boolean): string {
    const label = this.text || this.url;
    if (hyperlinks) return `${SGR.linkOn}\x1b]8;;${this.url}\x1b\\${label}\x1b]8;;\x1b\\${SGR.linkOff}`;
    const after = this.url !== label ? ` ${SGR.dimOn}(${this.url})${SGR.dimOff}` : '';
    return `${SGR.linkOn}${label}${SGR.linkOff}${after}`;
  }
}
