// The core's public surface for hosts that run on Node (cli/, electron/, the `hac web` server): the host layer,
// the transcript they print with, and the few helpers a host needs before a conversation exists. Nothing else of
// the core is reachable from a front end (test/architecture); a page uses core/browser.ts.
export { createRuntime, type Runtime } from './host/runtime.js';
export { ChatController } from './host/chat-controller.js';
export type { ViewPages } from './host/view-pages.js';
/** The pages views (MCP Apps) are shown in: loaded on the first view (its servers need node:crypto and ws). */
export const loadViewPages = () => import('./host/view-pages.js');
export { imageSourceOf } from './host/attachments.js';
export { BridgeSession, sharedRuntime, type RuntimeSource } from './host/bridge-session.js';
export { parseBridgeCall } from './host/bridge-schema.js';
export { webToken } from './host/web-token.js';
export type { BridgeMessage } from './host/bridge.js';
export {
  createInputHistory,
  loadHistory,
  saveHistory,
  HISTORY_SIZE,
  type InputHistory,
} from './host/input-history.js';
export type { HostEvent } from './types/host-event.js';
export { TranscriptRenderer, PROMPT, SCREEN_READER_PROMPT } from './transcript/transcript.js';
export { WordWrap } from './transcript/word-wrap.js';
export { wrapOwnLines } from './transcript/own-lines.js';
export { stylesFor, ANSI_STYLES, PLAIN_STYLES } from './transcript/styles.js';
export { loadHighlighter } from './transcript/highlight.js';
export { HacError } from './errors/hac-error.js';
export { cellWidth } from './text/cell-width.js';
export { inertText } from './text/inert-text.js';
export { PastedText, PasteFolds } from './text/pasted-text.js';
export { hacPaths, userHome } from './config/paths.js';
export { serverState } from './commands/mcp-commands.js';
export {
  addServerEntry,
  readServerEntries,
  removeServerEntry,
  type ServerEntry,
} from './mcp/server-entries.js';
export { parseMcpServers } from './mcp/mcp-config.js';
export {
  IMPORT_SOURCES,
  importedServers,
  importFiles,
  readOtherClientFile,
  type ImportSource,
} from './mcp/import-servers.js';
export { addModelHint } from './config/add-model-hint.js';
export type { Logger } from './logging/logger.js';
export { nodeHttp, nodeUtil } from './node-builtins.js';
