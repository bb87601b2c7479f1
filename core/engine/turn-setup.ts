import type { HacConfig, ModelConfig } from '../config/load-config.js';
import type { PromptServerSpec } from '../prompt/index.js';
import type { ChatModel } from '../providers/chat-model.js';
import { createAskUserTool } from '../tools/ask-user-tool.js';
import { createRememberTool } from '../tools/remember-tool.js';
import { fitTools, fittedToolsNotice, type ToolBounds } from '../tools/tool-limit.js';
import type { EngineEvent } from '../types/engine-event.js';
import type { Message } from '../types/message.js';
import type { EngineDeps } from './engine.js';
import type { EventChannel, PendingAnswers } from './event-channel.js';
import { loadTokenCounter, type TokenCounter } from './context/token-estimate.js';
import { nextQuestionId } from './question-ids.js';
import { groupByServer, TurnTools } from './resolve-calls.js';

/** Everything fixed for one turn. */
export interface TurnSetup {
  config: HacConfig;
  model: ModelConfig;
  chat: ChatModel;
  tools: TurnTools;
  servers: PromptServerSpec[];
  basePrompt: string;
  now: Date;
  /** Workspace and personal memory as the system prompt takes them (absent when memory is off). */
  memory?: { workspace: string; personal: string };
}

/** What setting up a turn needs from its engine. */
export interface TurnSetupContext {
  deps: EngineDeps;
  answers: PendingAnswers;
  /** Where lines setup has to say go (the tool limit, memory), and ask_user's questions. */
  channel: EventChannel<EngineEvent>;
  signal: AbortSignal;
  now: Date;
  summarise(messages: Message[], signal: AbortSignal): Promise<string>;
  /** Whether the tool-limit line was shown already (it is shown once per conversation). */
  toolLimitShown(): boolean;
}

/**
 * A turn's model, tools (the MCP servers' within a native API's limit, then the built-ins that are on) and the
 * parts of its system prompt read for it: the base prompt and the memories.
 */
export async function setUpTurn(
  config: HacConfig,
  model: ModelConfig,
  context: TurnSetupContext,
): Promise<TurnSetup> {
  const { deps, channel, signal } = context;
  const chat = await deps.chatModel(model);
  const memory = config.memory ? deps.memory : undefined;
  // A native API's tool limit and the tools' share of the budget: whole servers, in file order, until one is reached.
  const bounds = toolBounds(config, model, chat, await toolShareCounter(model));
  const builtinCount = (config.askUserTool ? 1 : 0) + (memory ? 1 : 0);
  const fitted = fitTools(deps.toolSource.tools(), bounds, builtinCount);
  const notice = fittedToolsNotice(model.label, bounds, fitted);
  if (notice.length && !context.toolLimitShown()) {
    for (const text of notice) {
      deps.logger.warn(text);
      channel.push({ type: 'notice', level: 'dim', text });
    }
  }
  const offered = fitted.offered;
  const ask = createAskUserTool((question, options, askSignal) => {
    const id = nextQuestionId();
    const reply = context.answers.expect(id, askSignal);
    channel.push({ type: 'question', id, question, ...(options ? { options } : {}) });
    return reply.then((given) => (typeof given === 'string' ? given : ''));
  });
  const builtins = [
    ...(config.askUserTool ? [ask] : []),
    ...(memory ? [createRememberTool((fact) => memory.remember(fact))] : []),
  ];
  const loaded = await memory?.book.load(
    Math.floor(config.contextMaxChars * config.memoryShare),
    (request, summarySignal) => context.summarise([{ role: 'user', content: request }], summarySignal),
    signal,
  );
  for (const { level, text } of loaded?.notices ?? []) channel.push({ type: 'notice', level, text });
  return {
    config,
    model,
    chat,
    tools: new TurnTools([...offered, ...builtins]),
    servers: groupByServer(offered),
    basePrompt: (await deps.basePrompt()) ?? '',
    now: context.now,
    ...(loaded && { memory: { workspace: loaded.workspace, personal: loaded.personal } }),
  };
}

/**
 * What the MCP tools of one request may take: a native API's count limit, and `toolShare` of the model's context
 * window in tokens where config.json (or the server's model list, when hac added the model) states it, else of
 * contextMaxChars in characters. Everyday servers fit a large window: the 80,000-character default alone left
 * four of seven common servers out.
 */
export function toolBounds(
  config: HacConfig,
  model: ModelConfig,
  chat: ChatModel,
  tokens?: TokenCounter,
): ToolBounds {
  const count = model.toolMode === 'native' && chat.maxTools !== undefined && { maxTools: chat.maxTools };
  if (model.contextWindow !== undefined && tokens)
    return {
      ...count,
      maxSize: Math.floor(model.contextWindow * config.toolShare),
      unit: 'tokens',
      shareOf: `the context window of ${model.label}, ${model.contextWindow.toLocaleString('en-US')} tokens`,
      size: (text) => tokens.text(text),
    };
  return {
    ...count,
    maxSize: Math.floor(config.contextMaxChars * config.toolShare),
    unit: 'characters',
    shareOf: 'contextMaxChars',
    size: (text) => text.length,
  };
}

/** The token counter a model's tool share is measured with: loaded only for a model whose window is known. */
export async function toolShareCounter(model: ModelConfig): Promise<TokenCounter | undefined> {
  return model.contextWindow === undefined ? undefined : loadTokenCounter().catch(() => undefined);
}
