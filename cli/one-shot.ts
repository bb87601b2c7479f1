import {
  ChatController,
  imageSourceOf,
  inertText,
  stylesFor,
  TranscriptRenderer,
  type HostEvent,
  type Runtime,
} from '../core/index.js';
import type { CliOptions } from './args.js';
import { EXIT } from './exit-codes.js';
import { mark } from './profile.js';

/** Why a call did not run in a one-shot run, and how to allow it. */
const notRun = (tool: string) =>
  `hac: ${tool} was not run: it needs your approval, and a one-shot run cannot ask. Allow tool calls with --yes, or set "toolCallMode": "auto" in config.json.\n`;

/**
 * `hac -p`: the answer alone on stdout (thinking and notices on stderr), or every engine event as a JSON line
 * with `--output jsonl`. A conversation nobody can be asked in: a tool call that needs a confirmation runs only
 * with `--yes`. Exit 0 answered, 1 an LLM or tool error, 3 a confirmation was needed and could not be given.
 */
export async function runOneShot(runtime: Runtime, question: string, options: CliOptions): Promise<number> {
  const controller = new ChatController(runtime, { unattended: { approveTools: options.yes } });
  const transcript = new TranscriptRenderer(stylesFor(process.stderr.isTTY === true, process.env));
  let needsConfirmation = false;
  let sawText = false;
  /** The call being proposed, named when it cannot run. */
  let proposed = 'the tool call';
  // The answer is the model's bytes for a program reading a pipe, but on a terminal it must not act on the screen.
  const answerText = process.stdout.isTTY === true ? inertText : (text: string) => text;

  const show = (event: HostEvent) => {
    switch (event.type) {
      // What the controller tells a screen besides the turn: a one-shot run has no prompt or status line.
      case 'input':
      case 'status':
      case 'prompt':
      case 'session-saved':
      case 'open-link': // a one-shot run never opens a browser
      case 'exit':
        return;
      case 'command-output': // `--resume`: its line goes beside the answer, never into it
      case 'mcp-status':
      case 'busy':
      case 'fatal':
        if (options.verbose || wentWrong(event)) process.stderr.write(transcript.render(event));
        return;
    }
    if (event.type === 'tool-call') proposed = inertText(`${event.server}/${event.tool}`);
    if (event.type === 'confirmation-request' && !options.yes) {
      needsConfirmation = true;
      process.stderr.write(notRun(proposed));
    }
    if (options.output === 'jsonl') return void process.stdout.write(`${JSON.stringify(event)}\n`);
    switch (event.type) {
      case 'text-delta':
        if (!sawText) mark('first answer text');
        sawText = true;
        return void process.stdout.write(answerText(event.text));
      case 'turn-end':
        mark('turn ended');
        return void (event.status === 'answered' && process.stdout.write('\n'));
      default:
        // For a script, stderr is for what went wrong; --verbose says the rest (waiting, servers, thinking).
        if (options.verbose || wentWrong(event)) process.stderr.write(transcript.render(event));
    }
  };
  controller.onEvent(show);

  // Ctrl+C cancels the answer; pressed before it started, the question is never sent.
  let interrupted = false;
  const onSignal = () => void (controller.interrupt() === 'idle' && (interrupted = true));
  process.on('SIGINT', onSignal);
  try {
    await controller.start();
    if (options.resume) await controller.submit(`/resume ${options.resume}`);
    for (const image of options.images) {
      // A picture that cannot go stops the run before anything is sent.
      if (!(await controller.attach(imageSourceOf(image)))) return EXIT.failed;
    }
    const outcome = interrupted ? undefined : await controller.send(question);
    if (needsConfirmation) return EXIT.needsConfirmation;
    return outcome?.status === 'answered' && !outcome.hadError ? EXIT.ok : EXIT.failed;
  } finally {
    controller.close();
    process.off('SIGINT', onSignal);
  }
}

/** What a one-shot run says on stderr without --verbose: errors and warnings. */
function wentWrong(event: HostEvent): boolean {
  switch (event.type) {
    case 'error':
    case 'fatal':
      return true;
    case 'notice':
      return event.level === 'warn';
    case 'tool-result':
    case 'mcp-status': // a server that failed or needs a sign-in: the answer lacks its tools
      return !event.ok;
    case 'retry': // the provider failed once: said as a warning is logged
      return true;
    default:
      return false;
  }
}
