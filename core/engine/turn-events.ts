import type { PreparedContext } from './context/index.js';
import { ProviderError } from '../errors/provider-error.js';
import type { Logger } from '../logging/logger.js';
import type { EngineEvent } from '../types/engine-event.js';

/** A message with pictures for a model known to take text only: said before anything is sent. */
export function noVisionMessage(label: string): string {
  return `${label} does not take images; nothing was sent. Choose a vision model with /set-model, or set "vision": true for it in config.json if it does take them.`;
}

/** What preparing the context has to say: a budget warning on screen, a trim on screen and in the log. */
export function* contextEvents(prepared: PreparedContext, logger: Logger): Generator<EngineEvent> {
  for (const notice of prepared.notices) {
    if (notice.type === 'budget-warning' || notice.type === 'cut')
      yield { type: 'notice', level: 'dim', text: notice.text };
    else if (notice.type === 'trimmed') {
      logger.warn(notice.text);
      yield {
        type: 'context-trimmed',
        removed: notice.removed,
        summarised: notice.summarised > 0,
        text: notice.text,
      };
    } else logger.warn(`Context summary not used: ${notice.text}`);
  }
}

/** `sentImagesTo`: the model a message with pictures went to; its server refusing them is said plainly. */
export function errorEvent(error: unknown, sentImagesTo?: string): Extract<EngineEvent, { type: 'error' }> {
  if (
    sentImagesTo &&
    error instanceof ProviderError &&
    error.code === 'bad-request' &&
    /image|vision|multimodal/i.test(error.message)
  )
    return { type: 'error', code: error.code, message: noVisionMessage(sentImagesTo) };
  if (error instanceof ProviderError) return { type: 'error', code: error.code, message: error.message };
  return { type: 'error', code: 'internal', message: error instanceof Error ? error.message : String(error) };
}
