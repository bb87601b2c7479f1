import type { HostEvent } from './core-types.js';
import { lineButton } from './line-button.js';
import type { TranscriptView } from './transcript-view.js';

/** A thinking block that can be folded away and opened again. */
export interface Fold {
  folded: boolean;
  toggle(): void;
}

/** What the page adds to lines of the transcript once they are on screen. */
export type LineMarks = (event: HostEvent, lines: number, fold?: Fold) => void;

/**
 * Marks on the transcript's lines (xterm.js decorations, the text itself unchanged): a band behind each message
 * the user sent, so each turn's start is easy to find, a Show button on each tool result's line that opens
 * what the tool returned in `dialog`, and a Hide / Show button on the first line of a model's thinking.
 */
export function createLineMarks(view: TranscriptView, dialog: HTMLDialogElement): LineMarks {
  const { terminal } = view;
  const output = dialog.querySelector('pre')!;
  const title = dialog.querySelector('h2')!;
  dialog.querySelector('button')?.addEventListener('click', () => dialog.close());
  return (event, lines, fold) => {
    const marker = terminal.registerMarker(-lines);
    if (fold) {
      lineButton(terminal, marker, {
        className: 'fold-thinking',
        label: fold.folded ? 'Show' : 'Hide',
        title: fold.folded ? 'Show the model’s thinking' : 'Fold the model’s thinking away',
        onClick: () => fold.toggle(),
      });
      return;
    }
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
