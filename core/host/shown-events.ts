import type { HostEvent } from '../types/host-event.js';

/** About 2 MB of text: what a window keeps of its conversation to draw it again. */
const KEPT_CHARS = 2_000_000;

/**
 * The events a window's conversation showed, in order, to draw it again (a reload, a reconnect, a new width):
 * adjacent pieces of streamed text joined, the oldest dropped past a bound. Status events are not kept: the
 * state as it is now is what matters.
 */
export class ShownEvents {
  private events: HostEvent[] = [];
  private chars = 0;

  constructor(private readonly limit = KEPT_CHARS) {}

  add(event: HostEvent): void {
    // The state as it is now is what matters; a link opened once is not opened again.
    if (event.type === 'status' || event.type === 'open-link') return;
    const last = this.events.at(-1);
    const joins = event.type === 'text-delta' || event.type === 'thinking-delta';
    if (joins && last?.type === event.type && last.text.length < 65_536)
      this.events[this.events.length - 1] = { type: event.type, text: last.text + event.text };
    else this.events.push(event);
    this.chars += textLength(event) + 1;
    if (this.chars <= this.limit) return;
    // Drop the oldest quarter at once: rare, and linear in what is kept.
    this.events = this.events.slice(-Math.ceil((this.events.length * 3) / 4));
    this.chars = this.events.reduce((n, e) => n + textLength(e) + 1, 0);
  }

  list(): readonly HostEvent[] {
    return this.events;
  }

  clear(): void {
    this.events = [];
    this.chars = 0;
  }
}

function textLength(event: HostEvent): number {
  return 'text' in event && typeof event.text === 'string' ? event.text.length : 0;
}
