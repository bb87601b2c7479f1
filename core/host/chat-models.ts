import type { HacConfig, ModelConfig } from '../config/load-config.js';
import type { Logger } from '../logging/logger.js';
import type { ChatModel } from '../providers/chat-model.js';
import { createChatModel } from '../providers/create-chat-model.js';

/**
 * Each configured model's SDK client, made once (its SDK loads on first use) and shared by every conversation;
 * a model whose entry changed gets a new one.
 */
export function sdkChatModels(
  configFile: string,
  config: () => HacConfig,
  logger: Logger,
  env: NodeJS.ProcessEnv,
): (model: ModelConfig) => Promise<ChatModel> {
  const made = new Map<string, Promise<ChatModel>>();
  return (model) => {
    const key = JSON.stringify(model);
    let chatModel = made.get(key);
    if (!chatModel) {
      chatModel = createChatModel({
        model,
        configFile,
        logger,
        env,
        // A debug copy of every answer only when the log would keep it.
        logResponses: config().logLevel === 'debug',
        extraBody: model.extraBody,
      });
      made.set(key, chatModel);
    }
    return chatModel;
  };
}
