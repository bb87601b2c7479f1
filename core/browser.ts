// What a page may import from the core (the renderer bundles it): the transcript, so a window prints exactly
// what the CLI prints, and the types of the bridge and its events. No `node:` module is reachable from here.
export { TranscriptRenderer } from './transcript/transcript.js';
export { ANSI_STYLES, PLAIN_STYLES } from './transcript/styles.js';
export { loadHighlighter } from './transcript/highlight.js';
export { CODE_MARK_OSC } from './transcript/markdown-stream.js';
export type { HostEvent, ChatStatus } from './types/host-event.js';
export type {
  HacBridge,
  BridgeMessage,
  BridgeMethod,
  BridgeParams,
  FormReply,
  SessionView,
} from './host/bridge.js';
export { ShownEvents } from './host/shown-events.js';
export { WordWrap } from './transcript/word-wrap.js';
export { PastedText, PasteFolds } from './text/pasted-text.js';
export { inertControls } from './text/inert-text.js';
