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
export function createLineMarks(
  view: TranscriptView,
  dialog: HTMLDialogElement,
  /** A command for a message sent (`/retry`, `/edit`, `/rewind n`), from its ⋯ menu. */
  onMessage: (command: string) => void,
  /** The ids of the messages the conversation holds now. */
  held: () => readonly number[],
): LineMarks {
  const { terminal } = view;
  const menu = messageMenu(onMessage);
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
      const { id } = event;
      if (event.reply || id === undefined) return;
      lineButton(terminal, marker, {
        className: 'message-menu',
        label: '⋯',
        title: 'Ask again, edit or take back this message',
        onClick: (button) => menu(button, held().length - 1 - held().indexOf(id), held().includes(id)),
      });
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

/**
 * The small menu of a message: the last one can be asked again, edited or taken back; an earlier one taken back with
 * everything after it (each a command, as if typed). A message already taken back offers nothing.
 */
function messageMenu(
  onMessage: (command: string) => void,
): (near: HTMLElement, after: number, isHeld: boolean) => void {
  const popup = document.createElement('div');
  popup.className = 'message-menu-popup';
  popup.popover = 'auto';
  document.body.append(popup);
  const item = (label: string, command?: string) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = label;
    if (command === undefined) button.disabled = true;
    else
      button.addEventListener('click', () => {
        popup.hidePopover();
        onMessage(command);
      });
    return button;
  };
  return (near, after, isHeld) => {
    popup.replaceChildren(
      ...(!isHeld
        ? [item('Already taken back')]
        : after === 0
          ? [item('Ask again', '/retry'), item('Edit', '/edit'), item('Take back', '/rewind 1')]
          : [item(`Take back from here (${after + 1} exchanges)`, `/rewind ${after + 1}`)]),
    );
    const box = near.getBoundingClientRect();
    popup.style.top = `${box.bottom + 2}px`;
    // Its right edge under the button's, however long its items are.
    popup.style.right = `${Math.max(0, document.documentElement.clientWidth - box.right)}px`;
    popup.showPopover();
  };
}
