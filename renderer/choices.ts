import type { HostEvent } from './core-types.js';

/** A question's options as buttons above the prompt; a click answers with the option's number. */
export interface Choices {
  react(event: HostEvent): void;
  dispose(): void;
}

export function createChoices(element: HTMLElement, choose: (reply: string) => void): Choices {
  const show = (options: string[]) => {
    element.replaceChildren(
      ...options.map((label, i) => {
        const button = document.createElement('button');
        button.type = 'button';
        button.textContent = `${i + 1}) ${label}`;
        button.dataset.reply = String(i + 1);
        return button;
      }),
    );
    element.hidden = options.length === 0;
  };
  // One listener for every button there will be.
  const onClick = (event: MouseEvent) => {
    const reply = (event.target as HTMLElement).closest('button')?.dataset.reply;
    if (reply) choose(reply);
  };
  element.addEventListener('click', onClick);
  return {
    react(event) {
      if (event.type === 'prompt') show(event.choices ?? []);
      else if (event.type === 'input') show([]);
    },
    dispose: () => element.removeEventListener('click', onClick),
  };
}
