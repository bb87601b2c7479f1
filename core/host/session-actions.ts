import path from 'node:path';
import type { CommandContext } from '../commands/command-types.js';
import type { SessionDownload, SessionRequest, SessionView } from './bridge.js';
import type { HostEvent } from '../types/host-event.js';
import type { Message } from '../types/message.js';

/** A window's session list: the recent sessions, or those holding every word of `query`, newest first. */
export async function sessionViews(commands: CommandContext, query: string): Promise<SessionView[]> {
  const words = query.trim().split(/\s+/).filter(Boolean);
  const list = words.length ? await commands.searchSessions(words) : await commands.listSessions();
  const current = commands.currentSession();
  return list.map((s) => ({
    name: s.name,
    modified: s.modifiedAt.toISOString(),
    current: s.file === current,
    ...(s.readable
      ? { title: s.title || s.name, messages: s.messageCount, ...(s.match ? { match: s.match } : {}) }
      : { title: s.name, messages: 0, unreadable: s.reason }),
  }));
}

/** What the session list asks of a session file besides opening it: rename, delete (to the trash), export. */
export async function changeSession(
  commands: CommandContext,
  sessionsDir: string,
  request: SessionRequest,
): Promise<string> {
  const file = path.join(sessionsDir, request.name);
  switch (request.action) {
    case 'rename': {
      const title = request.title.trim();
      if (!title) return 'A title cannot be empty.';
      return (await commands.renameSession(title, file)) ? `Renamed to "${title}".` : 'Nothing to rename.';
    }
    case 'delete': {
      const current = commands.currentSession() === file;
      await commands.deleteSession(file);
      if (current) await commands.newSession();
      return `Moved ${request.name} to sessions/.trash/ (kept 30 days).${current ? ' This window starts a new session.' : ''}`;
    }
    case 'open':
      return 'Opening is the conversation’s own: see ChatController.manageSession.';
    case 'export': {
      // Never over an existing file: the next free name instead (a window has no question to ask first).
      const base = request.name.replace(/\.json$/, '');
      for (let n = 1; n < 100; n++) {
        const target = `${base}${n > 1 ? `-${n}` : ''}.${request.format}`;
        const written = await commands.exportSession(request.format, target, false, file);
        if (written && 'file' in written) return `Exported to ${written.file}`;
      }
      return 'Not exported: no free file name.';
    }
  }
}

/** A session of the list as a file for the page to download, or why it cannot be. */
export async function downloadSession(
  commands: CommandContext,
  file: string,
  format: 'md' | 'json',
): Promise<SessionDownload> {
  try {
    return await commands.downloadSession(format, file);
  } catch (error) {
    return { error: `Not downloaded: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** The messages of a resumed conversation a window shows: its last 50. */
const RESUMED_SHOWN = 50;

/** The end of a resumed conversation as it looked when it was held: questions and answers. */
export function resumedEvents(messages: readonly Message[], ids: readonly number[]): HostEvent[] {
  const earlier = messages.length - RESUMED_SHOWN;
  const events: HostEvent[] = [];
  if (earlier > 0) events.push({ type: 'notice', level: 'dim', text: `(${earlier} earlier messages)` });
  let exchange = messages.slice(0, Math.max(0, earlier)).filter((m) => m.role === 'user').length;
  for (const message of messages.slice(Math.max(0, earlier))) {
    if (message.role === 'user')
      events.push({ type: 'input', text: message.content, reply: false, id: ids[exchange++], resumed: true });
    else if (message.role === 'assistant')
      events.push({ type: 'text-delta', text: message.content }, { type: 'turn-end', status: 'answered' });
  }
  return events;
}
