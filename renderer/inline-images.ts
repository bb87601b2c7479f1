import type { Terminal } from '@xterm/xterm';
import type { HostEvent } from './core-types.js';
import { LABELS } from './labels.js';

type Images = Extract<HostEvent, { type: 'images' }>['images'];

/** How many transcript rows a picture takes (its line above says its real size). */
const PICTURE_ROWS = 12;

/**
 * The pictures of a message drawn in the transcript below their `[image: …]` lines: blank rows are written for
 * each, and the picture is laid over them as xterm decorations, so it scrolls with the text and the page's CSP
 * (data: images only, no WebAssembly) holds. xterm hides a decoration once its first row leaves the screen, so
 * each row of a picture is a decoration of its own showing its strip of the picture: the picture scrolls off row
 * by row, as text does. The first strip is the picture for assistive technology; a click on any opens it at its
 * size in a dialog.
 */
export function picturesBelow(images: Images): { rows: string; place(terminal: Terminal): void } {
  const shown = images.filter((image) => image.data);
  return {
    rows: '\r\n'.repeat(shown.length * PICTURE_ROWS),
    place(terminal) {
      shown.forEach((image, i) => {
        const src = `data:${image.mediaType};base64,${image.data}`;
        const top = -(shown.length - i) * PICTURE_ROWS;
        for (let row = 0; row < PICTURE_ROWS; row++) {
          const marker = terminal.registerMarker(top + row);
          if (!marker) continue;
          const decoration = terminal.registerDecoration({ marker, height: 1, width: terminal.cols });
          decoration?.onRender((element) => {
            if (element.firstChild) return;
            element.classList.add('picture-strip');
            element.append(strip(src, image.name, row));
          });
        }
      });
    },
  };
}

/** Row `row` of a picture: the whole picture, as tall as its rows, moved up behind its one-row window. */
function strip(src: string, name: string, row: number): HTMLImageElement {
  const picture = document.createElement('img');
  picture.src = src;
  picture.style.top = `${-row * 100}%`;
  picture.style.height = `${PICTURE_ROWS * 100}%`;
  if (row === 0) {
    picture.className = 'transcript-picture';
    picture.alt = name;
    picture.title = LABELS.openPicture(name);
  } else {
    picture.className = 'transcript-picture-part';
    picture.alt = '';
    picture.setAttribute('aria-hidden', 'true');
  }
  picture.addEventListener('click', () => open(src, name));
  return picture;
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
