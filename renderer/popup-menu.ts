/** One choice of a popup menu: `run` undefined shows it switched off; `keepOpen` leaves the menu open after it. */
export interface MenuItem {
  label: string;
  run?: (item: HTMLButtonElement) => void;
  keepOpen?: boolean;
}

/**
 * A popup menu as screen readers and keyboards know one, beside the element that opened it: it opens with its
 * first item focused; Up/Down (round), Home/End move, Enter/Space choose, and Esc or Tab close it, back to that
 * element. One stop for Tab: its arrows move within.
 */
export function createPopupMenu(id: string, name: string) {
  const popup = document.createElement('div');
  popup.className = 'message-menu-popup';
  popup.id = id;
  popup.popover = 'auto';
  popup.setAttribute('role', 'menu');
  popup.setAttribute('aria-label', name);
  let opener: HTMLElement | undefined;

  const items = () => [...popup.querySelectorAll<HTMLButtonElement>('[role="menuitem"]')];
  // Closed without a choice, the keyboard goes back where it was; focusing must not scroll what is under it.
  const close = () => {
    popup.hidePopover();
    opener?.focus({ preventScroll: true });
  };
  const button = ({ label, run, keepOpen }: MenuItem) => {
    const made = document.createElement('button');
    made.type = 'button';
    made.tabIndex = -1;
    made.setAttribute('role', 'menuitem');
    made.textContent = label;
    // Still reachable with the arrows, so a reader hears why there is nothing to do.
    if (!run) made.setAttribute('aria-disabled', 'true');
    else
      made.addEventListener('click', () => {
        if (!keepOpen) popup.hidePopover();
        run(made);
      });
    return made;
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
    event.preventDefault(); // Esc here is the menu's, not the window's or a dialog's
    event.stopPropagation();
  });
  popup.addEventListener('toggle', (event) => {
    opener?.setAttribute('aria-expanded', String(event.newState === 'open'));
  });

  return {
    element: popup,
    /** Shows `choices` under `near` (its right edge under near's), the first focused. */
    show(near: HTMLElement, choices: MenuItem[]) {
      if (opener !== near) opener?.setAttribute('aria-expanded', 'false');
      opener = near;
      near.setAttribute('aria-controls', popup.id);
      popup.replaceChildren(...choices.map(button));
      const box = near.getBoundingClientRect();
      popup.style.top = `${box.bottom + 2}px`;
      popup.style.right = `${Math.max(0, document.documentElement.clientWidth - box.right)}px`;
      popup.showPopover();
      items()[0]?.focus({ preventScroll: true });
    },
  };
}
