import type { HacBridge, SessionView } from './core-types.js';
import { LABELS } from './labels.js';
import { createPopupMenu } from './popup-menu.js';

/** How long typing pauses before the list searches (each key would otherwise search). */
const SEARCH_PAUSE_MS = 120;

/**
 * The session list (the ☰ button, Ctrl/Cmd+K): search as you type (an IME's composition searches once it commits),
 * newest first with the line that matched; open a session here or in a new window, rename it, export it as
 * Markdown or JSON, or delete it (to the trash, after a second click).
 */
export interface SessionList {
  open(): void;
  dispose(): void;
}

export function createSessionList(
  dialog: HTMLDialogElement,
  button: HTMLButtonElement,
  bridge: HacBridge,
  done: () => void,
): SessionList {
  const search = document.createElement('input');
  search.type = 'search';
  search.placeholder = LABELS.searchSessionsHint;
  search.setAttribute('aria-label', LABELS.searchSessions);
  search.spellcheck = false;
  const list = document.createElement('ul');
  list.className = 'session-items';
  const note = document.createElement('p');
  note.className = 'session-note';
  note.setAttribute('aria-live', 'polite');
  const close = document.createElement('button');
  close.type = 'button';
  close.textContent = LABELS.close;
  dialog.replaceChildren(search, list, note, close);

  let timer: ReturnType<typeof setTimeout> | undefined;
  let asked = 0;
  const refresh = async () => {
    const ask = ++asked;
    const found = await bridge.sessions(search.value);
    if (ask !== asked) return; // typed on meanwhile: a newer search answers
    list.replaceChildren(...found.map(item));
    list.setAttribute('aria-label', LABELS.sessions);
    // What an action said stays; an empty list says why it is empty.
    if (!found.length && !note.textContent)
      note.textContent = search.value.trim() ? LABELS.noMatch : LABELS.noSessions;
  };
  const later = () => {
    note.textContent = '';
    clearTimeout(timer);
    timer = setTimeout(() => void refresh(), SEARCH_PAUSE_MS);
  };
  const act = async (request: Parameters<HacBridge['manageSession']>[0]) => {
    note.textContent = await bridge.manageSession(request);
    if (request.action === 'open') return void dialog.close();
    await refresh();
  };

  // Exported where the page is, as a download: `hac web` may run on another machine (over SSH).
  const download = async (name: string, format: 'md' | 'json') => {
    const got = await bridge.downloadSession(name, format);
    if ('error' in got) return void (note.textContent = got.error);
    const type = format === 'md' ? 'text/markdown' : 'application/json';
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([got.text], { type: `${type};charset=utf-8` }));
    link.download = got.file;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
    note.textContent = LABELS.downloaded(got.file);
  };

  // One stop for Tab per list: the arrows move between sessions, Enter opens one, the menu key or ⋯ offers the
  // rest, each action named with the session's title.
  const menu = createPopupMenu('session-menu', LABELS.sessionActionsMenu);
  dialog.append(menu.element);
  const actions = (li: HTMLLIElement, title: HTMLElement, session: SessionView) => {
    const name = session.title;
    const readable = !session.unreadable;
    return [
      ...(readable
        ? [
            { label: LABELS.openSession(name), run: () => void act({ action: 'open', name: session.name }) },
            { label: LABELS.openInNewWindow(name), run: () => void bridge.openWindow(session.name) },
            { label: LABELS.renameSession(name), run: () => rename(li, title, session) },
            { label: LABELS.exportMarkdown(name), run: () => void download(session.name, 'md') },
            { label: LABELS.exportJson(name), run: () => void download(session.name, 'json') },
          ]
        : []),
      // A second choice deletes: one slip never loses a conversation.
      {
        label: LABELS.deleteSession(name),
        keepOpen: true,
        run: (item: HTMLButtonElement) => {
          if (item.dataset.sure) return void act({ action: 'delete', name: session.name });
          item.dataset.sure = 'yes';
          item.textContent = LABELS.deleteSure(name);
        },
      },
    ];
  };

  const item = (session: SessionView, index: number): HTMLLIElement => {
    const li = document.createElement('li');
    li.dataset.name = session.name;
    li.tabIndex = index === 0 ? 0 : -1;
    const title = document.createElement('strong');
    title.textContent = `${session.title}${session.current ? LABELS.thisWindow : ''}`;
    const about = document.createElement('small');
    about.textContent = session.unreadable
      ? LABELS.unreadable(session.unreadable)
      : LABELS.messageCount(new Date(session.modified).toLocaleString(navigator.languages), session.messages);
    li.append(title, about);
    if (session.match) {
      const match = document.createElement('span');
      match.className = 'session-match';
      match.textContent = session.match;
      li.append(match);
    }
    const more = document.createElement('button');
    more.type = 'button';
    more.tabIndex = -1; // the row is the stop; its menu key opens the same menu
    more.className = 'session-more';
    more.textContent = '⋯';
    more.setAttribute('aria-label', LABELS.sessionActions(session.title));
    more.setAttribute('aria-haspopup', 'menu');
    more.setAttribute('aria-expanded', 'false');
    // A search still on its way would redraw the list under the open menu: the menu wins.
    const showMenu = () => {
      clearTimeout(timer);
      asked++;
      menu.show(more, actions(li, title, session));
    };
    more.addEventListener('click', (event) => {
      event.stopPropagation();
      showMenu();
    });
    li.append(more);
    li.addEventListener('click', () => {
      if (!session.unreadable && !li.dataset.renaming) void act({ action: 'open', name: session.name });
    });
    li.addEventListener('keydown', (event) => {
      if (event.target !== li || event.isComposing) return;
      if (event.key === 'Enter' && !session.unreadable) void act({ action: 'open', name: session.name });
      else if (event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey)) showMenu();
      else return;
      event.preventDefault();
    });
    return li;
  };

  /** The title becomes a field: Enter (not one that commits an IME syllable) saves, Escape leaves it. */
  const rename = (li: HTMLLIElement, title: HTMLElement, session: SessionView) => {
    const field = document.createElement('input');
    field.value = session.title;
    field.setAttribute('aria-label', LABELS.newTitle);
    field.addEventListener('keydown', (event) => {
      if (event.isComposing || event.keyCode === 229) return;
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation(); // the dialog stays open
        field.replaceWith(title);
      } else if (event.key === 'Enter') {
        event.preventDefault();
        void act({ action: 'rename', name: session.name, title: field.value });
      }
    });
    // A search still on its way would redraw the list and take the field away: the rename wins.
    clearTimeout(timer);
    asked++;
    title.replaceWith(field);
    field.focus();
    field.select();
    li.dataset.renaming = 'yes';
  };

  const open = () => {
    if (dialog.open) return;
    note.textContent = '';
    dialog.showModal();
    search.focus();
    search.select();
    void refresh();
  };

  const listening = new AbortController();
  const { signal } = listening;
  // The arrows walk the sessions (from the search field too); the row walked to becomes the list's Tab stop.
  const rows = () => [...list.querySelectorAll<HTMLLIElement>(':scope > li')];
  const walk = (event: KeyboardEvent) => {
    const all = rows();
    const at = all.indexOf(document.activeElement as HTMLLIElement);
    const to: Record<string, number | undefined> = {
      ArrowDown: Math.min(at + 1, all.length - 1),
      ArrowUp: at <= 0 ? undefined : at - 1,
      Home: 0,
      End: all.length - 1,
    };
    // From the search field only Down leaves it; inside a row (its rename field) the keys are the field's.
    if (at < 0 && (event.currentTarget !== search || event.key !== 'ArrowDown')) return;
    if (!(event.key in to) || event.isComposing) return;
    event.preventDefault();
    const next = to[event.key] === undefined ? search : all[to[event.key]!];
    for (const row of all) row.tabIndex = row === next ? 0 : -1;
    next?.focus();
  };
  list.addEventListener('keydown', walk, { signal });
  search.addEventListener('keydown', walk, { signal });
  search.addEventListener('input', (event) => !event.isComposing && later(), { signal });
  search.addEventListener('compositionend', later, { signal });
  close.addEventListener('click', () => dialog.close(), { signal });
  dialog.addEventListener('close', done, { signal });
  button.addEventListener('click', open, { signal });
  document.addEventListener(
    'keydown',
    (event) => {
      const mac = /Mac|iPhone|iPad/.test(navigator.platform);
      if (
        (mac ? event.metaKey : event.ctrlKey) &&
        !event.shiftKey &&
        !event.altKey &&
        event.code === 'KeyK'
      ) {
        event.preventDefault();
        open();
      }
    },
    { signal },
  );
  return { open, dispose: () => listening.abort() };
}
