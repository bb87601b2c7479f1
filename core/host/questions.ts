import { CONFIRM_QUESTION } from '../transcript/transcript.js';
import type { Reply } from '../engine/event-channel.js';
import type { SecretRegistry } from '../logging/secrets.js';
import { checkForm } from '../mcp/form-fields.js';
import type { HostEvent, InterruptResult, PromptKind } from '../types/host-event.js';
import type { ElicitationAnswer, ElicitationRequest, FormField } from '../types/elicitation.js';
import type { FormReply } from './bridge.js';
import type { EngineQuestion } from './run-turn.js';
import { pageAddress, type PageAddress } from '../text/page-address.js';
import { answerLine, askedLine, askInTerminal, Declined, unattendedLine } from './server-questions.js';

/** The prompt before a reply to the model's `ask_user` question. */
export const ASK_PROMPT = '> ';

/** Shown when a line is typed while a window's form waits for its own buttons. */
const FORM_WAITING = 'Fill in the form above and press Submit, or Decline (Esc declines too).';

interface PendingQuestion {
  kind: PromptKind;
  resolve(reply: string): void;
  reject(reason: Error): void;
  /** The field being answered (what a server asks): a secret is masked before it is echoed. */
  field?: FormField;
  /** A window's whole form: its answer comes through `answerForm`. */
  form?: {
    /** What the window was shown, to check the answers against and send back with their errors. */
    shown: Omit<Extract<HostEvent, { type: 'form' }>, 'type' | 'errors'>;
    resolve(answer: ElicitationAnswer): void;
  };
}

export interface QuestionOptions {
  /** Nobody is there to answer: tool calls approved only with `approveTools`, everything else unanswered. */
  unattended?: { approveTools: boolean };
  /** What an MCP server asks is shown as one form (a window), not asked one field at a time (a terminal). */
  wholeForms?: boolean;
}

/**
 * The one question a conversation may be waiting on (a Y/N before a tool call, the model's question, a
 * command's choice, what an MCP server asks) and how each way of answering settles it: a typed line, a window's
 * form, Escape, Ctrl+C.
 */
export class Questions {
  private pending: PendingQuestion | undefined;

  constructor(
    private readonly emit: (event: HostEvent) => void,
    private readonly secrets: SecretRegistry,
    private readonly options: QuestionOptions,
  ) {}

  /** What is being asked, if anything. */
  get kind(): PromptKind | undefined {
    return this.pending?.kind;
  }

  /** Asks one line; resolves with the reply, rejects when the question is cancelled. */
  ask(kind: PromptKind, text: string, choices?: string[], field?: FormField): Promise<string> {
    const unattended = this.options.unattended;
    if (unattended) {
      // Nobody to ask: approve or decline a tool call as told, leave the rest unanswered.
      if (kind === 'confirm') return Promise.resolve(unattended.approveTools ? 'y' : 'n');
      return kind === 'ask' ? Promise.resolve('') : Promise.reject(new Error('cancelled'));
    }
    return new Promise((resolve, reject) => {
      this.pending = { kind, resolve, reject, ...(field && { field }) };
      this.emit({
        type: 'prompt',
        kind,
        text,
        ...(choices?.length ? { choices } : {}),
        ...(field?.sensitive ? { secret: true as const } : {}),
      });
    });
  }

  /** A typed line, when something is being asked: it is the reply. False when nothing is asked. */
  reply(text: string): boolean {
    const question = this.pending;
    if (!question) return false;
    if (question.form) {
      this.emit({ type: 'busy', text: FORM_WAITING });
      return true;
    }
    this.pending = undefined;
    // A secret typed into a server's form is masked from its echo on.
    if (question.field?.sensitive && text.trim()) this.secrets.add([text.trim()]);
    this.emit({ type: 'input', text, reply: true });
    question.resolve(text);
    return true;
  }

  /**
   * A window's answer to a server's form: the values as its inputs hold them, or decline / cancel. Values that do
   * not fit their fields send the form back with what is wrong; true when the question was settled.
   */
  answerForm(answer: FormReply, cancel: () => boolean): boolean {
    const form = this.pending?.form;
    // A page confirmation or a field asked on the prompt line: Decline and Cancel still mean what they say.
    if (!form && answer.action === 'decline') return this.escape();
    if (!form && answer.action === 'cancel') return this.pending?.kind === 'field' && cancel();
    if (!form) return false;
    let given: ElicitationAnswer = { action: answer.action === 'accept' ? 'cancel' : answer.action };
    if (answer.action === 'accept') {
      const checked = checkForm(form.shown.fields, answer.values);
      if ('errors' in checked) {
        this.emit({ type: 'form', ...form.shown, errors: checked.errors });
        return false;
      }
      given = form.shown.url ? { action: 'accept' } : { action: 'accept', content: checked.content };
    }
    this.pending = undefined;
    this.emit({ type: 'prompt-withdrawn' });
    form.resolve(given);
    return true;
  }

  /** Escape: declines what an MCP server asks (a field or a form); anything else is left as it is. */
  escape(): boolean {
    const question = this.pending;
    if (question?.kind !== 'field' && question?.kind !== 'form') return false;
    this.pending = undefined;
    this.emit({ type: 'prompt-withdrawn' });
    if (question.form) question.form.resolve({ action: 'decline' });
    else question.reject(new Declined());
    return true;
  }

  /**
   * Ctrl+C's part here: a Y/N is answered no, a command's or a server's question is cancelled. The model's
   * question during a turn is withdrawn and left to the turn's cancel (undefined: the turn should be cancelled).
   */
  withdraw(turnRunning: boolean): InterruptResult | undefined {
    const question = this.pending;
    this.pending = undefined;
    if (!question) return undefined;
    this.emit({ type: 'prompt-withdrawn' });
    if (question.kind === 'confirm') {
      question.resolve('n');
      return 'answered-no';
    }
    if (question.form) {
      question.form.resolve({ action: 'cancel' });
      return 'question-cancelled';
    }
    question.reject(new Error('cancelled'));
    return question.kind !== 'ask' || !turnRunning ? 'question-cancelled' : undefined;
  }

  /** The engine's questions during a turn: Y/N before a tool call, what a server asks, the model's question. */
  askEngine(event: EngineQuestion): Promise<Reply> {
    if (event.type === 'confirmation-request') return this.ask('confirm', CONFIRM_QUESTION);
    if (event.type === 'elicitation') return this.askServer(event.server, event.request);
    return this.ask('ask', ASK_PROMPT, event.options);
  }

  /**
   * What an MCP server asks while a request of ours runs (a tool call, a prompt, a resource): a person answers,
   * never the model. A window gets the whole form; a terminal is asked field by field; with nobody there
   * (`hac -p`) the server is told no, in one line.
   */
  async askServer(server: string, request: ElicitationRequest): Promise<ElicitationAnswer> {
    if (this.options.unattended) {
      this.emit({ type: 'notice', level: 'warn', text: unattendedLine(server, request) });
      return { action: 'decline' };
    }
    this.emit({ type: 'notice', level: 'info', text: askedLine(server, request) });
    const { message } = request;
    const answer = !this.options.wholeForms
      ? await askInTerminal(request, {
          say: (text) => this.emit({ type: 'notice', level: 'info', text }),
          open: (url) => this.emit({ type: 'open-link', url }),
          ask: (text, field) =>
            this.ask(
              'field',
              text,
              field?.options?.map((o) => o.label),
              field,
            ),
        })
      : request.mode === 'form'
        ? await this.showForm({ server, message, fields: request.fields })
        : await this.showPage(server, message, pageAddress(request.url));
    this.emit({ type: 'notice', level: 'dim', text: answerLine(server, request, answer) });
    return answer;
  }

  /** A window's page to open: its buttons open it on the user's word (Open), then say it is done (Done). */
  private showPage(server: string, message: string, address: PageAddress): Promise<ElicitationAnswer> {
    const { href, host, warning, openable } = address;
    return this.showForm({
      server,
      message,
      fields: [],
      url: href,
      page: { host, ...(warning && { warning }), openable },
    });
  }

  private showForm(shown: NonNullable<PendingQuestion['form']>['shown']): Promise<ElicitationAnswer> {
    return new Promise((resolve) => {
      const nothing = () => undefined;
      this.pending = { kind: 'form', resolve: nothing, reject: nothing, form: { shown, resolve } };
      this.emit({ type: 'form', ...shown });
    });
  }
}
