import type { IDecoration, IMarker } from '@xterm/xterm';
import type { HostEvent } from './core-types.js';
import { LABELS } from './labels.js';
import { lineButton } from './line-button.js';
import { createMessageMenu } from './message-menu.js';
import type { TranscriptView } from './transcript-view.js';

/** A thinking block that can be folded away and opened again. */
export interface Fold {
  folded: boolean;
  toggle(): void;
}

/** What the page adds to lines of the transcript once they are on screen. */
export interface LineMarks {
  mark(event: HostEvent, lines: number, fold?: Fold): void;
  /** Dims the exchanges the conversation no longer holds (taken back), and undims those it holds again. */
  refresh(): void;
}

/**
 * A line the user typed and what it printed up to the next: `owner` is the message whose exchange it shows (a
 * message's own id; for `/retry`, the message it answers again; none for other commands), `dimmed` its dimming
 * once that exchange is taken back.
 */
interface Typed {
  marker: IMarker;
  owner?: number;
  dimmed?: IDecoration;
}

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
  /** The ids of the messages the conversation holds now, and whether a turn runs (its message not held yet). */
  conversation: { readonly held: readonly number[]; readonly busy: boolean },
): LineMarks {
  const held = () => conversation.held;
  const { terminal } = view;
  const menu = createMessageMenu(onMessage);
  const output = dialog.querySelector('pre')!;
  const title = dialog.querySelector('h2')!;
  dialog.querySelector('button')?.addEventListener('click', () => dialog.close());
  let typed: Typed[] = [];

  /**
   * What the model will see, on screen: an exchange taken back (Take back, Edit, `/rewind`, the answer a retry
   * replaced) is dimmed from its message to the next line typed, its text left as it was.
   */
  const refresh = () => {
    typed = typed.filter((t) => !t.marker.isDisposed); // a redraw starts the transcript afresh
    const holds = new Set(held());
    typed.forEach((entry, i) => {
      if (entry.owner === undefined) return;
      // The message of the turn that runs is the conversation's once answered: not taken back meanwhile.
      const running = conversation.busy && i === typed.length - 1;
      if (holds.has(entry.owner) || running) {
        entry.dimmed?.dispose();
        entry.dimmed = undefined;
        return;
      }
      if (entry.dimmed) return;
      const end = typed[i + 1]?.marker.line ?? terminal.buffer.active.length;
      const height = end - entry.marker.line;
      if (height <= 0) return;
      entry.dimmed = terminal.registerDecoration({
        marker: entry.marker,
        width: terminal.cols,
        height,
        layer: 'top',
      });
      entry.dimmed?.onRender((element) => {
        element.classList.add('taken-back');
        element.title = LABELS.takenBack;
      });
    });
  };

  const mark = (event: HostEvent, lines: number, fold?: Fold) => {
    const marker = terminal.registerMarker(-lines);
    if (fold) {
      lineButton(terminal, marker, {
        className: 'fold-thinking',
        label: fold.folded ? LABELS.show : LABELS.hide,
        title: fold.folded ? LABELS.showThinkingTitle : LABELS.hideThinkingTitle,
        onClick: () => fold.toggle(),
      });
      return;
    }
    if (event.type === 'input') {
      const band = terminal.registerDecoration({ marker, width: terminal.cols, height: lines });
      band?.onRender((element) => element.classList.add('user-message'));
      const { id } = event;
      // What a line typed shows belongs to a message: its own, or (a retry) the one it answers again.
      const owner = id ?? (/^\/retry\b/.test(event.text) ? held().at(-1) : undefined);
      if (!event.reply) typed.push({ marker, ...(owner !== undefined && { owner }) });
      if (event.reply || id === undefined) return;
      lineButton(terminal, marker, {
        className: 'message-menu',
        label: '⋯',
        name: LABELS.messageMenu,
        title: LABELS.messageMenuTitle,
        opensMenu: true,
        onClick: (button) => menu(button, held().length - 1 - held().indexOf(id), held().includes(id)),
      });
      return;
    }
    if (event.type !== 'tool-result') return;
    lineButton(terminal, marker, {
      className: 'show-output',
      label: LABELS.show,
      title: LABELS.showOutputTitle,
      onClick: () => {
        title.textContent = event.summary;
        output.textContent = event.output;
        dialog.showModal();
      },
    });
  };
  return { mark, refresh };
}
