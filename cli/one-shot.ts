import {
  runTurn,
  stylesFor,
  TranscriptRenderer,
  watchMcpProblems,
  type Chat,
  type EngineEvent,
  type Runtime,
} from '../core/index.js';
import type { CliOptions } from './args.js';
import { EXIT } from './exit-codes.js';
import { mark } from './profile.js';

/**
 * `hac -p` (R-TTY-6): the answer alone on stdout (thinking and notices on stderr), or every engine event as a
 * JSON line with `--output jsonl`. Exit 0 answered, 1 LLM or tool error, 3 a tool call needed a confirmation
 * nobody could give (manual mode without `--yes`).
 */
export async function runOneShot(
  runtime: Runtime,
  chat: Chat,
  question: string,
  options: CliOptions,
): Promise<number> {
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  const transcript = new TranscriptRenderer(stylesFor(process.stderr.isTTY === true, process.env));
  let needsConfirmation = false;
  let sawText = false;

  // The answer's deltas are written once per turn of the event loop (one write per network read, not per delta);
  // anything else is written after them, so nothing changes order.
  let answer = '';
  const flushAnswer = () => {
    if (answer === '') return;
    process.stdout.write(answer);
    answer = '';
  };
  const render = (unsafe: EngineEvent) => {
    const event = runtime.secrets.redactDeep(unsafe); // R-LOG-4: what a server echoed is masked
    if (options.output === 'jsonl') return void process.stdout.write(`${JSON.stringify(event)}\n`);
    if (event.type === 'text-delta') {
      if (!sawText) mark('first answer text');
      sawText = true;
      if (answer === '') setImmediate(flushAnswer);
      answer += event.text;
      return;
    }
    flushAnswer();
    if (event.type === 'turn-end') {
      mark('turn ended');
      return void (event.status === 'answered' && process.stdout.write('\n'));
    }
    if (event.type === 'confirmation-request') return;
    const text = transcript.render(event);
    if (text) process.stderr.write(text);
  };

  runtime.startMcp();
  const mcpProblems = watchMcpProblems(runtime, (problem) =>
    process.stderr.write(`${runtime.secrets.redact(problem.text)}\n`),
  );
  await mcpProblems.check();
  try {
    const { status, hadError } = await runTurn(chat.engine, question, controller.signal, render, (event) => {
      if (event.type === 'question') return Promise.resolve(''); // nobody to ask: ask_user gets "no answer"
      if (options.yes) return Promise.resolve('y');
      needsConfirmation = true;
      flushAnswer();
      process.stderr.write(
        'This tool call needs your confirmation: run with --yes, or set "toolCallMode": "auto".\n',
      );
      return Promise.resolve('n');
    });
    if (needsConfirmation) return EXIT.needsConfirmation;
    return status === 'answered' && !hadError ? EXIT.ok : EXIT.failed;
  } finally {
    flushAnswer(); // a turn that ended without a turn-end event (an abort) still shows what came
    mcpProblems.stop();
    process.off('SIGINT', onSignal);
  }
}
