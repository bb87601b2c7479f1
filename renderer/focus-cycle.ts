/** What Tab can reach in the window: controls that are shown and not switched off. */
const FOCUSABLE = 'button, input, select, textarea, a[href], iframe, [tabindex]:not([tabindex="-1"])';

/**
 * Keeps Tab inside the window: past the last control it comes round to the first (the transcript's buttons), and
 * Shift+Tab the other way, rather than leaving for the page itself or the browser's own bar.
 */
export function keepFocusInside(root: HTMLElement): () => void {
  const controls = () =>
    [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
      (element) =>
        element.tabIndex >= 0 &&
        !(element as HTMLButtonElement).disabled &&
        !element.closest('[hidden], dialog:not([open])') &&
        element.getClientRects().length > 0,
    );
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Tab' || event.defaultPrevented || event.ctrlKey || event.altKey || event.metaKey)
      return;
    const all = controls();
    const edge = event.shiftKey ? all[0] : all.at(-1);
    if (!edge || document.activeElement !== edge) return;
    event.preventDefault();
    (event.shiftKey ? all.at(-1) : all[0])?.focus();
  };
  root.addEventListener('keydown', onKeyDown);
  return () => root.removeEventListener('keydown', onKeyDown);
}
