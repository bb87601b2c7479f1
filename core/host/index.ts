// The host layer: what every front end (cli/, electron/, the `hac web` server) uses, and nothing else of core.
export { createRuntime, type Runtime, type RuntimeOptions, type Chat, type McpView } from './runtime.js';
export { ChatController, BUSY_TEXT, ASK_PROMPT, type InterruptResult } from './chat-controller.js';
export type {
  HostEvent,
  HostEventType,
  PromptKind,
  ErrorReport,
  ReportedProblem,
  ChatStatus,
} from '../types/host-event.js';
export type { HacBridge, BridgeCall, BridgeMessage, BridgeMethod, BridgeParams } from './bridge.js';
export { BRIDGE_LIMITS } from './bridge.js';
export { parseBridgeCall } from './bridge-schema.js';
export { errorReport } from './error-report.js';
export { runTurn, type Ask, type EngineQuestion } from './run-turn.js';
export { watchMcpProblems, type McpProblem } from './mcp-problems.js';
export {
  loadHistory,
  saveHistory,
  createInputHistory,
  HISTORY_SIZE,
  type InputHistory,
} from './input-history.js';
export {
  BridgeSession,
  sharedRuntime,
  type BridgeSessionOptions,
  type RuntimeSource,
} from './bridge-session.js';
