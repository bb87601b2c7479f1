import { applyEdits, format, modify, type Edit, type FormattingOptions, type JSONPath } from 'jsonc-parser';
import { HacError } from '../errors/hac-error.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { hasBom, parseJsonText, readRawIfExists, stripBom } from './read-json-file.js';

/** One value to set in a JSON file, addressed by its path (`['models', 2, 'active']`). */
export interface JsonChange {
  path: JSONPath;
  /** `undefined` removes the key. */
  value: unknown;
}

/**
 * Changes a few values in a JSON file and keeps everything else as the user wrote it:
 * other keys, unknown keys, key order, indentation and line endings. The file is re-read right
 * before writing, so a hand edit made meanwhile survives, and written atomically.
 * A file that does not parse is never touched: the ConfigError is thrown instead.
 * `changes` may be a function of the freshly read JSON, for edits that depend on the current content.
 */
export async function updateJsonFile(
  file: string,
  changes: JsonChange[] | ((current: unknown) => JsonChange[]),
): Promise<void> {
  const raw = await readRawIfExists(file);
  const text = raw === undefined ? '{}\n' : stripBom(raw);
  const current = parseJsonText(file, text);
  const list = typeof changes === 'function' ? changes(current) : changes;
  const formattingOptions = detectFormatting(text);
  let next = text;
  for (const change of list) {
    let edits: Edit[];
    try {
      edits = modify(next, change.path, change.value, {});
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      throw tooDeepToEdit(file, change);
    }
    next = applyFormatted(next, edits, formattingOptions);
  }
  if (next === text) return;
  const written = parseJsonText(file, next); // never write something we could not read back
  // A file hac creates looks as if written by hand: two spaces, one key a line, a line break at the end.
  if (raw === undefined) next = `${JSON.stringify(written, null, 2)}\n`;
  await writeFileAtomic(file, raw !== undefined && hasBom(raw) ? `\uFEFF${next}` : next, { mode: 0o600 });
}

/**
 * The editor that keeps a file as written walks it recursively: a value nested many thousands of levels deep
 * (which JSON.parse still reads) exhausts the stack. Say so, and what to change by hand, rather than a stack error.
 */
function tooDeepToEdit(file: string, change: JsonChange): HacError {
  const at = change.path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`))
    .join('')
    .slice(1);
  return new HacError(
    'config-too-deep',
    `${file} was not changed: it holds a value nested too deeply for hac to edit the file in place. ` +
      `Set ${at} to ${JSON.stringify(change.value)} by hand, or remove the deeply nested value.`,
  );
}

/**
 * Applies unformatted edits, then formats only the text they inserted. jsonc-parser's own formatting
 * reformats whole lines around an insertion, which would turn the previous key's one-line array
 * (`"args": ["-y", "pkg"]`) into a multi-line one.
 */
function applyFormatted(text: string, edits: Edit[], options: FormattingOptions): string {
  let next = text;
  for (const edit of [...edits].sort((a, b) => b.offset - a.offset)) {
    next = applyEdits(next, [edit]);
    const start = edit.offset;
    const end = edit.offset + edit.content.length;
    const inside = format(
      next,
      { offset: start, length: end - start },
      { ...options, keepLines: false },
    ).filter((e) => e.offset >= start && e.offset + e.length <= end);
    next = applyEdits(next, inside);
  }
  return next;
}

function detectFormatting(text: string): { insertSpaces: boolean; tabSize: number; eol: string } {
  const indent = /^[ \t]+(?=")/m.exec(text)?.[0] ?? '  ';
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  return indent.startsWith('\t')
    ? { insertSpaces: false, tabSize: 1, eol }
    : { insertSpaces: true, tabSize: indent.length, eol };
}
