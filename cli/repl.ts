import { clearLine, cursorTo, Interface as LegacyInterface } from 'node:readline';
import readline from 'node:readline/promises';
import {
  ANSI_STYLES,
  PLAIN_STYLES,
  SCREEN_READER_PROMPT,
  loadHighlighter,
  loadHistory,
  loadViewPages,
  saveHistory,
  stylesFor,
  ChatController,
  HISTORY_SIZE,
  inertText,
  PROMPT,
  TranscriptRenderer,
  WordWrap,
  wrapOwnLines,
  type HostEvent,
  type Runtime,
  type ViewPages,
} from '../core/index.js';
import { asInputLine, enableBracketedPaste, PasteAwareInput, restorePastedText } from './paste-input.js';
import { maskingOutput } from './masked-input.js';
import { openInBrowser } from './open-in-browser.js';
import { mark } from './profile.js';
import { TypeAheadGate } from './type-ahead.js';

const NO_BROWSER = 'No browser could be opened here: open the link above yourself.';

/** How the REPL starts. */
export interface ReplOptions {
  /** `hac --resume [n|words]`, `hac -c`: continue a session (`/resume …`) before the first prompt. */
  resume?: string;
  /** `--screen-reader` (also HAC_SCREEN_READER=1 or `"screenReader": true`). */
  screenReader?: boolean;
}

/**
 * The interactive session: terminal glue around a chat controller. Node's readline does the line editing (wide
 * characters), history in the home and Tab completion; the controller decides what a line and Ctrl+C mean; its
 * events are printed through the shared transcript. Resolves with the exit code.
 */
export async function runRepl(runtime: Runtime, options: ReplOptions = {}): Promise<number> {
  const controller = new ChatController(runtime, { showResumed: true });
  const historyFile = runtime.paths.history;
  const out = process.stdout;
  // For a screen reader: plain labelled lines, read once; nothing coloured, wrapped by hac or drawn over.
  const screenReader =
    options.screenReader === true || process.env.HAC_SCREEN_READER === '1' || runtime.config().screenReader;
  const styles = screenReader ? PLAIN_STYLES : stylesFor(out.isTTY === true, process.env);
  const transcript = new TranscriptRenderer(styles, screenReader);
  // Answers as styled Markdown on a colour terminal; what it needs besides loads once the prompt is up.
  const markdown = styles === ANSI_STYLES && runtime.config().markdown;
  const columns = () => out.columns; // a table wider than the terminal is shown as written
  if (markdown) transcript.markdown = { hyperlinks: false, columns };
  const loadMarkdownExtras = async () => {
    const { createSupportsHyperlinks } = await import('supports-hyperlinks');
    if (createSupportsHyperlinks(out) && controller.idle) transcript.markdown = { hyperlinks: true, columns };
    transcript.highlighter = await loadHighlighter();
  };
  // Loading the highlighters keeps the main thread busy for tens of milliseconds: done when the first message is
  // sent (its answer takes longer to come, and keys wait for the prompt then), never while the prompt waits for keys.
  let extrasLoading = !markdown;
  const loadExtrasOnce = () => {
    if (extrasLoading) return;
    extrasLoading = true;
    loadMarkdownExtras().catch((e: unknown) => runtime.logger.warn(`Markdown extras are off: ${String(e)}`));
  };
  // On a terminal, pasted multi-line text stays one message (bracketed paste): readline reads through this filter.
  const terminal = out.isTTY === true;
  // Keys typed while something runs wait for the next prompt (Ctrl+C excepted): see onCtrlC below.
  // A lone Escape while an answer streams or a tool runs stops it, as Ctrl+C does (a question handles its own).
  const gate = new TypeAheadGate(
    process.stdin,
    () => onCtrlC(),
    () => {
      if (!controller.idle && !controller.asking) controller.interrupt();
    },
  );
  const pastes = terminal ? new PasteAwareInput(process.stdin) : undefined;
  const input = pastes ? process.stdin.pipe(pastes).pipe(gate) : process.stdin;
  // What a line sends: its pasted line breaks restored and its long pastes whole again.
  const sent = (line: string) => pastes?.expand(line) ?? restorePastedText(line);
  if (terminal) enableBracketedPaste(out);
  // A question is asked through readline, so Ctrl+C can withdraw it; a secret's answer is drawn as dots.
  let question: AbortController | undefined;
  let secret = false;
  const rl: readline.Interface = readline.createInterface({
    input,
    output: maskingOutput(out, () => (secret && question ? rl.line : undefined)),
    terminal,
    prompt: screenReader ? SCREEN_READER_PROMPT : PROMPT,
    // readline keeps one entry per line: a multi-line entry shows its breaks as ␤.
    history: (await loadHistory(historyFile)).map(asInputLine),
    historySize: HISTORY_SIZE,
    removeHistoryDuplicates: true,
    completer: (line: string): [string[], string] => [controller.complete(line), line],
  });
  const closed = new Promise<void>((resolve) => rl.once('close', resolve));
  let exitCode: number | undefined;

  // Saves run one after another, and the last one is awaited before exit, so `/exit` itself is kept.
  let saving = Promise.resolve();
  rl.on('history', (history: string[]) => {
    const snapshot = history.map(restorePastedText);
    saving = saving
      .then(() => saveHistory(historyFile, snapshot))
      .catch((e: unknown) => runtime.logger.warn(`History not saved: ${String(e)}`));
  });

  /** Shows a prompt (with the text `/edit` gave back, if any) and hands over what was typed ahead. */
  let draft: string | undefined;
  const showPrompt = () => {
    rl.prompt();
    if (draft !== undefined) rl.write(asInputLine(draft));
    draft = undefined;
    gate.release();
  };
  /**
   * The one way in: every line (a message, a command, or the reply to what is being asked) goes to the
   * controller, and keys wait in the gate until the controller wants the next line. A line that got past the gate
   * before it closed (two lines in one read) waits its turn, as typed.
   */
  const waiting: string[] = [];
  const take = (line: string) => {
    if (!line.trimStart().startsWith('/')) loadExtrasOnce();
    gate.hold();
    // A reply: work goes on; a question asked with nothing running (a view's call) gives the prompt back after it.
    if (controller.asking)
      return void controller.submit(sent(line)).then(() => {
        if (controller.idle && !controller.asking) showPrompt();
      });
    if (!controller.idle) return void waiting.push(line);
    run(line);
  };
  const run = (line: string) => {
    void controller.submit(sent(line)).then(() => {
      if (exitCode !== undefined) return rl.close();
      const next = waiting.shift();
      if (next !== undefined) return run(next);
      if (controller.idle) showPrompt();
    });
  };
  rl.on('line', take);

  const ask = (text: string, hidden = false) => {
    const asking = new AbortController();
    question = asking;
    secret = hidden;
    out.write(transcript.openPromptLine());
    // A question can quote a server (an elicitation's message): readline prints it as it is, so make it inert.
    // hac's own question looks like nothing an answer can draw (reverse video), so an answer cannot fake one.
    rl.question(styles.question(inertText(text)), { signal: asking.signal }).then(
      (reply) => {
        question = undefined;
        forgetReply(reply);
        transcript.markLineStart(); // readline ended the line
        take(reply);
      },
      () => transcript.markLineStart(), // withdrawn: readline ended the line; the controller has its answer
    );
    gate.release(); // what was typed ahead goes into the reply
  };
  // Replies to questions are not prompts: keep them out of the input history.
  const forgetReply = (reply: string) => {
    const history = (rl as unknown as { history: string[] }).history;
    if (history[0] !== reply) return;
    history.shift();
    rl.emit('history', history);
  };

  // Ctrl+C at the prompt exits; what was typed there goes into the history first, so Up brings it back next time.
  const keepDraft = () => {
    const line = rl.line;
    const history = (rl as unknown as { history: string[] }).history;
    if (!line.trim() || history[0] === line) return;
    history.unshift(line);
    history.splice(HISTORY_SIZE);
    rl.emit('history', history);
  };

  // After Ctrl+Z and `fg`, readline pauses its input and leaves resuming to us (else hac would hang or exit).
  rl.on('SIGCONT', () => rl.resume());
  // The controller decides what Ctrl+C means; at the prompt it exits.
  const onCtrlC = () => {
    if (controller.interrupt() === 'idle') {
      keepDraft();
      return rl.close();
    }
    question?.abort();
    question = undefined;
  };
  rl.on('SIGINT', onCtrlC);
  // Node's readline writes a chunk of several characters (quick typing, a paste, the line break hac types for
  // `\`+Enter) as it comes, without counting the rows it wraps onto, so its next redraw started a row too low and
  // left a stale copy of the line above. After each chunk the count is set to where the cursor is; a chunk put in
  // the middle of the line (written over what follows) is drawn again once, with the redraw of node:readline's
  // older Interface, which the promise one shares but does not name.
  const legacy = LegacyInterface.prototype as unknown as { _refreshLine: (this: unknown) => void };
  const redraw = legacy._refreshLine;
  if (terminal)
    input.on('data', () => {
      (rl as unknown as { prevRows: number }).prevRows = rl.getCursorPos().rows;
      if (rl.cursor < rl.line.length) redraw.call(rl);
    });
  // Escape declines what an MCP server asks (readline reads the keys of the stream it was given).
  input.on('keypress', (_text: string, key: { name?: string } | undefined) => {
    if (key?.name !== 'escape' || !controller.escape()) return;
    question?.abort();
    question = undefined;
  });

  // On a terminal, a model's answer and thinking break between words as they stream (a terminal breaks them
  // anywhere); hac's own lines, whole, break at spaces too, a path or a command longer than a line kept whole on
  // one of its own. The answer's wrap starts again after them (and after each line the user sent, which readline
  // printed).
  const wordWrap = () => (terminal && !screenReader ? new WordWrap(() => out.columns || 80) : undefined);
  let wrap = wordWrap();
  const wrapped = (text: string, prose: boolean) => {
    if (!wrap) return text;
    if (prose) return wrap.push(text);
    if (text.endsWith('\n')) wrap = wordWrap();
    return wrapOwnLines(text, out.columns || 80);
  };
  const printAbove = (text: string) => {
    // Asynchronous notices (an MCP server failed) go above the prompt line, which is then redrawn.
    if (!controller.idle) return void out.write(wrapped(text, false));
    clearLine(out, 0);
    cursorTo(out, 0);
    out.write(wrap ? wrapOwnLines(text, out.columns || 80) : text);
    rl.prompt(true);
  };
  // `/view <n>`: the view in a page of its own in the browser, bridged to this conversation.
  let viewPages: ViewPages | undefined;
  const showView = async (number: number, title: string) => {
    const say = (text: string, level: 'dim' | 'info' = 'info') =>
      printAbove(transcript.render({ type: 'notice', level, text }));
    try {
      const appearance = { theme: 'dark', locale: Intl.DateTimeFormat().resolvedOptions().locale } as const;
      // Loaded on the first view: its servers need node:crypto and ws, which no other start pays for.
      const { ViewPages, viewOverSsh } = await loadViewPages();
      const open = () => controller.connectView(number, appearance);
      const { url, ports } = await (viewPages ??= new ViewPages()).show(open);
      say(`${title}: ${url}`);
      if (process.env.SSH_CONNECTION) say(viewOverSsh(ports), 'dim');
      else openInBrowser(url, () => say(NO_BROWSER, 'dim'));
    } catch (error) {
      say(`${title} cannot be shown: ${(error as Error).message}`);
    }
  };
  // Streamed text comes in as few events as the network reads allow (the engine batches it): write each at once.
  controller.onEvent((event: HostEvent) => {
    switch (event.type) {
      case 'input': // readline has shown what was typed; a resumed conversation's messages are drawn here
        wrap = wordWrap();
        if (event.resumed) out.write(transcript.render(event));
        return;
      case 'prompt':
        wrap = wordWrap(); // readline asks, the answer's Enter leaves the cursor at a line's start
        return ask(event.text, event.secret);
      case 'exit':
        exitCode = 0;
        return;
      case 'draft':
        // At the prompt (a view's message): into the line being typed, for the user to send or change.
        if (controller.idle && !controller.asking) return rl.write(asInputLine(event.text));
        draft = event.text;
        return;
      case 'mcp-status':
        return printAbove(transcript.render(event));
      case 'open-link':
        return openInBrowser(event.url, () =>
          printAbove(transcript.render({ type: 'notice', level: 'dim', text: NO_BROWSER })),
        );
      case 'open-view':
        return void showView(event.number, event.title);
      default: {
        const text = transcript.render(event);
        const prose = event.type === 'text-delta' || event.type === 'thinking-delta';
        // With nothing running (a view's notice), above the prompt; a progress line is redrawn in place.
        if (text && controller.idle && !controller.asking && !question) printAbove(text);
        else if (text) out.write(event.type === 'tool-progress' ? text : wrapped(text, prose));
      }
    }
  });

  // The MCP SDK loads before the prompt (a key typed at the prompt must never wait behind it); the servers start
  // after it, one per task, so the terminal draws the prompt before they boot beside it.
  await runtime.loadMcp();
  if (options.resume) await controller.submit(`/resume ${options.resume}`);
  await controller.offerSetUp(); // a first run with a provider within reach: write config.json for it?
  showPrompt();
  mark('prompt shown');
  void controller.start();
  await closed;
  if (exitCode === undefined) out.write('\n'); // Ctrl+C or Ctrl+D at the prompt: leave the shell a clean line
  controller.close();
  await viewPages?.close();
  await saving;
  return exitCode ?? 0;
}
