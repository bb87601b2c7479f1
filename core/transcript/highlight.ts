import type { ShjLanguageData, ShjToken } from '@speed-highlight/core/tokenize';
import type { TokenStream } from 'prismjs';
import type { Highlighter } from './markdown-stream.js';

const DIM = '2';

// Prism token types (or their aliases) → SGR foreground colours (or dim). Types not listed keep the colour around.
const TOKEN_STYLES: Record<string, string> = {
  keyword: '35',
  boolean: '35',
  atrule: '35',
  important: '35',
  selector: '35',
  tag: '35',
  builtin: '36',
  'class-name': '36',
  string: '32',
  char: '32',
  regex: '32',
  'attr-value': '32',
  inserted: '32',
  url: '32',
  number: '33',
  constant: '33',
  symbol: '33',
  'attr-name': '33',
  property: '33',
  variable: '33',
  function: '34',
  title: '34',
  deleted: '31',
  comment: DIM,
  prolog: DIM,
  doctype: DIM,
  cdata: DIM,
};

// Names people write after ``` that Prism knows by another name.
const ALIASES: Record<string, string> = {
  console: 'bash',
  zsh: 'bash',
  'c++': 'cpp',
  cs: 'csharp',
  'c#': 'csharp',
  golang: 'go',
  jsonc: 'json',
  dockerfile: 'docker',
  rs: 'rust',
  rb: 'ruby',
  kt: 'kotlin',
  ps1: 'powershell',
  objc: 'objectivec',
};

// speed-highlight's token types → the same colours.
const SHJ_STYLES: Partial<Record<ShjToken, string>> = {
  kwd: '35',
  bool: '35',
  class: '36',
  type: '36',
  str: '32',
  insert: '32',
  num: '33',
  var: '33',
  func: '34',
  section: '34',
  deleted: '31',
  err: '31',
  cmnt: DIM,
};

// Names people write after ``` for the languages speed-highlight knows under another name.
const SHJ_NAMES: Record<string, string> = {
  sh: 'bash',
  shell: 'bash',
  zsh: 'bash',
  console: 'bash',
  python: 'py',
  javascript: 'js',
  typescript: 'ts',
  rust: 'rs',
  perl: 'pl',
  makefile: 'make',
  markdown: 'md',
  dockerfile: 'docker',
};

/**
 * Loads the highlighters and returns one for code lines; unknown languages come back undefined (the line is
 * printed as it is). speed-highlight takes the languages it knows (those models write most): it tokenizes in
 * one pass and costs about half of Prism's time (bench/markdown.mjs); Prism takes the others (C#, C++, PHP,
 * Ruby, Swift, Kotlin...).
 */
export async function loadHighlighter(): Promise<Highlighter> {
  const [{ default: Prism }, { tokenizeWith }, shj] = await Promise.all([
    import('./prism-languages.js'),
    import('@speed-highlight/core/tokenize'),
    import('@speed-highlight/core/languages'),
  ]);
  const languages = shj as unknown as Record<string, ShjLanguageData>;
  return (code, language) => {
    const name = language.toLowerCase();
    const fast = languages[SHJ_NAMES[name] ?? name];
    try {
      if (fast) {
        const painter = new SgrPainter();
        tokenizeWith(code, fast, (text, type) => painter.text(text, (type && SHJ_STYLES[type]) ?? ''), {
          languages,
        });
        return painter.end();
      }
      const grammar = Prism.languages[ALIASES[name] ?? name];
      if (!grammar || typeof grammar !== 'object') return undefined;
      return tokensToSgr(Prism.tokenize(code, grammar));
    } catch {
      return undefined;
    }
  };
}

/**
 * Text with SGR colours: a code is written only where the colour changes, and no colour runs past the end of a
 * line.
 */
class SgrPainter {
  private out = '';
  private current = '';

  text(text: string, colour: string): void {
    for (let at = 0; at < text.length;) {
      const newline = text.indexOf('\n', at);
      const end = newline === -1 ? text.length : newline;
      if (end > at) {
        this.paint(colour);
        this.out += text.slice(at, end);
      }
      if (newline === -1) break;
      this.paint('');
      this.out += '\n';
      at = newline + 1;
    }
  }

  end(): string {
    this.paint('');
    return this.out;
  }

  private paint(colour: string): void {
    if (colour === this.current) return;
    // Only what changes: a new foreground replaces the old one; dim (2) has its own off code (22).
    const current = this.current;
    const off = current === DIM ? '22' : current && (colour === '' || colour === DIM) ? '39' : '';
    this.out += `\x1b[${off && colour ? `${off};${colour}` : off || colour}m`;
    this.current = colour;
  }
}

/** Prism's tokens as text with SGR colours: each piece of text takes the colour of the innermost styled token. */
export function tokensToSgr(tokens: TokenStream): string {
  const painter = new SgrPainter();
  const walk = (stream: TokenStream, colour: string): void => {
    if (typeof stream === 'string') painter.text(stream, colour);
    else if (Array.isArray(stream)) for (const token of stream) walk(token, colour);
    else walk(stream.content, styleOf(stream.type, stream.alias) ?? colour);
  };
  walk(tokens, '');
  return painter.end();
}

function styleOf(type: string, alias: string | string[] | undefined): string | undefined {
  const style = TOKEN_STYLES[type];
  if (style !== undefined) return style;
  for (const name of typeof alias === 'string' ? [alias] : (alias ?? [])) {
    if (TOKEN_STYLES[name] !== undefined) return TOKEN_STYLES[name];
  }
  return undefined;
}
