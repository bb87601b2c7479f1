import { LABELS } from './labels.js';

/** Opens the menu of one message beside its ⋯ button. */
export type OpenMessageMenu = (button: HTMLButtonElement, after: number, isHeld: boolean) => void;

/**
 * The small menu of a message, a menu as screen readers and keyboards know one: the last message can be asked
 * again, edited or taken back; an earlier one taken back with everything after it (each a command, as if typed);
 * one already taken back offers nothing. It opens with its first item focused; Up/Down (round), Home/End move,
 * Enter/Space choose (the prompt has the keyboard again), and Esc or Tab close it, back to its button.
 */
export function createMessageMenu(onMessage: (command: string) => void): OpenMessageMenu {
  const popup = document.createElement('div');
  popup.className = 'message-menu-popup';
  popup.id = 'message-menu';
  popup.popover = 'auto';
  popup.setAttribute('role', 'menu');
  popup.setAttribute('aria-label', LABELS.messageMenu);
  (document.querySelector('main') ?? document.body).append(popup); // inside the page's landmark
  let opener: HTMLButtonElement | undefined;

  const items = () => [...popup.querySelectorAll<HTMLButtonElement>('[role="menuitem"]')];
  // Closed without a choice (Esc, Tab), the keyboard goes back to the button; focusing an element inside xterm must
  // not scroll the transcript under the reader.
  const close = () => {
    popup.hidePopover();
    opener?.focus({ preventScroll: true });
  };
  const item = (label: string, command?: string) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.tabIndex = -1; // the menu is one stop: its arrows move within
    button.setAttribute('role', 'menuitem');
    button.textContent = label;
    // Still reachable with the arrows, so a reader hears why there is nothing to do.
    if (command === undefined) button.setAttribute('aria-disabled', 'true');
    else
      button.addEventListener('click', () => {
        popup.hidePopover();
        onMessage(command); // which brings the keyboard back to the prompt, as after any line sent
      });
    return button;
  };

  popup.addEventListener('keydown', (event) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLButtonElement);
    const move: Record<string, number | undefined> = {
      ArrowDown: (at + 1) % all.length,
      ArrowUp: (at - 1 + all.length) % all.length,
      Home: 0,
      End: all.length - 1,
    };
    if (event.key in move) all[move[event.key]!]?.focus({ preventScroll: true });
    else if (event.key === 'Escape' || event.key === 'Tab') close();
    else return;
    event.preventDefault(); // Esc here is the menu's, not the window's (which would go to the prompt)
    event.stopPropagation();
  });
  popup.addEventListener('toggle', (event) => {
    opener?.setAttribute('aria-expanded', String(event.newState === 'open'));
  });

  return (near, after, isHeld) => {
    if (opener !== near) opener?.setAttribute('aria-expanded', 'false');
    opener = near;
    near.setAttribute('aria-controls', popup.id);
    popup.replaceChildren(
      ...(!isHeld
        ? [item(LABELS.alreadyTakenBack)]
        : after === 0
          ? [item(LABELS.askAgain, '/retry'), item(LABELS.edit, '/edit'), item(LABELS.takeBack, '/rewind 1')]
          : [item(LABELS.takeBackFromHere(after + 1), `/rewind ${after + 1}`)]),
    );
    const box = near.getBoundingClientRect();
    popup.style.top = `${box.bottom + 2}px`;
    // Its right edge under the button's, however long its items are.
    popup.style.right = `${Math.max(0, document.documentElement.clientWidth - box.right)}px`;
    popup.showPopover();
    items()[0]?.focus({ preventScroll: true });
  };
}
