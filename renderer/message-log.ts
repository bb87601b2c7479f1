import { PLAIN_STYLES, TranscriptRenderer, type HostEvent } from './core-types.js';
import { answerHtml } from './answer-html.js';
import { LABELS } from './labels.js';

/** Messages kept for a screen reader: the transcript's scrollback holds about as many. */
const KEPT = 400;
/**
 * Characters of one message given to a screen reader. The browser lays out what the log holds even unseen (a 1 MB
 * answer cost three seconds; content it skips leaves the accessibility tree too), and nobody listens to a book.
 */
const MESSAGE_CHARS = 20_000;

/** What the transcript prints besides the answers, said to a reader in the same words: label by event. */
const SAID: Partial<Record<HostEvent['type'], string>> = {
  'tool-call': LABELS.toolCall,
  prompt: LABELS.question,
  question: LABELS.question,
  'command-output': LABELS.output,
  notice: LABELS.notice,
  'tool-skipped': LABELS.notice,
  retry: LABELS.notice,
  'context-trimmed': LABELS.notice,
  busy: LABELS.notice,
  'mcp-status': LABELS.notice,
  view: LABELS.notice,
  fatal: LABELS.error,
};

/** Events besides those said that end the answer so far (status updates and the like do not). */
const ENDS_ANSWER = new Set<HostEvent['type']>([
  'thinking-start',
  'tool-result',
  'error',
  'input',
  'turn-end',
]);

/**
 * What a screen reader reads of the conversation. xterm's rows are a grid of 80-column fragments, hidden from
 * assistive technology, so each finished message is also written here as text: one article per message, labelled
 * (you, the answer, the model's thinking, a tool's call and result, a question, a command's output, a notice, an
 * error), one paragraph a line, which a reader walks with its usual keys. The list is a log, a polite live region:
 * an answer is announced once it is complete, never token by token.
 */
export function createMessageLog(element: HTMLElement) {
  let answer = '';
  let thinking = '';
  /** The transcript's own words for everything but the answers, without colours. */
  const words = new TranscriptRenderer(PLAIN_STYLES);
  /** A message as an article: an answer as structured HTML (headings, lists, tables, code), the rest a line each. */
  const add = (label: string, text: string, asMarkdown = false) => {
    const whole = text.trim();
    if (!whole) return;
    const rest = whole.length - MESSAGE_CHARS;
    const said = rest > 0 ? `${whole.slice(0, MESSAGE_CHARS)} … ${LABELS.moreCharacters(rest)}` : whole;
    const article = document.createElement('article');
    article.setAttribute('aria-label', label);
    if (asMarkdown) article.innerHTML = answerHtml(said);
    else
      for (const line of said.split('\n')) {
        const paragraph = document.createElement('p');
        paragraph.textContent = line;
        article.append(paragraph);
      }
    element.append(article);
    while (element.childElementCount > KEPT) element.firstElementChild?.remove();
  };
  const react = (event: HostEvent) => {
    // The answer so far is a message of its own once anything else is said (a tool call after it, a cancel).
    const label = SAID[event.type];
    if (answer && (label || ENDS_ANSWER.has(event.type))) {
      add(LABELS.answer, answer, true);
      answer = '';
    }
    if (label) return add(label, words.render(event));
    switch (event.type) {
      case 'input':
        if (!event.reply) add(LABELS.you, event.text);
        return;
      case 'thinking-delta':
        thinking += event.text;
        return;
      case 'thinking-end':
        add(LABELS.thinking, thinking);
        thinking = '';
        return;
      case 'text-delta':
        answer += event.text;
        return;
      case 'tool-result':
        add(LABELS.toolResult, event.summary);
        return;
      case 'error':
        add(LABELS.error, event.message);
        return;
    }
  };
  return {
    /** Follows the conversation; a replay (a reload, a resume) rebuilds the log without announcing it all again. */
    show(events: readonly HostEvent[], replay = false) {
      if (replay) {
        element.setAttribute('aria-live', 'off');
        element.replaceChildren();
        answer = '';
        thinking = '';
      }
      for (const event of events) react(event);
      if (replay) requestAnimationFrame(() => element.setAttribute('aria-live', 'polite'));
    },
  };
}
