import { ASK_USER_SERVER, ASK_USER_TOOL_NAME } from '../prompt/ask-user-spec.js';
import { sha256Hex } from '../text/sha256.js';
import type { Tool } from './tool.js';

export type ToolCallMode = 'manual' | 'auto';

/**
 * Whether a call needs the user's Y/N: always in manual mode; in auto mode only for tools
 * their server marks `destructiveHint: true`, unless `confirmDestructiveTools` is off. ask_user never asks (it
 * talks to the user itself); the built-in remember asks like any tool, as it writes the user's file.
 */
export function needsConfirmation(
  tool: Pick<Tool, 'server' | 'name' | 'annotations'>,
  mode: ToolCallMode,
  confirmDestructiveTools: boolean,
): boolean {
  if (isAskUser(tool)) return false;
  if (mode === 'manual') return true;
  return confirmDestructiveTools && tool.annotations.destructiveHint === true;
}

/**
 * How a typed reply to `Call now? (Y/N): ` reads: yes, always (yes, and this tool without asking from now on), no,
 * or neither (ask again).
 */
export function readConfirmation(reply: string): 'yes' | 'always' | 'no' | 'invalid' {
  const answer = reply.trim().toLowerCase();
  if (answer === 'y' || answer === 'yes') return 'yes';
  if (answer === 'a' || answer === 'always') return 'always';
  if (answer === 'n' || answer === 'no') return 'no';
  return 'invalid';
}

/** The built-in question tool: a conversation with the user, not a call to show or approve. */
export function isAskUser(tool: { server: string; name: string }): boolean {
  return tool.server === ASK_USER_SERVER && tool.name === ASK_USER_TOOL_NAME;
}

/** The tools the user allowed for good (config.json `allowedTools`), and what each said when it was allowed. */
export interface AllowedTools {
  tools: readonly string[];
  /** `server/tool` to a digest of its description then: a tool that now says something else asks again. */
  digests: Readonly<Record<string, string>>;
}

/** The name an approval is kept under. */
export function approvalKey(tool: { server: string; name: string }): string {
  return `${tool.server}/${tool.name}`;
}

/** What an approval keeps of a tool's description: enough to see that it changed, nothing to read. */
export function descriptionDigest(description: string): string {
  return sha256Hex(description).slice(0, 16);
}

/** Whether the user allowed this tool for good, and it still describes itself as it did then. */
export function isAllowed(
  tool: Pick<Tool, 'server' | 'name' | 'description'>,
  allowed: AllowedTools,
): boolean {
  const key = approvalKey(tool);
  if (!allowed.tools.includes(key)) return false;
  const digest = allowed.digests[key];
  // An entry written by hand has no digest: the user allowed the tool whatever it says.
  return digest === undefined || digest === descriptionDigest(tool.description);
}
