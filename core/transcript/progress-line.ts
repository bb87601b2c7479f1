import type { EngineEvent } from '../types/engine-event.js';
import { cellWidth } from '../text/cell-width.js';
import { inertLine } from '../text/inert-text.js';

type ProgressEvent = Extract<EngineEvent, { type: 'tool-progress' }>;

const BAR_CELLS = 20;
/** Kept within the narrowest usual terminal, so that redrawing the line never leaves a wrapped part behind. */
const MAX_CELLS = 78;

/**
 * One line for a running call's progress: `fs/copy ▕██████░░░░░░░░░░░░░░▏ 30% (3 of 10) copying a.txt`, with a
 * bar where the server gives a total and the count alone where it does not. The server's words are inert and cut
 * to fit the line.
 */
export function progressLine(event: ProgressEvent): string {
  const { progress, total } = event;
  const known = total !== undefined && total > 0;
  const share = known ? Math.min(1, Math.max(0, progress / total)) : 0;
  const filled = Math.round(share * BAR_CELLS);
  const gauge = known
    ? `▕${'█'.repeat(filled)}${'░'.repeat(BAR_CELLS - filled)}▏ ${Math.round(share * 100)}% (${progress} of ${total})`
    : `${progress} so far`;
  const head = `${inertLine(`${event.server}/${event.tool}`)} ${gauge}`;
  const message = event.message ? ` ${inertLine(event.message)}` : '';
  return cutToCells(`${head}${message}`, MAX_CELLS);
}

function cutToCells(text: string, cells: number): string {
  if (cellWidth(text) <= cells) return text;
  let out = '';
  let used = 0;
  for (const char of text) {
    const width = cellWidth(char);
    if (used + width > cells - 1) break;
    used += width;
    out += char;
  }
  return `${out}…`;
}
