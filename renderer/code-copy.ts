import { CODE_MARK_OSC } from './core-types.js';
import { lineButton } from './line-button.js';
import type { TranscriptView } from './transcript-view.js';
import { LABELS } from './labels.js';

/**
 * A Copy button at the right of each code block's label line. The transcript marks where a block starts and, at
 * its end, what it holds (an OSC sequence the page reads as xterm parses it), so the button copies the code as
 * the model wrote it, not the screen's colours or wrapped lines. Returns its disposer.
 */
export function createCodeCopy(view: TranscriptView): () => void {
  const { terminal } = view;
  let start: ReturnType<typeof terminal.registerMarker> | undefined;
  const handler = terminal.parser.registerOscHandler(CODE_MARK_OSC, (data) => {
    if (data === 'start') {
      start = terminal.registerMarker(0);
      return true;
    }
    const marker = start;
    start = undefined;
    if (!marker || !data.startsWith('end;')) return true;
    const code = decodeURIComponent(data.slice(4));
    lineButton(terminal, marker, {
      className: 'copy-code',
      label: LABELS.copy,
      title: LABELS.copyTitle,
      onClick: (button) =>
        void navigator.clipboard.writeText(code).then(() => {
          button.textContent = LABELS.copied;
          setTimeout(() => (button.textContent = LABELS.copy), 1500);
        }),
    });
    return true;
  });
  return () => handler.dispose();
}
