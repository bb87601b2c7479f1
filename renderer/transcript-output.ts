import { ANSI_STYLES, loadHighlighter, TranscriptRenderer, type HostEvent } from './core-types.js';
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

export function createTranscriptOutput(view: TranscriptView): TranscriptOutput {
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
  /** A band behind the lines just written (the user's message), so each turn's start is easy to find. */
  const markInput = (lines: number) => {
    void drawn.then(() => {
      const marker = view.terminal.registerMarker(-lines);
      const band = view.terminal.registerDecoration({ marker, width: view.terminal.cols, height: lines });
      band?.onRender((element) => element.classList.add('user-message'));
      marker.onDispose(() => band?.dispose());
    });
  };

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
        if (event.type !== 'input' || event.reply || !printed) {
          text += printed;
          continue;
        }
        // A message the user sent: written on its own, then marked across the width (a turn starts here).
        if (text) write(text);
        text = '';
        write(printed);
        markInput(printed.replace(/^\n/, '').split('\n').length - 1);
      }
      // Written at once (xterm queues and parses in order); the last write's callback means all is on screen.
      if (text) write(text);
    },
    write,
    drawn: () => drawn,
  };
}
