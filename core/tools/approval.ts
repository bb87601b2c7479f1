import { ASK_USER_SERVER as BUILTIN_SERVER } from '../prompt/ask-user-spec.js';
import type { Tool } from './tool.js';

export type ToolCallMode = 'manual' | 'auto';

/**
 * Whether a call needs the user's Y/N: always in manual mode; in auto mode only for tools
 * their server marks `destructiveHint: true`, unless `confirmDestructiveTools` is off. Built-ins such
 * as ask_user never ask (they talk to the user themselves).
 */
export function needsConfirmation(tool: Tool, mode: ToolCallMode, confirmDestructiveTools: boolean): boolean {
  if (tool.server === BUILTIN_SERVER) return false;
  if (mode === 'manual') return true;
  return confirmDestructiveTools && tool.annotations.destructiveHint === true;
}

/** How a typed reply to `Call now? (Y/N): ` reads: yes, no, or neither (ask again). */
export function readConfirmation(reply: string): 'yes' | 'no' | 'invalid' {
  const answer = reply.trim().toLowerCase();
  if (answer === 'y' || answer === 'yes') return 'yes';
  if (answer === 'n' || answer === 'no') return 'no';
  return 'invalid';
}
