import { clearLine, cursorTo } from 'node:readline';
import readline from 'node:readline/promises';
import {
  ANSI_STYLES,
  loadHighlighter,
  loadHistory,
  saveHistory,
  stylesFor,
  type ChatController,
  HISTORY_SIZE,
  PROMPT,
  TranscriptRenderer,
  type HostEvent,
  type Runtime,
} from '../core/index.js';
import {
  enableBracketedPaste,
  PASTED_NEWLINE,
  PasteAwareInput,
  restorePastedNewlines,
} from './paste-input.js';
import { mark } from './profile.js';
import { TypeAheadGate } from './type-ahead.js';

/**
 * The interactive session (R-TTY-1..5): terminal glue around the chat controller. Node's readline does the line
 * editing (wide characters), history in the home and Tab completion; the controller decides what a line and
 * Ctrl+C mean; its events are printed through the shared transcript. Resolves with the exit code.
 */
export async function runRepl(runtime: Runtime, controller: ChatController): Promise<number> {
  const historyFile = runtime.paths.history;
  const out = process.stdout;
  const styles = stylesFor(out.isTTY === true, process.env);
  const transcript = new TranscriptRenderer(styles);
  // Answers as styled Markdown on a colour terminal (issue 21); what it needs besides loads once the prompt is up.
  const markdown = styles === ANSI_STYLES && runtime.config().markdown;
  if (markdown) transcript.markdown = { hyperlinks: false };
  const loadMarkdownExtras = async () => {
    const { createSupportsHyperlinks } = await import('supports-hyperlinks');
    if (createSupportsHyperlinks(out) && controller.idle) transcript.markdown = { hyperlinks: true };
    transcript.highlighter = await loadHighlighter();
  };
  // On a terminal, pasted multi-line text stays one message (bracketed paste): readline reads through this filter.
  const terminal = out.isTTY === true;
  // Keys typed during a turn wait for the prompt (Ctrl+C excepted): see onCtrlC below.
  const gate = new TypeAheadGate(process.stdin, () => onCtrlC());
  const input = terminal ? process.stdin.pipe(new PasteAwareInput(process.stdin)).pipe(gate) : process.stdin;
  if (terminal) enableBracketedPaste(out);
  const rl = readline.createInterface({
    input,
    output: out,
    terminal,
    prompt: PROMPT,
    // readline keeps one entry per line: a multi-line entry shows its breaks as ␤.
    history: (await loadHistory(historyFile)).map((entry) => entry.replaceAll('\n', PASTED_NEWLINE)),
    historySize: HISTORY_SIZE,
    removeHistoryDuplicates: true,
    completer: (line: string): [string[], string] => [controller.complete(line), line],
  });
  let exitCode: number | undefined;
  const lines = rl[Symbol.asyncIterator]();

  // Saves run one after another, and the last one is awaited before exit, so `/exit` itself is kept.
  let saving = Promise.resolve();
  rl.on('history', (history: string[]) => {
    const snapshot = history.map(restorePastedNewlines);
    saving = saving
      .then(() => saveHistory(historyFile, snapshot))
      .catch((e: unknown) => runtime.logger.warn(`History not saved: ${String(e)}`));
  });

  // The question being asked through readline (Y/N, a choice, an ask_user reply), so Ctrl+C can withdraw it.
  let question: AbortController | undefined;
  const askLine = (text: string) => {
    const ask = new AbortController();
    question = ask;
    out.write(transcript.openPromptLine());
    const answered = rl.question(text, { signal: ask.signal });
    gate.release(); // what was typed ahead goes into the reply
    answered.then(
      (reply) => {
        // Replies to questions are not prompts: keep them out of the input history.
        const history = (rl as unknown as { history: string[] }).history;
        if (history[0] === reply) {
          history.shift();
          rl.emit('history', history);
        }
        question = undefined;
        transcript.markLineStart();
        void controller.submit(restorePastedNewlines(reply));
        if (!controller.idle) gate.hold(); // the turn goes on: keys wait again
      },
      () => transcript.markLineStart(), // withdrawn: readline ended the line; the controller has its answer
    );
  };

  // After Ctrl+Z and `fg`, readline pauses its input and leaves resuming to us (else hac would hang or exit).
  rl.on('SIGCONT', () => rl.resume());
  // R-TTY-2 / R-LOOP-2: the controller decides; at the prompt Ctrl+C exits (seed).
  const onCtrlC = () => {
    if (controller.interrupt() === 'idle') return rl.close();
    question?.abort();
    question = undefined;
  };
  rl.on('SIGINT', onCtrlC);

  const printAbove = (text: string) => {
    // Asynchronous notices (an MCP server failed) go above the prompt line, which is then redrawn.
    if (!controller.idle) return void out.write(text);
    clearLine(out, 0);
    cursorTo(out, 0);
    out.write(text);
    rl.prompt(true);
  };
  // Streamed text is rendered and written once per turn of the event loop (all the deltas of one network read),
  // not once per delta: a terminal write is a system call and a fast stream sends thousands of deltas. Anything
  // else is written at once, after what is pending, so the order never changes.
  let pending: Extract<HostEvent, { type: 'text-delta' | 'thinking-delta' }> | undefined;
  const flush = () => {
    if (!pending) return;
    const text = transcript.render(pending);
    pending = undefined;
    if (text) out.write(text);
  };
  const show = (event: HostEvent) => {
    if (event.type === 'text-delta' || event.type === 'thinking-delta') {
      if (pending?.type === event.type) pending = { type: event.type, text: pending.text + event.text };
      else {
        flush();
        pending = { type: event.type, text: event.text };
        setImmediate(flush);
      }
      return;
    }
    flush();
    switch (event.type) {
      case 'input': // readline has shown what was typed
        return;
      case 'prompt':
        return askLine(event.text);
      case 'exit':
        exitCode = 0;
        return;
      case 'mcp-status':
        return printAbove(transcript.render(event));
      default: {
        const text = transcript.render(event);
        if (text) out.write(text);
      }
    }
  };
  controller.onEvent(show);

  rl.prompt();
  mark('prompt shown');
  if (markdown) {
    setTimeout(() => {
      loadMarkdownExtras().catch((e: unknown) =>
        runtime.logger.warn(`Markdown extras are off: ${String(e)}`),
      );
    }, 0);
  }
  void controller.start(); // after the prompt is up: start-up never waits for MCP servers (R-TTY-5)
  for (;;) {
    const next = await lines.next();
    flush();
    if (next.done) {
      out.write('\n'); // Ctrl+C or Ctrl+D at the prompt: leave the shell a clean line
      break;
    }
    gate.hold();
    await controller.submit(restorePastedNewlines(next.value));
    flush();
    if (exitCode !== undefined) break;
    rl.prompt();
    gate.release();
  }
  controller.close();
  rl.close();
  await saving;
  return exitCode ?? 0;
}
