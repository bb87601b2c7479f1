/** The one channel for calls from the page, in order (no generic channel besides it). */
export const CALL_CHANNEL = 'hac:call';
/** Batches of host events to the page. */
export const EVENTS_CHANNEL = 'hac:events';
