import type { SecretRegistry } from '../logging/secrets.js';
import type { SessionFile, SessionMessage } from './session-file.js';

/** The lists that grow with a conversation: each element is redacted and encoded once. */
const LISTS = ['messages', 'summaries'] as const;
type ListKey = (typeof LISTS)[number];
/** What comes before each element of a list but the first. */
const SEPARATOR = ',\n';
/** Each element's bytes in an array of their own size: a Buffer.from copy would hold a whole shared pool slab. */
const utf8 = new TextEncoder();

interface CachedElement<T> {
  /** The secret registry's version the entry was made with: a new secret makes it stale. */
  secrets: number;
  redacted: T;
  /**
   * The element as it sits in the file's top-level list, indented, after the separator (the first of a list is the
   * same bytes without it): one piece per element, since writing costs per piece.
   */
  bytes: Uint8Array;
}

/**
 * A session file's content, exactly `JSON.stringify(redacted session, null, 2)` and a line break, with each message
 * and summary redacted and encoded once and kept: saving after a turn costs what the turn added, not the whole
 * conversation again (a long day in one conversation would otherwise rewrite megabytes of text per turn).
 */
export class SessionBytes {
  private readonly elements = new WeakMap<object, CachedElement<object>>();
  /** Each list of the last call, as given and as cached: a conversation only adds to the end of its lists. */
  private readonly last = new Map<
    ListKey,
    { given: readonly object[]; secrets: number; cached: CachedElement<object>[] }
  >();

  constructor(private readonly secrets?: SecretRegistry) {}

  /** The session with every secret masked; its messages and summaries are the cached copies. */
  redacted(session: SessionFile): SessionFile {
    const rest = this.redact({ ...session, messages: [], ...(session.summaries && { summaries: [] }) });
    return {
      ...rest,
      messages: this.cachedList('messages', session.messages).map((m) => m.redacted),
      ...(session.summaries && {
        summaries: this.cachedList('summaries', session.summaries).map((s) => s.redacted),
      }),
    };
  }

  /** Some messages (a turn's) with every secret masked, leaving the lists' cache as it is. */
  redactedMessages(messages: readonly SessionMessage[]): SessionMessage[] {
    return messages.map((m) => this.element(m).redacted);
  }

  /** Each element's cache entry; the entries of the last call's list are reused while the list only grew. */
  private cachedList<T extends object>(key: ListKey, list: readonly T[]): CachedElement<T>[] {
    const version = this.secrets?.version ?? 0;
    const { given = [], secrets = 0, cached = [] } = this.last.get(key) ?? {};
    let same = secrets === version && list.length >= given.length;
    for (let i = 0; same && i < given.length; i++) same = list[i] === given[i];
    const entries = same
      ? [...(cached as CachedElement<T>[]), ...list.slice(given.length).map((e) => this.element(e))]
      : list.map((e) => this.element(e));
    this.last.set(key, { given: [...list], secrets: version, cached: entries });
    return entries;
  }

  /** The file's bytes, in pieces (written one after another). */
  encode(session: SessionFile): Uint8Array[] {
    return this.pieces(session).pieces;
  }

  /**
   * The file's first pieces, up to its last message: what the next save starts with when it only adds messages
   * (what follows them, such as the summaries, moves and is written again anyway).
   */
  head(session: SessionFile): Uint8Array[] {
    const { pieces, messagesEnd } = this.pieces(session);
    return pieces.slice(0, messagesEnd);
  }

  private pieces(session: SessionFile): { pieces: Uint8Array[]; messagesEnd: number } {
    const emptied = { ...session, messages: [], ...(session.summaries && { summaries: [] }) };
    let text = `${JSON.stringify(this.redact(emptied), null, 2)}\n`;
    const pieces: Uint8Array[] = [];
    // The lists in the order the text has them: the text before each, then its elements.
    const found = LISTS.map((key) => ({ key, at: text.indexOf(`\n  "${key}": []`) }))
      .filter(({ key, at }) => at >= 0 && (session[key]?.length ?? 0) > 0)
      .sort((a, b) => a.at - b.at);
    let from = 0;
    let messagesEnd = 0;
    for (const { key, at } of found) {
      const open = at + `\n  "${key}": [`.length;
      pieces.push(Buffer.from(`${text.slice(from, open)}\n`));
      const entries = this.cachedList<object>(key, session[key]!);
      entries.forEach((entry, i) => {
        pieces.push(i > 0 ? entry.bytes : entry.bytes.subarray(SEPARATOR.length));
      });
      if (key === 'messages') messagesEnd = pieces.length;
      pieces.push(Buffer.from('\n  '));
      from = open;
    }
    text = text.slice(from);
    pieces.push(Buffer.from(text));
    return { pieces, messagesEnd };
  }

  private element<T extends object>(element: T): CachedElement<T> {
    const version = this.secrets?.version ?? 0;
    const cached = this.elements.get(element) as CachedElement<T> | undefined;
    if (cached?.secrets === version) return cached;
    const redacted = this.redact(element);
    // Inside a top-level list: four spaces before every line of the element's own text.
    const bytes = utf8.encode(
      `${SEPARATOR}    ${JSON.stringify(redacted, null, 2).replace(/\n/g, '\n    ')}`,
    );
    const entry = { secrets: version, redacted, bytes };
    this.elements.set(element, entry);
    return entry;
  }

  private redact<T>(value: T): T {
    return this.secrets?.redactDeep(value) ?? value;
  }
}
