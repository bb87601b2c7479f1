/**
 * Pasted text made into text only: escape sequences (a coloured log's `\x1b[31m`, an arrow key's `\x1b[A`, an
 * OSC title or clipboard write) are removed whole, other control characters (Ctrl+C's 0x03, Ctrl+U's 0x15,
 * Backspace's 0x7f, C1) are dropped, line breaks (`\r\n`, `\r`, `\n`) become `\n`, tabs stay. Fed piece by piece,
 * as a paste arrives: a sequence split across two pieces is still removed whole.
 */
export class PastedText {
  private state: 'text' | 'escape' | 'csi' | 'string' | 'string-escape' = 'text';
  private lastWasCR = false;

  /** The text of the next piece of a paste. */
  push(piece: string): string {
    let out = '';
    for (const c of piece) out += this.next(c);
    return out;
  }

  /** The paste ended: an escape sequence it left open is dropped, and the next paste starts afresh. */
  end(): void {
    this.state = 'text';
    this.lastWasCR = false;
  }

  private next(c: string): string {
    const code = c.codePointAt(0)!;
    switch (this.state) {
      case 'escape':
        if (c === '[') return this.to('csi');
        if (c === ']' || c === 'P' || c === 'X' || c === '^' || c === '_') return this.to('string');
        if (code >= 0x20 && code <= 0x2f) return ''; // an intermediate byte: the final one follows
        if (code >= 0x30 && code <= 0x7e) return this.to('text'); // a two-character sequence ends here
        break; // anything else ends the sequence and is read as text
      case 'csi':
        if (code >= 0x20 && code <= 0x3f) return ''; // parameters and intermediates
        if (code >= 0x40 && code <= 0x7e) return this.to('text');
        break;
      case 'string': // OSC, DCS, SOS, PM, APC: up to BEL or ST; a line break ends one left open, so text after
        if (code === 0x07 || code === 0x9c) return this.to('text'); // it is never swallowed
        if (code === 0x1b) return this.to('string-escape');
        if (c !== '\n' && c !== '\r') return '';
        break;
      case 'string-escape':
        if (c === '\\') return this.to('text');
        if (c !== '\n' && c !== '\r') return this.to('string');
        break;
    }
    this.state = 'text';
    return this.text(c, code);
  }

  private text(c: string, code: number): string {
    const afterCR = this.lastWasCR;
    this.lastWasCR = c === '\r';
    if (c === '\r') return '\n';
    if (c === '\n') return afterCR ? '' : '\n';
    if (c === '\t') return c;
    if (code === 0x1b) return this.to('escape');
    if (code === 0x9b) return this.to('csi');
    if (code === 0x90 || code === 0x98 || code === 0x9d || code === 0x9e || code === 0x9f)
      return this.to('string');
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return '';
    return c;
  }

  private to(state: PastedText['state']): string {
    this.state = state;
    return '';
  }
}

/** A paste longer than this is shown folded in the prompt and the transcript, and sent whole. */
export const FOLDED_PASTE_CHARS = 2_000;

/** `2,543 lines, 200 KB`: how big a text is, as a folded paste says it. */
export function pasteSize(text: string): string {
  const lines = text.split('\n').length;
  const kb = Math.max(1, Math.round(new TextEncoder().encode(text).length / 1024));
  return `${lines.toLocaleString('en-US')} line${lines === 1 ? '' : 's'}, ${kb.toLocaleString('en-US')} KB`;
}

/** A long text as one line: its start, then how much more there is (the transcript's echo of a long message). */
export function foldedText(text: string): string {
  if (text.length <= FOLDED_PASTE_CHARS) return text;
  const start = (text.split('\n')[0] ?? '').slice(0, 120);
  return `${start}… [Pasted text: ${pasteSize(text)}]`;
}

/**
 * Long pastes kept out of the line being edited: each stands there as `[Pasted text: 2,543 lines, 200 KB]` (a
 * second paste of the same size as `[Pasted text #2: …]`), and the line is expanded back to the whole text when it
 * is sent.
 */
export class PasteFolds {
  private readonly texts = new Map<string, string>();

  /** The text itself when short; else the placeholder that stands for it. */
  fold(text: string): string {
    if (text.length <= FOLDED_PASTE_CHARS) return text;
    let placeholder = `[Pasted text: ${pasteSize(text)}]`;
    for (let n = 2; this.texts.has(placeholder) && this.texts.get(placeholder) !== text; n++)
      placeholder = `[Pasted text #${n}: ${pasteSize(text)}]`;
    this.texts.set(placeholder, text);
    return placeholder;
  }

  /** The line with every placeholder of this run replaced by its text. */
  expand(line: string): string {
    if (!this.texts.size || !line.includes('[Pasted text')) return line;
    return line.replace(
      /\[Pasted text(?: #\d+)?: [^\]]*\]/g,
      (placeholder) => this.texts.get(placeholder) ?? placeholder,
    );
  }
}
