/**
 * Tab's candidates as a list over the foot of the transcript, as an editor shows them: ↑/↓ move, Enter or Tab
 * takes one, Escape (or typing on) closes it, a click takes one. Nothing is printed into the transcript, and the
 * prompt keeps the focus (the list is its `aria-activedescendant`, so a screen reader reads the one chosen).
 */
export interface CompletionList {
  readonly open: boolean;
  show(candidates: readonly string[], take: (candidate: string) => void): void;
  close(): void;
  /** A key pressed in the prompt while the list is open: true when the list took it. */
  key(event: KeyboardEvent): boolean;
  dispose(): void;
}

export function createCompletionList(list: HTMLElement, prompt: HTMLTextAreaElement): CompletionList {
  let items: HTMLElement[] = [];
  let chosen = 0;
  let take: ((candidate: string) => void) | undefined;

  const choose = (index: number) => {
    items[chosen]?.setAttribute('aria-selected', 'false');
    chosen = (index + items.length) % items.length;
    const item = items[chosen]!;
    item.setAttribute('aria-selected', 'true');
    item.scrollIntoView({ block: 'nearest' });
    prompt.setAttribute('aria-activedescendant', item.id);
  };
  const close = () => {
    list.hidden = true;
    list.replaceChildren();
    items = [];
    take = undefined;
    prompt.removeAttribute('aria-activedescendant');
  };
  const accept = () => {
    const candidate = items[chosen]?.textContent;
    const taking = take;
    close();
    if (candidate && taking) taking(candidate);
  };
  // A press on an item takes it without taking the focus from the prompt.
  const onPointerDown = (event: PointerEvent) => {
    const item = (event.target as HTMLElement).closest('[role=option]');
    if (!item) return;
    event.preventDefault();
    choose(items.indexOf(item as HTMLElement));
    accept();
  };
  list.addEventListener('pointerdown', onPointerDown);
  prompt.addEventListener('blur', close);
  // A textarea cannot be a combobox (no aria-expanded on it): it says it offers a list, and which one.
  prompt.setAttribute('aria-autocomplete', 'list');
  prompt.setAttribute('aria-controls', list.id);
  close();

  return {
    get open() {
      return !list.hidden;
    },
    show(candidates, taking) {
      take = taking;
      items = candidates.map((candidate, i) => {
        const item = document.createElement('li');
        item.id = `${list.id}-${i}`;
        item.setAttribute('role', 'option');
        item.setAttribute('aria-selected', 'false');
        item.textContent = candidate;
        return item;
      });
      list.replaceChildren(...items);
      list.hidden = false;
      chosen = 0;
      choose(0);
    },
    close,
    key(event) {
      if (list.hidden || event.isComposing || event.keyCode === 229) return false;
      switch (event.key) {
        case 'ArrowDown':
        case 'ArrowUp':
          choose(chosen + (event.key === 'ArrowDown' ? 1 : -1));
          break;
        case 'Enter':
        case 'Tab':
          accept();
          break;
        case 'Escape':
          close();
          break;
        default:
          return false; // typing goes on in the prompt (and closes the list)
      }
      event.preventDefault();
      return true;
    },
    dispose() {
      list.removeEventListener('pointerdown', onPointerDown);
      prompt.removeEventListener('blur', close);
    },
  };
}
