import { LABELS } from './labels.js';
import { createPopupMenu } from './popup-menu.js';

/** Opens the menu of one message beside its ⋯ button. */
export type OpenMessageMenu = (button: HTMLButtonElement, after: number, isHeld: boolean) => void;

/**
 * The small menu of a message: the last message can be asked again, edited or taken back; an earlier one taken
 * back with everything after it (each a command, as if typed); one already taken back offers nothing.
 */
export function createMessageMenu(onMessage: (command: string) => void): OpenMessageMenu {
  const menu = createPopupMenu('message-menu', LABELS.messageMenu);
  (document.querySelector('main') ?? document.body).append(menu.element); // inside the page's landmark
  // A choice sends its command, which brings the keyboard back to the prompt, as after any line sent.
  const item = (label: string, command?: string) => ({
    label,
    ...(command !== undefined && { run: () => onMessage(command) }),
  });
  return (near, after, isHeld) =>
    menu.show(
      near,
      !isHeld
        ? [item(LABELS.alreadyTakenBack)]
        : after === 0
          ? [item(LABELS.askAgain, '/retry'), item(LABELS.edit, '/edit'), item(LABELS.takeBack, '/rewind 1')]
          : [item(LABELS.takeBackFromHere(after + 1), `/rewind ${after + 1}`)],
    );
}
