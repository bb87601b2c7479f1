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

/**
 * Loads Prism (the languages in prism-languages.ts) on first use and returns a highlighter for code lines.
 * Unknown languages come back undefined (the line is printed as it is).
 */
export async function loadHighlighter(): Promise<Highlighter> {
  const { default: Prism } = await import('./prism-languages.js');
  return (code, language) => {
    const name = language.toLowerCase();
    const grammar = Prism.languages[ALIASES[name] ?? name];
    if (!grammar || typeof grammar !== 'object') return undefined;
    try {
      return tokensToSgr(Prism.tokenize(code, grammar));
    } catch {
      return undefined;
    }
  };
}

/**
 * Prism's tokens as text with SGR colours: each piece of text takes the colour of the innermost styled token
 * around it, a code is written only where the colour changes, and no colour runs past the end of a line.
 */
export function tokensToSgr(tokens: TokenStream): string {
  let out = '';
  let current = '';
  const paint = (colour: string): void => {
    if (colour === current) return;
    // Only what changes: a new foreground replaces the old one; dim (2) has its own off code (22).
    const off = current === DIM ? '22' : current && (colour === '' || colour === DIM) ? '39' : '';
    out += `\x1b[${[off, colour].filter(Boolean).join(';')}m`;
    current = colour;
  };
  const walk = (stream: TokenStream, colour: string): void => {
    if (typeof stream === 'string') {
      for (let at = 0; at < stream.length;) {
        const newline = stream.indexOf('\n', at);
        const end = newline === -1 ? stream.length : newline;
        if (end > at) {
          paint(colour);
          out += stream.slice(at, end);
        }
        if (newline === -1) break;
        paint('');
        out += '\n';
        at = newline + 1;
      }
    } else if (Array.isArray(stream)) {
      for (const token of stream) walk(token, colour);
    } else {
      walk(stream.content, styleOf(stream.type, stream.alias) ?? colour);
    }
  };
  walk(tokens, '');
  paint('');
  return out;
}

function styleOf(type: string, alias: string | string[] | undefined): string | undefined {
  const style = TOKEN_STYLES[type];
  if (style !== undefined) return style;
  for (const name of typeof alias === 'string' ? [alias] : (alias ?? [])) {
    if (TOKEN_STYLES[name] !== undefined) return TOKEN_STYLES[name];
  }
  return undefined;
}
