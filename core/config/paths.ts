import os from 'node:os';
import path from 'node:path';

/** Every file hac owns, derived from one home folder. The only module that knows where the home is. */
export interface HacPaths {
  home: string;
  config: string;
  systemPrompt: string;
  mcpServers: string;
  /** Each MCP server's tools as last listed, offered while it starts (see known-tools.ts). */
  mcpTools: string;
  /** Sign-ins of remote MCP servers (tokens), one 0600 file per server. */
  mcpAuth: string;
  sessions: string;
  logs: string;
  history: string;
  /** The user's personal memory, one fact per line. */
  memory: string;
  /** Whole tool results too long for the screen, saved by `/tool <n>`. */
  toolResults: string;
  /** The key of `hac web`'s address, kept across its restarts. */
  webToken: string;
}

/** The user's home folder (`~`): $HOME, else the system's idea of it. */
export function userHome(env: NodeJS.ProcessEnv = process.env): string {
  // eslint-disable-next-line no-restricted-properties -- this is the one place allowed to ask.
  return env.HOME?.trim() || os.homedir();
}

/** The home folder: `HAC_HOME` if set, else `$HOME/.humble-ai-cli`. */
export function resolveHome(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.HAC_HOME?.trim();
  if (override) return path.resolve(override);
  return path.join(userHome(env), '.humble-ai-cli');
}

/** The paths of every file in a home folder. */
export function hacPaths(home: string = resolveHome()): HacPaths {
  return {
    home,
    config: path.join(home, 'config.json'),
    systemPrompt: path.join(home, 'system_prompt.txt'),
    mcpServers: path.join(home, 'mcp-servers.json'),
    mcpTools: path.join(home, 'mcp-tools.json'),
    mcpAuth: path.join(home, 'mcp-auth'),
    sessions: path.join(home, 'sessions'),
    logs: path.join(home, 'logs'),
    history: path.join(home, 'history'),
    memory: path.join(home, 'memory.md'),
    toolResults: path.join(home, 'tool-results'),
    webToken: path.join(home, 'web-token'),
  };
}
