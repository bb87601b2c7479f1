import type { CommandContext } from '../commands/command-types.js';
import type { Conversation } from '../engine/conversation.js';
import type { FileSessionStore } from '../sessions/session-store.js';
import { exportSession, sessionDownload } from '../sessions/session-export.js';
import { workingDirectory } from './attachments.js';

/** The commands about one conversation and the saved sessions: what it has, and the other sessions it can open. */
export type ConversationCommands = Pick<
  CommandContext,
  | 'toolResults'
  | 'newSession'
  | 'listSessions'
  | 'searchSessions'
  | 'currentSession'
  | 'renameSession'
  | 'deleteSession'
  | 'exportSession'
  | 'downloadSession'
  | 'lastExchanges'
  | 'usage'
  | 'rewind'
  | 'undoRewind'
  | 'resumeSession'
>;

export function conversationCommands(
  conversation: Conversation,
  sessions: FileSessionStore,
): ConversationCommands {
  return {
    toolResults: () => conversation.toolResults,
    newSession: async () => {
      // The last answer's save (behind the prompt) is on disk before the conversation starts over.
      await conversation.settled();
      conversation.reset();
    },
    listSessions: () => sessions.list(20),
    searchSessions: (words) => sessions.search(words, 20),
    currentSession: () => conversation.sessionFile,
    async renameSession(title, file) {
      if (!file || file === conversation.sessionFile) return conversation.rename(title);
      return sessions.rename(file, await sessions.load(file), title);
    },
    deleteSession: (file) => sessions.trash(file),
    async exportSession(format, target, overwrite, file) {
      const other = file && file !== conversation.sessionFile;
      const saved = other ? { file, session: await sessions.load(file) } : await conversation.saved();
      if (!saved) return undefined;
      return exportSession(saved.file, saved.session, format, target, workingDirectory(), overwrite);
    },
    downloadSession: async (format, file) => sessionDownload(file, await sessions.load(file), format),
    lastExchanges: (n) => conversation.lastExchanges(n),
    usage: () => ({ turns: conversation.usage(), context: conversation.contextPercent }),
    rewind: (n, options) => conversation.rewind(n, options),
    undoRewind: () => conversation.undoRewind(),
    resumeSession: (file) => conversation.resume(file),
  };
}
