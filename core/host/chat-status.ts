import path from 'node:path';
import { userHome } from '../config/paths.js';
import type { ChatStatus } from '../types/host-event.js';
import { workingDirectory } from './attachments.js';
import type { Chat, Runtime } from './runtime.js';

/** The state a status bar shows for one conversation. */
export function chatStatus(
  runtime: Runtime,
  chat: Chat,
  mcp: ChatStatus['mcp'],
  busy: boolean,
  held: readonly number[],
): ChatStatus {
  const config = runtime.config();
  const model = config.activeModel;
  const context = chat.conversation.contextPercent;
  const tokens = chat.conversation.tokens();
  const session = chat.conversation.sessionFile;
  return {
    ...(model ? { model: model.label, provider: model.provider } : {}),
    toolMode: config.toolCallMode,
    markdown: config.markdown,
    mcp: { ...mcp },
    busy,
    ...(context !== undefined && { context }),
    ...(tokens > 0 && { tokens }),
    ...(config.memory && { workspace: homeShort(workingDirectory()) }),
    held: [...held],
    ...(session && { session: path.basename(session) }),
  };
}

/** How many exchanges (a message and its answer) the conversation holds. */
export function exchangeCount(chat: Chat): number {
  return chat.conversation.history.reduce((n, m) => n + (m.role === 'user' ? 1 : 0), 0);
}

/** A folder as people write it: `~/work/app` under the home folder. */
function homeShort(folder: string): string {
  const home = userHome();
  return folder === home || folder.startsWith(`${home}${path.sep}`)
    ? `~${folder.slice(home.length)}`
    : folder;
}
