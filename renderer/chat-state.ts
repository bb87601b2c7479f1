import type { HostEvent } from './core-types.js';

/** Where the conversation is, as the page's parts need it; mirrored on <body data-state> for styles and tests. */
export interface ChatState {
  /** A question waits for a reply (Y/N, a numbered choice, the model's ask_user, a server's form). */
  readonly asking: boolean;
  /** A turn or a command runs. */
  readonly busy: boolean;
  /** This conversation ended (`/exit`, Ctrl+C twice); `hac` when hac itself is gone too. */
  readonly ended: 'conversation' | 'hac' | undefined;
  /** The ids of the messages the conversation holds now, as the last status said. */
  readonly held: readonly number[];
  react(event: HostEvent): void;
}

export function createChatState(body: HTMLElement): ChatState {
  let asking = false;
  let busy = false;
  let ended: ChatState['ended'];
  let held: readonly number[] = [];
  const show = () => (body.dataset.state = ended ? 'ended' : asking ? 'asking' : busy ? 'working' : 'ready');
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
    get held() {
      return held;
    },
    react(event) {
      if (event.type === 'prompt' || event.type === 'form') asking = true;
      else if (event.type === 'input' || event.type === 'prompt-withdrawn') asking = false;
      else if (event.type === 'status') {
        busy = event.status.busy;
        held = event.status.held ?? [];
      } else if (event.type === 'exit') ended = event.hacEnded ? 'hac' : 'conversation';
      else return;
      show();
    },
  };
}
