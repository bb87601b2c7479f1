import type { ChatState } from './chat-state.js';
import type { HostEvent } from './core-types.js';
import { LABELS } from './labels.js';

/**
 * Buttons above the prompt for what can be clicked instead of typed: a question's options (Yes and No for a
 * tool call), and a new conversation once this one has ended. They go when their question ends, however it ends.
 */
export interface Choices {
  react(event: HostEvent): void;
  dispose(): void;
}

export function createChoices(
  element: HTMLElement,
  state: ChatState,
  actions: { reply(text: string): void; restart(): void },
): Choices {
  const show = (buttons: { label: string; reply: string }[]) => {
    element.replaceChildren(
      ...buttons.map(({ label, reply }) => {
        const button = document.createElement('button');
        button.type = 'button';
        button.textContent = label;
        button.dataset.reply = reply;
        return button;
      }),
    );
    element.hidden = buttons.length === 0;
  };
  // One listener for every button there will be; a button of a question that has ended does nothing.
  const onClick = (event: MouseEvent) => {
    const reply = (event.target as HTMLElement).closest('button')?.dataset.reply;
    if (reply === undefined) return;
    if (state.ended === 'conversation' && reply === '') return actions.restart();
    if (state.asking) actions.reply(reply);
  };
  element.addEventListener('click', onClick);
  return {
    react(event) {
      switch (event.type) {
        case 'prompt':
          return show(
            event.kind === 'confirm'
              ? [
                  { label: LABELS.yes, reply: 'y' },
                  { label: LABELS.no, reply: 'n' },
                  { label: LABELS.always, reply: 'a' },
                ]
              : (event.choices ?? []).map((label, i) => ({
                  label: `${i + 1}) ${label}`,
                  reply: String(i + 1),
                })),
          );
        case 'input':
        case 'prompt-withdrawn':
          return show([]);
        case 'exit':
          return show(event.hacEnded ? [] : [{ label: LABELS.newConversation, reply: '' }]);
      }
    },
    dispose: () => element.removeEventListener('click', onClick),
  };
}
