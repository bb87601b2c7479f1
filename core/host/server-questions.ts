import { fieldChoices, fieldPrompt, readFieldAnswer, shownValue } from '../mcp/form-fields.js';
import type { ElicitationAnswer, ElicitationRequest, FieldValue, FormField } from '../types/elicitation.js';
import { addressLines, pageAddress } from '../text/page-address.js';
import { approvalText } from '../text/inert-text.js';

/** Asked before a server's page is opened: nothing is opened or fetched without the user's yes. */
export const OPEN_PAGE_QUESTION = 'Open this page in your browser? (Y/N): ';
/** Asked once the page is open (or, where hac cannot open it, shown to be opened by hand). */
export const PAGE_DONE_QUESTION = 'Press Enter once you are done on that page (n declines): ';
const ANSWER_Y_OR_N = 'Please answer with Y or N.';

/** Thrown by `ask` when the user pressed Escape: the server is told no. */
export class Declined extends Error {
  constructor() {
    super('declined');
  }
}

/** What the terminal dialogue needs from its controller: a line to show, and one question at a time. */
export interface FieldDialogue {
  say(text: string): void;
  /** Asks one line; rejects with `Declined` on Escape, with anything else on Ctrl+C (cancel). */
  ask(text: string, field?: FormField): Promise<string>;
  /** Opens an address in the user's browser: only ever after the user said yes to it. */
  open(url: string): void;
}

/**
 * A server's question asked in a terminal: a form one field at a time (each answer checked against its type and
 * asked again when it does not fit; an empty answer takes the default, and declines on a required field without
 * one), or a page to open and a confirmation once done. Escape declines, Ctrl+C cancels.
 */
export async function askInTerminal(
  request: ElicitationRequest,
  dialogue: FieldDialogue,
): Promise<ElicitationAnswer> {
  try {
    if (request.mode === 'url') {
      const address = pageAddress(request.url);
      for (; address.openable;) {
        const reply = (await dialogue.ask(OPEN_PAGE_QUESTION)).trim();
        if (/^no?$/i.test(reply)) return { action: 'decline' };
        if (/^y(es)?$/i.test(reply)) {
          dialogue.open(address.href);
          break;
        }
        dialogue.say(ANSWER_Y_OR_N);
      }
      const reply = await dialogue.ask(PAGE_DONE_QUESTION);
      return /^no?$/i.test(reply.trim()) ? { action: 'decline' } : { action: 'accept' };
    }
    const content: Record<string, FieldValue> = {};
    for (const field of request.fields) {
      if (field.description) dialogue.say(field.description);
      const choices = fieldChoices(field);
      if (choices.length) dialogue.say(choices.map((c, i) => `  ${i + 1}) ${c}`).join('\n'));
      for (;;) {
        const read = readFieldAnswer(field, await dialogue.ask(fieldPrompt(field), field));
        if ('missing' in read) return { action: 'decline' };
        if ('error' in read) {
          dialogue.say(read.error);
          continue;
        }
        if (read.value !== undefined) content[field.name] = read.value;
        break;
      }
    }
    return { action: 'accept', content };
  } catch (error) {
    return error instanceof Declined ? { action: 'decline' } : { action: 'cancel' };
  }
}

/**
 * Who asks and why, before a server's form or page. A page's whole address is on a line of its own (to read before
 * saying yes, or to copy), its host on the next, and a Punycode host is warned about.
 */
export function askedLine(server: string, request: ElicitationRequest): string {
  const who = approvalText(server);
  if (request.mode === 'url') {
    const lines = addressLines(pageAddress(request.url)).map((line) => `  ${line}`);
    return [`MCP server "${who}" asks you to open a page: ${request.message}`, ...lines].join('\n');
  }
  return `MCP server "${who}" asks: ${request.message}`;
}

/** One line saying what the server was told: the values sent (secrets hidden), or no. */
export function answerLine(server: string, request: ElicitationRequest, answer: ElicitationAnswer): string {
  if (answer.action === 'decline') return `Declined what MCP server "${server}" asked.`;
  if (answer.action === 'cancel') return `Cancelled what MCP server "${server}" asked.`;
  if (request.mode === 'url') return `Told MCP server "${server}" the page is done.`;
  const sent = request.fields
    .filter((f) => answer.content?.[f.name] !== undefined)
    .map((f) => `${f.label}: ${shownValue(f, answer.content![f.name]!)}`);
  return `Sent to MCP server "${server}": ${sent.join(', ') || '(nothing)'}.`;
}

/** The line a run with nobody to ask (`hac -p`) shows instead of the question. */
export function unattendedLine(server: string, request: ElicitationRequest): string {
  const what = request.mode === 'url' ? 'to open a page' : 'for input';
  return `MCP server "${server}" asked ${what}; declined: nobody can answer in a one-shot run.`;
}
