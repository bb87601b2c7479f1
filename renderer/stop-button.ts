import type { ChatState } from './chat-state.js';
import type { HostEvent } from './core-types.js';

/** A Stop button beside the prompt while an answer or a command runs (Esc and Ctrl+C do the same). */
export function createStopButton(
  button: HTMLButtonElement,
  state: ChatState,
  stop: () => void,
): { react(event: HostEvent): void; dispose(): void } {
  const onClick = () => stop();
  button.addEventListener('click', onClick);
  return {
    react() {
      button.hidden = !state.busy || state.asking || state.ended !== undefined;
    },
    dispose: () => button.removeEventListener('click', onClick),
  };
}
