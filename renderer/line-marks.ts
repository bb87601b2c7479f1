import type { HostEvent } from './core-types.js';
import { lineButton } from './line-button.js';
import type { TranscriptView } from './transcript-view.js';

/** What the page adds to lines of the transcript once they are on screen. */
export type LineMarks = (event: HostEvent, lines: number) => void;

/**
 * Marks on the transcript's lines (xterm.js decorations, the text itself unchanged): a band behind each message
 * the user sent, so each turn's start is easy to find, and a Show button on each tool result's line that opens
 * what the tool returned in `dialog`.
 */
export function createLineMarks(view: TranscriptView, dialog: HTMLDialogElement): LineMarks {
  const { terminal } = view;
  const output = dialog.querySelector('pre')!;
  const title = dialog.querySelector('h2')!;
  dialog.querySelector('button')?.addEventListener('click', () => dialog.close());
  return (event, lines) => {
    const marker = terminal.registerMarker(-lines);
    if (event.type === 'input') {
      const band = terminal.registerDecoration({ marker, width: terminal.cols, height: lines });
      band?.onRender((element) => element.classList.add('user-message'));
      return;
    }
    if (event.type !== 'tool-result') return;
    lineButton(terminal, marker, {
      className: 'show-output',
      label: 'Show',
      title: 'Show what the tool returned',
      onClick: () => {
        title.textContent = event.summary;
        output.textContent = event.output;
        dialog.showModal();
      },
    });
  };
}
