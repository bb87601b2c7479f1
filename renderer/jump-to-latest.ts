import type { TranscriptView } from './transcript-view.js';
import { LABELS } from './labels.js';

/**
 * A "jump to the latest" button over the transcript, shown while the user has scrolled up from the newest lines
 * (an answer may be streaming below); a click scrolls to the bottom. Returns its disposer.
 */
export function createJumpToLatest(view: TranscriptView, focusPrompt: () => void): () => void {
  const button = document.createElement('button');
  button.type = 'button';
  button.id = 'jump-to-latest';
  button.textContent = LABELS.latest;
  button.title = LABELS.latestTitle;
  button.hidden = true;
  view.element.append(button);
  const update = () => {
    const buffer = view.terminal.buffer.active;
    button.hidden = buffer.viewportY >= buffer.baseY;
  };
  const onClick = () => {
    view.terminal.scrollToBottom();
    focusPrompt();
  };
  button.addEventListener('click', onClick);
  const scrolled = view.terminal.onScroll(update);
  const written = view.terminal.onWriteParsed(update);
  return () => {
    scrolled.dispose();
    written.dispose();
    button.removeEventListener('click', onClick);
    button.remove();
  };
}
