// The public surface of the core: hosts (cli/, electron/, the `hac web` server) import only from here.
export * from './host/index.js';
export { Engine, NO_ACTIVE_MODEL, RESPONSE_CANCELLED, CONNECTING_MCP } from './engine/engine.js';
export { runCommand, isCommand, completeCommand, COMMANDS } from './commands/run-command.js';
export type { CommandOutput, CommandContext, CommandQuestion } from './commands/command-types.js';
export {
  TranscriptRenderer,
  PROMPT,
  WAITING_LINE,
  THINKING_START,
  THINKING_END,
  CONFIRM_QUESTION,
} from './transcript/transcript.js';
export { stylesFor, ANSI_STYLES, PLAIN_STYLES, type Styles } from './transcript/styles.js';
export { loadHighlighter } from './transcript/highlight.js';
export type { MarkdownOptions } from './transcript/markdown-stream.js';
export { ConfigError, HacError } from './errors/hac-error.js';
export { hacPaths, resolveHome, type HacPaths } from './config/paths.js';
export type { EngineEvent, ErrorCode, TurnStatus } from './types/engine-event.js';
export type { Message, Usage } from './types/message.js';
export type { Logger } from './logging/logger.js';
