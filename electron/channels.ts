/** The one channel for calls from the page, in order (R-DESK-4: no generic channel besides it). */
export const CALL_CHANNEL = 'hac:call';
/** Batches of host events to the page (R-DESK-8). */
export const EVENTS_CHANNEL = 'hac:events';
