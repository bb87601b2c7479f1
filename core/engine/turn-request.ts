import { composeSystemPrompt, type createNativeToolNames } from '../prompt/index.js';
import type { ChatRequest, NativeToolSpec } from '../providers/chat-model.js';
import type { PreparedContext } from './context/index.js';
import type { TurnSetup } from './turn-setup.js';

export const TOOL_LIMIT_NOTE = 'Tool call limit reached. Answer with what you have.';

/** The system prompt of one model call; `withhold`: the tool-round limit was reached, so no tools are offered. */
export function turnSystemPrompt(
  setup: TurnSetup,
  timeZone: string,
  withhold: boolean,
  lastUserQuery?: string,
): string {
  const system = composeSystemPrompt({
    basePrompt: setup.basePrompt,
    now: setup.now,
    timeZone,
    toolMode: setup.model.toolMode,
    servers: withhold ? [] : setup.servers,
    askUserTool: !withhold && setup.config.askUserTool,
    rememberTool: !withhold && setup.memory !== undefined,
    ...(setup.memory && { memory: setup.memory }),
    ...(lastUserQuery !== undefined ? { lastUserQuery } : {}),
  });
  return withhold ? `${system}\n\n${TOOL_LIMIT_NOTE}` : system;
}

/** One model call's request: the system prompt, the prepared context and, in native mode, the tools. */
export function turnRequest(
  setup: TurnSetup,
  timeZone: string,
  prepared: PreparedContext,
  withhold: boolean,
  entries: ReturnType<typeof createNativeToolNames>['entries'],
  native: boolean,
): ChatRequest {
  const system = turnSystemPrompt(setup, timeZone, withhold, prepared.lastUserQuery);
  const request: ChatRequest = { messages: [{ role: 'system', content: system }, ...prepared.messages] };
  if (native && !withhold && entries.length) {
    request.tools = entries.map((e): NativeToolSpec => {
      const tool = setup.tools.find(e.server, e.name)!;
      return { name: e.nativeName, description: tool.description, parameters: tool.inputSchema };
    });
  }
  return request;
}
