import type { HostEvent } from './core-types.js';

/** Where the conversation is, as the page's parts need it; mirrored on <body data-state> for styles and tests. */
export interface ChatState {
  /** A question waits for a reply (Y/N, a numbered choice, the model's ask_user). */
  readonly asking: boolean;
  /** A turn or a command runs. */
  readonly busy: boolean;
  /** `/exit` ended this conversation. */
  readonly ended: boolean;
  react(event: HostEvent): void;
}

export function createChatState(body: HTMLElement): ChatState {
  let asking = false;
  let busy = false;
  let ended = false;
  const show = () => (body.dataset.state = asking ? 'asking' : busy ? 'working' : 'ready');
  return {
    get asking() {
      return asking;
    },
    get busy() {
      return busy;
    },
    get ended() {
      return ended;
    },
    react(event) {
      if (event.type === 'prompt') asking = true;
      else if (event.type === 'input') asking = false;
      else if (event.type === 'status') busy = event.status.busy;
      else if (event.type === 'exit') ended = true;
      else return;
      show();
    },
  };
}
