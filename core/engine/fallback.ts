import type { ModelConfig } from '../config/load-config.js';
import { ProviderError } from '../errors/provider-error.js';
import type { EngineEvent } from '../types/engine-event.js';

/** Failures another model may not have, and how the fallback line says each. Never `auth` or `bad-request`. */
const REASONS: Record<string, string> = {
  unavailable: 'is unavailable',
  timeout: 'did not answer in time',
  'rate-limit': 'is rate-limited',
  'model-not-found': 'was not found',
};

/** Events after which a turn has said or done something: it is never handed to a fallback model. */
const ACTS = new Set<EngineEvent['type']>([
  'text-delta',
  'thinking-start',
  'tool-call',
  'question',
  'confirmation-request',
]);

/** Whether a turn that yielded this event has said or done something. */
export function acts(event: EngineEvent): boolean {
  return ACTS.has(event.type);
}

/**
 * The line that hands a failed turn to the next model (`gpt-4o is unavailable; answering with claude-sonnet-4-6.`),
 * or undefined when the failure is not one another model may not have.
 */
export function fallbackLine(error: unknown, failed: ModelConfig, next: ModelConfig): string | undefined {
  const reason = error instanceof ProviderError ? REASONS[error.code] : undefined;
  return reason && `${failed.label} ${reason}; answering with ${next.label}.`;
}
