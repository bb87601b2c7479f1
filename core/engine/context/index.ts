// The context window: what the engine calls before every LLM call. See prepare-context.ts.
export {
  prepareContext,
  prepareAfterOverflow,
  newContextSession,
  newContextTurn,
  budgetOf,
  OVERFLOW_SHRINK,
  type ContextConfig,
  type ContextNotice,
  type ContextSessionState,
  type ContextTurnState,
  type PrepareContextInput,
  type PreparedContext,
} from './prepare-context.js';
export {
  SUMMARY_PROMPT,
  SUMMARY_MESSAGE_PREFIX,
  summaryRequestMessages,
  summaryMessage,
  buildSummaryInput,
  trySummarise,
  type ContextSummary,
  type Summariser,
} from './summarize.js';
export { LAST_USER_QUERY_PREFIX, lastUserQueryLine } from './last-user-query.js';
export { budgetWarning, trimNotice, WARNING_RATIO } from './budget-warning.js';
export {
  measureRequest,
  messageChars,
  budgetRatio,
  type RequestSize,
  type ContextBudget,
} from './measure.js';
export { loadTokenCounter, type TokenCounter } from './token-estimate.js';
export { trimToBudget, type TrimInput, type TrimResult } from './trim.js';
