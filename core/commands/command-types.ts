import type { ToolCallMode } from '../tools/approval.js';
import type { Tool } from '../tools/tool.js';
import type { HacConfig, ModelConfig } from '../config/load-config.js';
import type { DiscoveredModel } from '../config/discovered-model.js';
import type { ConfigError } from '../errors/hac-error.js';
import type { SessionListing } from '../sessions/session-store.js';
import type { MessageImage, Unanswered, Usage } from '../types/message.js';

/**
 * What a command produced: lines to print, optionally a follow-up question whose reply continues the
 * command, and whether hac should exit. Hosts print; commands never do.
 */
export interface CommandOutput {
  lines: string[];
  /** A link the front end opens in a browser where it can (the lines show it too). */
  openLink?: string;
  question?: CommandQuestion;
  exit?: boolean;
}

/**
 * A command's follow-up question: the prompt, the choices it offers (choice n is the reply `n`; `0` cancels),
 * so a window can make them clickable, and what a reply leads to.
 */
export interface CommandQuestion {
  prompt: string;
  choices: string[];
  answer(reply: string): Promise<CommandOutput>;
}

/** One configured MCP server as `/mcp` and `/toggle-mcp` show it. */
export interface McpServerView {
  name: string;
  enabled: boolean;
  description?: string;
  state: 'connecting' | 'connected' | 'failed' | 'disabled' | 'needs-sign-in';
  /** Remote servers can be signed in to (`/mcp login`). */
  remote: boolean;
  reason?: string;
  tools: { name: string; description: string }[];
  stderrTail: string[];
  /** The MCP protocol revision of the open session. */
  revision?: string;
  /** How many prompts and resources (with templates) it offers. */
  prompts?: number;
  resources?: number;
}

/** What the commands may do to the running hac. Implemented by createHac. */
export interface CommandContext {
  config(): HacConfig;
  /** The front end's own keys (key, what it does), listed by `/help` after the commands. */
  keys: readonly (readonly [string, string])[];
  /** Makes a configured model active (by index in models[]) or adds a discovered one as active; saves config.json. */
  setActiveModel(choice: { index: number } | { add: DiscoveredModel }): Promise<ModelConfig>;
  setToolCallMode(mode: ToolCallMode): Promise<void>;
  /** Allows a tool without asking from now on (config.json `allowedTools`), in every conversation. */
  allowTool(tool: Tool): Promise<void>;
  /** Takes `server/tool` off that list: its calls ask again. */
  disallowTool(key: string): Promise<void>;
  /** Forgets the conversation once its last save has ended; the next answered message starts a new file. */
  newSession(): Promise<void>;
  listSessions(): Promise<SessionListing[]>;
  /** The sessions holding every word, newest first, each with its matching line. */
  searchSessions(words: string[]): Promise<SessionListing[]>;
  /** Continues a session file; resolves with its message count. */
  resumeSession(file: string): Promise<number>;
  /** This conversation's session file, if it has one yet. */
  currentSession(): string | undefined;
  /**
   * Gives a session a title (its file is renamed after it): this conversation's, or the file named; the new file,
   * if there is one.
   */
  renameSession(title: string, file?: string): Promise<string | undefined>;
  /** Moves a session file to the trash (kept 30 days). */
  deleteSession(file: string): Promise<void>;
  /** Writes this conversation for the user to take away (see exportSession); undefined before the first answer. */
  exportSession(
    format: 'md' | 'json',
    target: string | undefined,
    overwrite: boolean,
    /** Another session file than this conversation's. */
    file?: string,
  ): Promise<{ file: string } | { exists: string } | undefined>;
  /** A session file as one file to download: Markdown with its pictures inside, or the file as saved. */
  downloadSession(format: 'md' | 'json', file: string): Promise<{ file: string; text: string }>;
  /** Each answered turn's tokens, oldest first, and how full the last request was (percent). */
  usage(): { turns: { user: string; model?: string; usage?: Usage }[]; context?: number };
  /** The last `n` exchanges of this conversation, oldest first (`unanswered`: a question still without answer). */
  lastExchanges(
    n: number,
  ): { user: string; answer: string; images?: MessageImage[]; unanswered?: Unanswered }[];
  /**
   * Takes back the last `n` exchanges; resolves with how many were. `save: false` leaves the session file as it is
   * until the next answer writes it, and `undoRewind` can put them back (a retry that got no answer).
   */
  rewind(n: number, options?: { save?: boolean }): Promise<number>;
  undoRewind(): Promise<void>;
  /** What memory holds now: memory.md (its path and text) and the workspace's AGENTS.md files. */
  memory(): Promise<{
    file: string;
    personal: string;
    files: { file: string; text: string }[];
    skipped: string[];
    /** When memory.md was last summarised (its snapshot written), if ever. */
    summarisedAt?: Date;
  }>;
  /** Puts memory.md.snapshot back as memory.md (the summary becomes the snapshot); its lines, or undefined. */
  restoreMemory(): Promise<number | undefined>;
  /** Adds a line to memory.md; resolves with the line written. */
  remember(fact: string): Promise<string>;
  /** Removes line n of memory.md; resolves with the line removed. */
  forget(n: number): Promise<string>;
  /** Configured servers in file order, the load error of mcp-servers.json if any. */
  mcpServers(): Promise<{ servers: McpServerView[]; error?: ConfigError; file: string }>;
  setMcpEnabled(name: string, on: boolean): Promise<void>;
  /** Starts a browser sign-in to a remote server: the link to open (undefined: connected without one). */
  mcpSignIn(name: string): Promise<{ url: string | undefined; done: Promise<void> }>;
  /** The address the browser ended on (or the code), pasted back. */
  mcpPasteSignIn(name: string, text: string): Promise<void>;
  /** Forgets a server's sign-in; resolves with whether there was one. */
  mcpSignOut(name: string): Promise<boolean>;
  /** The lines saying which servers' tools a request leaves out (count limit, tools' share), if any. */
  toolLimitLines(): Promise<string[]>;
  /** This conversation's last tool results, newest first (`whole`: all of it, when the model got a part). */
  toolResults(): readonly { summary: string; output: string; whole?: string }[];
  /** Saves a whole tool result as a new file in the home's tool-results folder; resolves with its path. */
  saveToolResult(label: string, text: string): Promise<string>;
  /** Installed Ollama models not in config.json; empty when no Ollama answers (fast). */
  discoverModels(): Promise<DiscoveredModel[]>;
}
