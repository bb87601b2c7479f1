// What a page may import from the core (the renderer bundles it): the transcript, so a window prints exactly
// what the CLI prints, and the types of the bridge and its events. No `node:` module is reachable from here.
export {
  TranscriptRenderer,
  toolCallSummary,
  PROMPT,
  WAITING_LINE,
  THINKING_START,
  THINKING_END,
  CONFIRM_QUESTION,
} from './transcript/transcript.js';
export { stylesFor, ANSI_STYLES, PLAIN_STYLES, type Styles } from './transcript/styles.js';
export { loadHighlighter } from './transcript/highlight.js';
export type { MarkdownOptions } from './transcript/markdown-stream.js';
export type {
  HostEvent,
  HostEventType,
  PromptKind,
  ErrorReport,
  ChatStatus,
  InterruptResult,
} from './types/host-event.js';
export type { HacBridge, BridgeCall, BridgeMessage, BridgeMethod, BridgeParams } from './host/bridge.js';
