import type { Logger } from '../logging/logger.js';

const SDK_PREFIX = '[mcp-sdk] ';
let target: Logger | undefined;

/**
 * The MCP SDK reports some events (a refresh token the server refused, an old stored sign-in) with
 * `console.warn`, which would land on the user's screen in the middle of a conversation. hac sends those lines
 * to its log instead; every other warning goes where it went before.
 */
export function routeSdkWarnings(logger: Logger): void {
  if (target === undefined) {
    const original = console.warn.bind(console);
    console.warn = (...args: unknown[]) => {
      const [first] = args;
      if (target && typeof first === 'string' && first.startsWith(SDK_PREFIX)) {
        target.warn(`MCP SDK: ${first.slice(SDK_PREFIX.length)}`);
        return;
      }
      original(...args);
    };
  }
  target = logger;
}
