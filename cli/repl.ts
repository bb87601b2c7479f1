import { clearLine, cursorTo } from 'node:readline';
import readline from 'node:readline/promises';
import {
  completeCommand,
  isCommand,
  runCommand,
  stylesFor,
  TranscriptRenderer,
  CONFIRM_QUESTION,
  type CommandOutput,
  type EngineEvent,
  type Hac,
} from '../core/index.js';
import { loadHistory, saveHistory, HISTORY_SIZE } from './input-history.js';
import { watchMcpProblems } from './mcp-problems.js';
import { enableBracketedPaste, PasteAwareInput, restorePastedNewlines } from './paste-input.js';
import { mark } from './profile.js';
import { runTurn, writeTo } from './turn-runner.js';

export const PROMPT = 'humble-ai> ';

/** What is going on, so Ctrl+C knows what it means (R-TTY-2, R-LOOP-2). */
type Activity =
  | { kind: 'prompt' }
  | { kind: 'turn'; controller: AbortController }
  | { kind: 'question'; cancel: () => void };

/**
 * The interactive session (R-TTY-1..5) on Node's readline: line editing with wide characters, history in the
 * home, Tab completion of commands. A line is a command or a message; events are printed through the shared
 * transcript. Resolves with the exit code when the user leaves.
 */
export async function runRepl(hac: Hac): Promise<number> {
  const out = process.stdout;
  const styles = stylesFor(out.isTTY === true, process.env);
  const transcript = new TranscriptRenderer(styles);
  // On a terminal, pasted multi-line text stays one message (bracketed paste): readline reads through this filter.
  const terminal = out.isTTY === true;
  const input = terminal ? process.stdin.pipe(new PasteAwareInput(process.stdin)) : process.stdin;
  if (terminal) enableBracketedPaste(out);
  const rl = readline.createInterface({
    input,
    output: out,
    terminal,
    prompt: PROMPT,
    history: await loadHistory(hac.paths.history),
    historySize: HISTORY_SIZE,
    removeHistoryDuplicates: true,
    completer: (line: string): [string[], string] => [completeCommand(line), line],
  });
  let activity: Activity = { kind: 'prompt' };
  let exitCode: number | undefined;
  const lines = rl[Symbol.asyncIterator]();

  // Saves run one after another, and the last one is awaited before exit, so `/exit` itself is kept.
  let saving = Promise.resolve();
  rl.on('history', (history: string[]) => {
    const snapshot = [...history];
    saving = saving
      .then(() => saveHistory(hac.paths.history, snapshot))
      .catch((e: unknown) => hac.logger.warn(`History not saved: ${String(e)}`));
  });
  // After Ctrl+Z and `fg`, readline pauses its input and leaves resuming to us (else hac would hang or exit).
  rl.on('SIGCONT', () => rl.resume());
  rl.on('SIGINT', () => {
    if (activity.kind === 'turn') activity.controller.abort();
    else if (activity.kind === 'question')
      activity.cancel(); // at Y/N it counts as "n" (R-LOOP-2)
    else rl.close(); // at the prompt: exit (seed)
  });
  const printAbove = (text: string) => {
    // Asynchronous notices (an MCP server failed) go above the prompt line, which is then redrawn.
    if (activity.kind !== 'prompt') return void out.write(text);
    clearLine(out, 0);
    cursorTo(out, 0);
    out.write(text);
    rl.prompt(true);
  };
  const checkMcp = watchMcpProblems(hac, (line) => printAbove(styles.red(line) + '\n'));

  // Replies to questions (Y/N, a choice) are not prompts: keep them out of the input history.
  const askLine = async (question: string, signal: AbortSignal): Promise<string> => {
    const reply = await rl.question(question, { signal });
    const history = (rl as unknown as { history: string[] }).history;
    if (history[0] === reply) {
      history.shift();
      rl.emit('history', history);
    }
    return reply;
  };

  const showOutput = async (output: CommandOutput): Promise<void> => {
    if (output.lines.length) out.write(`${output.lines.join('\n')}\n`);
    if (output.exit) exitCode = 0;
    if (output.question) {
      const controller = new AbortController();
      const previous = activity;
      activity = { kind: 'question', cancel: () => controller.abort() };
      const reply = await askLine(output.question.prompt, controller.signal).catch(() => '0');
      activity = previous;
      await showOutput(await output.question.answer(reply));
    }
  };

  rl.prompt();
  mark('prompt shown');
  hac.startMcp(); // after the prompt is up: start-up never waits for MCP servers (R-TTY-5)
  void checkMcp(); // a broken mcp-servers.json is reported at start (R-MCP-9)
  for (;;) {
    const next = await lines.next();
    if (next.done) {
      out.write('\n'); // Ctrl+C or Ctrl+D at the prompt: leave the shell a clean line
      break;
    }
    const line = restorePastedNewlines(next.value).trim();
    if (line) {
      try {
        if (isCommand(line)) {
          await showOutput(await runCommand(line, hac.commands));
        } else {
          const controller = new AbortController();
          activity = { kind: 'turn', controller };
          const render = writeTo(out, transcript);
          // The Y/N question is asked by readline itself, so editing the reply never erases it.
          const renderEvent = (event: EngineEvent) =>
            event.type === 'confirmation-request'
              ? out.write(transcript.render(event).slice(0, -CONFIRM_QUESTION.length))
              : render(event);
          await runTurn(
            hac,
            line.startsWith('//') ? line.slice(1) : line,
            controller.signal,
            renderEvent,
            async (event, signal) => {
              const turn = activity;
              if (event.type === 'confirmation-request') {
                const ask = new AbortController();
                activity = { kind: 'question', cancel: () => ask.abort() };
                const reply = await askLine(CONFIRM_QUESTION, AbortSignal.any([ask.signal, signal])).catch(
                  () => 'n',
                );
                activity = turn;
                transcript.markLineStart();
                return reply;
              }
              const reply = await askLine('> ', signal);
              transcript.markLineStart();
              return reply;
            },
          );
        }
      } catch (error) {
        out.write(`${styles.red(error instanceof Error ? error.message : String(error))}\n`);
      } finally {
        activity = { kind: 'prompt' };
      }
    }
    if (exitCode !== undefined) break;
    rl.prompt();
  }
  rl.close();
  await saving;
  return exitCode ?? 0;
}
