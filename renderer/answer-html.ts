import { Marked, type Tokens } from 'marked';
import { inertControls } from './core-types.js';
import { LABELS } from './labels.js';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** Addresses a link in the log may go to: the web and mail, never a script or a file of this machine. */
const SAFE_LINK = /^(https?:|mailto:)/i;

/**
 * An answer's Markdown as HTML for the message log, so a screen reader can move through it by heading, list and
 * table cell as it does on a web page, rather than hear `#`, `|` and backticks read out. The answer is untrusted:
 * raw HTML in it is shown as text, a picture as its description, a link only to the web or mail; control
 * characters and bidirectional overrides are named as the transcript names them (`\x1b[2J`).
 */
const markdown = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html: ({ text }: Tokens.HTML | Tokens.Tag) => escapeHtml(text),
    image: ({ text }: Tokens.Image) => escapeHtml(text),
    link(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token: Tokens.Link) {
      const text = this.parser.parseInline(token.tokens);
      return SAFE_LINK.test(token.href)
        ? `<a href="${escapeHtml(token.href)}" target="_blank" rel="noopener noreferrer">${text}</a>`
        : text;
    },
    code: ({ text, lang }: Tokens.Code) =>
      `<figure role="group" aria-label="${escapeHtml(LABELS.codeBlock(lang?.split(/\s/)[0] ?? ''))}"><pre><code>${escapeHtml(text)}</code></pre></figure>`,
  },
});

export function answerHtml(answer: string): string {
  // The line breaks marked puts between blocks would be read as text of their own.
  return (markdown.parse(inertControls(answer)) as string).replace(/>\n+</g, '><').trim();
}
