import type { HostEvent } from './core-types.js';
import type { IDecoration } from '@xterm/xterm';
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
  /** A command for the last message sent (`/retry`, `/edit`, `/rewind 1`), from its ⋯ menu. */
  onMessage: (command: string) => void,
): LineMarks {
  const { terminal } = view;
  const menu = messageMenu(onMessage);
  // Only the last message has the menu: what it offers is about the last exchange.
  let lastMenu: IDecoration | undefined;
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
      if (event.reply || (event.text.startsWith('/') && !event.text.startsWith('//'))) return;
      lastMenu?.dispose();
      lastMenu = lineButton(terminal, marker, {
        className: 'message-menu',
        label: '⋯',
        title: 'Ask again, edit or take back this message',
        onClick: (button) => menu(button),
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

/** The small menu of the last message: ask again, edit it, take it back (each a command, as if typed). */
function messageMenu(onMessage: (command: string) => void): (near: HTMLElement) => void {
  const popup = document.createElement('div');
  popup.className = 'message-menu-popup';
  popup.popover = 'auto';
  for (const [label, command] of [
    ['Ask again', '/retry'],
    ['Edit', '/edit'],
    ['Take back', '/rewind 1'],
  ] as const) {
    const item = document.createElement('button');
    item.type = 'button';
    item.textContent = label;
    item.addEventListener('click', () => {
      popup.hidePopover();
      onMessage(command);
    });
    popup.append(item);
  }
  document.body.append(popup);
  return (near) => {
    const box = near.getBoundingClientRect();
    popup.style.top = `${box.bottom + 2}px`;
    popup.style.left = `${Math.max(0, box.right - 240)}px`;
    popup.showPopover();
  };
}
