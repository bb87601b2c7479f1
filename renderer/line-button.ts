import type { IDecoration, IMarker, Terminal } from '@xterm/xterm';

/** A small button at the right end of a transcript line (an xterm.js decoration), made once it is first drawn. */
export function lineButton(
  terminal: Terminal,
  marker: IMarker,
  button: {
    className: string;
    label: string;
    /** What a screen reader says for it, when the label is a glyph rather than words. */
    name?: string;
    /** The tooltip, and otherwise its name: one short word (`Show`) is not enough to tell buttons apart. */
    title: string;
    /** It opens a menu (a reader says so before it is pressed). */
    opensMenu?: boolean;
    onClick(element: HTMLButtonElement): void;
  },
): IDecoration | undefined {
  const decoration = terminal.registerDecoration({ marker, anchor: 'right', x: 1, width: 6 });
  decoration?.onRender((element) => {
    if (element.firstChild) return;
    const made = document.createElement('button');
    made.type = 'button';
    made.className = button.className;
    made.textContent = button.label;
    made.title = button.title;
    made.setAttribute('aria-label', button.name ?? button.title);
    if (button.opensMenu) {
      made.setAttribute('aria-haspopup', 'menu');
      made.setAttribute('aria-expanded', 'false');
    }
    made.addEventListener('click', () => button.onClick(made));
    element.append(made);
  });
  return decoration;
}
