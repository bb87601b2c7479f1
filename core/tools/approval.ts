import { ASK_USER_SERVER, ASK_USER_TOOL_NAME } from '../prompt/ask-user-spec.js';
import type { Tool } from './tool.js';

export type ToolCallMode = 'manual' | 'auto';

/**
 * Whether a call needs the user's Y/N: always in manual mode; in auto mode only for tools
 * their server marks `destructiveHint: true`, unless `confirmDestructiveTools` is off. ask_user never asks (it
 * talks to the user itself); the built-in remember asks like any tool, as it writes the user's file.
 */
export function needsConfirmation(tool: Tool, mode: ToolCallMode, confirmDestructiveTools: boolean): boolean {
  if (isAskUser(tool)) return false;
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

/** The built-in question tool: a conversation with the user, not a call to show or approve. */
export function isAskUser(tool: { server: string; name: string }): boolean {
  return tool.server === ASK_USER_SERVER && tool.name === ASK_USER_TOOL_NAME;
}
