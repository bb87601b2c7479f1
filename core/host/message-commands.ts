import type { ModelConfig } from '../config/load-config.js';
import { short } from '../commands/conversation-commands.js';
import type { Elicit } from '../mcp/index.js';
import type { HostEvent } from '../types/host-event.js';
import type { MessageImage } from '../types/message.js';
import { parsePromptCommand, PROMPT_USAGE } from './mcp-extras.js';
import type { AttachedImages, NamedImage } from './message-parts.js';
import type { Questions } from './questions.js';
import type { TurnOutcome } from './run-turn.js';
import type { Chat, Runtime } from './runtime.js';

/** What goes with a message besides its text. */
export interface MessageExtras {
  /** Pictures in base64 from an MCP prompt, prepared like any other. */
  given?: NamedImage[];
  /** Pictures already prepared (a retried message's). */
  images?: MessageImage[];
  /** Another configured model for this turn only. */
  model?: ModelConfig;
}

/** The parts of a conversation its commands and dialogues work with. */
export interface ChatParts {
  runtime: Runtime;
  chat: Chat;
  questions: Questions;
  attached: AttachedImages;
  emit: (event: HostEvent) => void;
  message: (text: string, extras?: MessageExtras) => Promise<TurnOutcome>;
  /** Runs work that Ctrl+C cancels like a turn. */
  cancellable: <T>(run: (signal: AbortSignal) => Promise<T>) => Promise<T>;
  elicitFor: (server: string) => Elicit;
  /** What a view (MCP Apps) wants the model to know: it goes with the next message (the newest per view). */
  tellModel: (view: string, text: string) => void;
}

const say = (host: ChatParts, line: string) => host.emit({ type: 'command-output', lines: [line] });

/**
 * `/prompt server:name [arg=value …]`: asks for the required arguments not given (with the server's
 * suggestions where it has them), then sends the prompt's messages as if typed.
 */
export async function usePrompt(host: ChatParts, arg: string): Promise<TurnOutcome | undefined> {
  const pool = await host.runtime.mcpReady();
  const parsed = parsePromptCommand(arg, pool);
  if (!pool || 'error' in parsed) return void say(host, 'error' in parsed ? parsed.error : PROMPT_USAGE);
  const { prompt, args } = parsed;
  for (const argument of prompt.arguments.filter((a) => a.required && !(a.name in args))) {
    const value = { name: argument.name, value: '' };
    const suggestions = (await pool.completePrompt(prompt.server, prompt.name, value, args)).slice(0, 10);
    if (suggestions.length)
      host.emit({ type: 'command-output', lines: suggestions.map((s, i) => `  ${i + 1}) ${s}`) });
    const about = argument.description ? ` (${argument.description})` : '';
    const question = `${argument.name}${about}: `;
    const reply = (await host.questions.ask('ask', question, suggestions).catch(() => '')).trim();
    if (!reply) return void say(host, 'Prompt not sent.');
    args[argument.name] = /^\d+$/.test(reply) ? (suggestions[Number(reply) - 1] ?? reply) : reply;
  }
  const elicit = host.elicitFor(prompt.server);
  const content = await host.cancellable((signal) =>
    pool.getPrompt(prompt.server, prompt.name, args, signal, elicit),
  );
  const name = `${prompt.server}:${prompt.name}`;
  host.emit({ type: 'command-output', lines: [`Sending prompt ${name}:`, content.text] });
  return host.message(content.text, { given: content.images.map((image) => ({ ...image, name })) });
}

/**
 * `/retry [model]`: answers the last question again, with its pictures (and with another configured model for this
 * turn, if one is named). A question left without an answer (failed, cancelled, declined) is answered at last; an
 * answered one keeps its answer until a new one arrives.
 */
export async function retry(host: ChatParts, name: string): Promise<TurnOutcome | undefined> {
  const models = host.runtime.config().models;
  const model = name ? models.find((m) => m.label === name || m.id === name) : undefined;
  if (name && !model) return void say(host, `No configured model named "${name}" (see /set-model).`);
  const commands = host.chat.commands;
  const [last] = commands.lastExchanges(1);
  if (!last) return void say(host, 'Nothing to retry yet.');
  // The old answer leaves the file only when a new one arrives: a failed or cancelled retry keeps it.
  await commands.rewind(1, { save: false });
  say(host, `Asking again${model ? ` with ${model.label}` : ''}: ${short(last.user)}`);
  const attached = host.attached.images;
  const outcome = await host.message(last.user, { images: last.images ?? [], ...(model && { model }) });
  // A question still without an answer stays as this attempt left it (its note says what happened this time).
  if (outcome.status !== 'answered' && !last.unanswered) {
    await commands.undoRewind();
    if (host.attached.images !== attached) host.attached.images = attached;
    say(host, 'No new answer: the last one is kept.');
  }
  return outcome;
}

/** `/edit`: takes back the last exchange and puts its message (and pictures) back to be changed and sent. */
export async function editLast(host: ChatParts): Promise<void> {
  const [last] = host.chat.commands.lastExchanges(1);
  if (!last) return say(host, 'Nothing to edit yet.');
  await host.chat.commands.rewind(1);
  if (last.images?.length) host.attached.images = [...last.images, ...host.attached.images];
  say(host, 'Took back your last message and its answer: change it and press Enter to send it again.');
  // Exactly as typed: a message that starts with "/" was typed as "//…" (a single "/" would run a command).
  host.emit({ type: 'draft', text: last.user.startsWith('/') ? `/${last.user}` : last.user });
}
