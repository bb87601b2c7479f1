import { ANSI_STYLES, loadHighlighter, TranscriptRenderer, type HostEvent } from './core-types.js';
import type { LineMarks } from './line-marks.js';
import type { TranscriptView } from './transcript-view.js';

/** Host events drawn into the transcript, through the same renderer as the CLI. */
export interface TranscriptOutput {
  /** Draws events; a `replay` is the whole conversation again, drawn on a cleared transcript. */
  show(events: HostEvent[], replay?: boolean): void;
  /** Text the page writes itself (Tab's list of completions). */
  write(text: string): void;
  /** Resolves when everything shown so far is on screen. */
  drawn(): Promise<void>;
}

export function createTranscriptOutput(view: TranscriptView, marks: LineMarks): TranscriptOutput {
  let transcript = new TranscriptRenderer(ANSI_STYLES);
  let markdown: boolean | undefined;
  let drawn = Promise.resolve();

  /** Answers as styled Markdown when config.json says so; xterm.js shows OSC 8 links. */
  const showMarkdown = (on: boolean) => {
    if (on === markdown) return;
    markdown = on;
    transcript.markdown = on
      ? { hyperlinks: true, columns: () => view.terminal.cols, codeMarks: true }
      : undefined;
    if (on) {
      const styled = transcript;
      void loadHighlighter().then(
        (highlight) => (styled.highlighter = highlight),
        () => undefined, // unhighlighted code is still code
      );
    }
  };
  const write = (text: string) => void (drawn = view.write(text));
  const marked = (event: HostEvent) =>
    (event.type === 'input' && !event.reply) || event.type === 'tool-result';

  return {
    show(events, replay) {
      if (replay) {
        view.terminal.reset();
        view.terminal.write('\x1b[?25l'); // reset shows the cursor again
        transcript = new TranscriptRenderer(ANSI_STYLES);
        markdown = undefined;
      }
      let text = '';
      for (const event of events) {
        const printed = transcript.render(event);
        if (event.type === 'status') showMarkdown(event.status.markdown);
        if (!marked(event) || !printed) {
          text += printed;
          continue;
        }
        // A message the user sent, or a tool's result: written on its own, then marked once it is on screen.
        if (text) write(text);
        text = '';
        // Marked in xterm's own write callback: later writes may be parsed before a promise would resolve.
        const lines = printed.replace(/^\n/, '').split('\n').length - 1;
        drawn = new Promise((resolve) =>
          view.terminal.write(printed, () => {
            marks(event, lines);
            resolve();
          }),
        );
      }
      // Written at once (xterm queues and parses in order); the last write's callback means all is on screen.
      if (text) write(text);
    },
    write,
    drawn: () => drawn,
  };
}
