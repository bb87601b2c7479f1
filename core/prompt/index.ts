// The prompt protocol of prompt-mode models (tools described in the system prompt, calls found in the text): what the engine imports.
export {
  ASK_USER_DESCRIPTION,
  ASK_USER_INPUT_SCHEMA,
  ASK_USER_SERVER,
  ASK_USER_TOOL_NAME,
  builtinServerSpec,
  REMEMBER_DESCRIPTION,
  REMEMBER_INPUT_SCHEMA,
  REMEMBER_TOOL_NAME,
  askUserToolSpec,
} from './ask-user-spec.js';
export { composeSystemPrompt, promptServers, type SystemPromptInput } from './compose-system-prompt.js';
export { currentDateLine, localTimeZone } from './date-line.js';
export { FUNCTION_CALL_BLOCK } from './function-call-block.js';
export type { AttemptedCallError, FunctionCall, ToolCallRequest } from './function-call.js';
export { NO_TOOL_FUNCTIONS_BLOCK, hasAnyTool, renderFunctionsBlock } from './functions-block.js';
export { createHoldBack, type HoldBack, type HoldBackOutput, type HoldBackResult } from './hold-back.js';
export {
  NATIVE_NAME_MAX,
  createNativeToolNames,
  nativeToolName,
  type NativeToolNames,
} from './native-tool-names.js';
export { parseFunctionCalls, type ParsedModelText } from './parse-function-calls.js';
export type { PromptServerSpec, PromptToolSpec, ToolRef } from './prompt-tools.js';
