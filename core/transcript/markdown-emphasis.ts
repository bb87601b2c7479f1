import { asciiSet } from '../text/ascii-set.js';

export type Emphasis = 'bold' | 'italic' | 'strike';

export function isSpace(c: string): boolean {
  return c === '' || c === ' ' || c === '\t' || c === '\n' || c === '\r';
}

function isPunctuation(c: string): boolean {
  const code = c.charCodeAt(0);
  if (code < 128) return ASCII_PUNCTUATION[code] === 1;
  return /[\p{P}\p{S}]/u.test(c);
}

function isAsciiWordChar(c: string): boolean {
  return /[A-Za-z0-9]/.test(c);
}

/** The styles a run of `*`, `_` or `~` stands for: none for a single `~` or a longer run of them. */
export function runStyles(run: string): Emphasis[] {
  if (run.charAt(0) === '~') return run.length === 2 ? ['strike'] : [];
  return run.length === 1 ? ['italic'] : run.length === 2 ? ['bold'] : ['bold', 'italic'];
}

/**
 * Whether a run of markers between `prev` and `next` ('' at a line's ends) may open or close its styles: CommonMark's
 * flanking rules, except that `*` and `~` between two ASCII letters or digits stay as written (`2*3*4`), which
 * CommonMark would not, while CJK text, written without spaces, still gets its emphasis.
 */
export function flanking(run: string, prev: string, next: string): { canOpen: boolean; canClose: boolean } {
  const left = !isSpace(next) && (!isPunctuation(next) || isSpace(prev) || isPunctuation(prev));
  const right = !isSpace(prev) && (!isPunctuation(prev) || isSpace(next) || isPunctuation(next));
  const underscore = run.charAt(0) === '_';
  return {
    canOpen:
      left &&
      (underscore ? !right || isPunctuation(prev) : !(isAsciiWordChar(prev) && isAsciiWordChar(next))),
    canClose: right && (!underscore || !left || isPunctuation(next)),
  };
}

const ASCII_PUNCTUATION = asciiSet('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');
