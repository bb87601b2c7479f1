import type { Terminal } from '@xterm/xterm';
import type { HostEvent } from './core-types.js';

type Images = Extract<HostEvent, { type: 'images' }>['images'];

/** How many transcript rows a picture takes (its line above says its real size). */
const PICTURE_ROWS = 12;

/**
 * The pictures of a message drawn in the transcript below their `[image: …]` lines: blank rows are written for
 * each, and an `<img>` is laid over them as an xterm decoration, so it scrolls with the text and the page's
 * CSP (data: images only, no WebAssembly) holds. A click opens the picture at its size in a dialog.
 */
export function picturesBelow(images: Images): { rows: string; place(terminal: Terminal): void } {
  const shown = images.filter((image) => image.data);
  return {
    rows: '\r\n'.repeat(shown.length * PICTURE_ROWS),
    place(terminal) {
      shown.forEach((image, i) => {
        const marker = terminal.registerMarker(-(shown.length - i) * PICTURE_ROWS);
        if (!marker) return;
        const decoration = terminal.registerDecoration({
          marker,
          height: PICTURE_ROWS,
          width: terminal.cols,
        });
        decoration?.onRender((element) => {
          if (element.firstChild) return;
          const picture = document.createElement('img');
          picture.className = 'transcript-picture';
          picture.src = `data:${image.mediaType};base64,${image.data}`;
          picture.alt = image.name;
          picture.title = `${image.name} (click to open)`;
          picture.addEventListener('click', () => open(picture.src, image.name));
          element.append(picture);
        });
      });
    },
  };
}

/** The picture at its own size (within the window), closed with Escape or a click. */
function open(src: string, name: string): void {
  const dialog = document.createElement('dialog');
  dialog.className = 'picture-dialog';
  dialog.setAttribute('aria-label', name);
  const picture = document.createElement('img');
  picture.src = src;
  picture.alt = name;
  dialog.append(picture);
  dialog.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}
