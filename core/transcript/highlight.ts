import type { Highlighter } from './markdown-stream.js';

// highlight.js scopes → SGR foreground colours (or dim). Scopes not listed keep the default colour.
const SCOPE_STYLES: Record<string, string> = {
  keyword: '35',
  'selector-tag': '35',
  literal: '35',
  built_in: '36',
  type: '36',
  'title.class': '36',
  string: '32',
  regexp: '32',
  addition: '32',
  number: '33',
  symbol: '33',
  attr: '33',
  'template-variable': '33',
  title: '34',
  'title.function': '34',
  section: '34',
  deletion: '31',
  comment: '2',
  quote: '2',
  meta: '2',
};

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#x27;': "'",
};

/**
 * Loads highlight.js (its common languages) on first use and returns a highlighter for code lines. Unknown
 * languages come back undefined (the line is printed as it is).
 */
export async function loadHighlighter(): Promise<Highlighter> {
  const { default: hljs } = await import('highlight.js/lib/common');
  return (line, language) => {
    if (!hljs.getLanguage(language)) return undefined;
    try {
      return htmlToSgr(hljs.highlight(line, { language, ignoreIllegals: true }).value);
    } catch {
      return undefined;
    }
  };
}

/**
 * highlight.js's output (`<span class="hljs-…">`, entities) as text with SGR colours. A closing span restores the
 * enclosing colour; the reset is left out when another colour follows at once (fewer bytes for the terminal).
 */
export function htmlToSgr(html: string): string {
  const stack: string[] = [];
  let out = '';
  let resetDue = false;
  let at = 0;
  for (const m of html.matchAll(/<span class="([^"]*)">|<\/span>|&(?:amp|lt|gt|quot|#x27);/g)) {
    const token = m[0];
    const text = html.slice(at, m.index) + (token.startsWith('&') ? (ENTITIES[token] ?? token) : '');
    at = m.index + token.length;
    if (text !== '') {
      if (resetDue) out += restore(stack);
      resetDue = false;
      out += text;
    }
    if (token.startsWith('&')) continue;
    if (token === '</span>') {
      if (stack.pop()) resetDue = true;
      continue;
    }
    const scope =
      m[1]
        ?.split(' ')[0]
        ?.replace(/^hljs-/, '')
        .replace(/_$/, '') ?? '';
    const code = SCOPE_STYLES[scope] ?? SCOPE_STYLES[scope.split('.')[0] ?? ''] ?? '';
    stack.push(code);
    if (code) {
      out += `${resetDue ? '\x1b[22;39m' : ''}\x1b[${code}m`;
      resetDue = false;
    }
  }
  const rest = html.slice(at);
  if (rest !== '' && resetDue) out += restore(stack);
  else if (resetDue) out += '\x1b[22;39m';
  return out + rest;
}

/** Back to the colours of the spans still open. */
function restore(stack: readonly string[]): string {
  return `\x1b[22;39m${stack
    .filter(Boolean)
    .map((c) => `\x1b[${c}m`)
    .join('')}`;
}
