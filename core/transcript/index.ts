// The transcript for every front end, browser-safe: no `node:` module is reachable from here (the renderer
// bundles it), so a window prints exactly what the CLI prints.
export {
  TranscriptRenderer,
  toolCallSummary,
  PROMPT,
  WAITING_LINE,
  THINKING_START,
  THINKING_END,
  CONFIRM_QUESTION,
} from './transcript.js';
export { stylesFor, ANSI_STYLES, PLAIN_STYLES, type Styles } from './styles.js';
export type { HostEvent, HostEventType, PromptKind, ErrorReport } from '../host/host-event.js';
