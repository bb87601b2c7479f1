/**
 * Control characters a terminal would act on: C0 but tab and newline, DEL, and C1 (U+0080–U+009F, which some
 * terminals read as CSI, OSC… even in UTF-8). Every escape sequence (CSI, OSC with its OSC 52 clipboard writes,
 * DCS, APC, SOS, PM) starts with one of them, so making each inert makes every sequence inert, also one split
 * across two streamed pieces.
 */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;
/**
 * Characters that draw nothing (zero-width space, joiners, left-to-right and right-to-left marks, word joiner, a
 * byte-order mark): harmless in prose, but in what the user approves or opens they can hide or glue what is read.
 */
const INVISIBLE = /[\u200b-\u200f\u2060\ufeff]/;
const INVISIBLES = /[\u200b-\u200f\u2060\ufeff]/g;

/**
 * Text hac did not write (a model's answer, a server's description, a provider's error…) as a screen may show it:
 * each control character becomes its visible name (`\x1b`), so `\x1b[2J` is read, not obeyed, and the user sees
 * that something was there. So does each bidirectional override and isolate (`\u202e`), which would reorder what
 * follows on screen ("Trojan Source"); Arabic and Hebrew prose needs none of them, and keeps its marks. A carriage return is dropped instead (Windows line ends keep their `\n`; a lone one
 * could only move the cursor back over a line hac wrote). A one-cell symbol asked for as emoji (`⚠️`: U+26A0 and
 * VS16) is shown as the symbol: terminals and xterm.js count it one cell but draw the emoji two wide, over the
 * next character. Text with neither comes back as it was.
 */
export function inertText(text: string): string {
  return inertControls(text.includes('\ufe0f') ? text.replace(NARROW_EMOJI, '$1') : text);
}

/**
 * Text to keep or share (a Markdown export): its control characters and bidirectional overrides named as the
 * screen shows them, so `cat` or a preview of the file cannot be made to act; everything else as it was.
 */
export function inertControls(text: string): string {
  if (!CONTROL.test(text)) return text;
  return text.replace(CONTROLS, (c) => (c === '\r' ? '' : visibleControl(c)));
}

/**
 * JSON text with what JSON leaves raw in its strings (DEL, C1 controls, bidirectional overrides) escaped as
 * `\u009b`: the same data for a program, inert for a terminal or an editor.
 */
export function inertJson(json: string): string {
  return json.replace(
    /[\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A one-cell symbol followed by VS16 (emoji presentation): the symbols that Unicode gives both presentations. */
const NARROW_EMOJI = /([\u00a9\u00ae\u203c-\u3299])\ufe0f/g;

function visibleControl(c: string): string {
  const code = c.charCodeAt(0);
  return code > 0xff ? `\\u${code.toString(16)}` : `\\x${code.toString(16).padStart(2, '0')}`;
}

/**
 * Text from outside in what the user approves or opens (a tool's name, description and arguments at a
 * confirmation, a server's name, an address, a file name): inert, and its invisible characters named too, so what
 * is read is all that is there.
 */
export function approvalText(text: string): string {
  const shown = inertText(text);
  return INVISIBLE.test(shown) ? shown.replace(INVISIBLES, visibleControl) : shown;
}

/**
 * A value with every string in it made inert (objects and arrays walked; anything else as it was). The same
 * object comes back when nothing needed a change, so a stream of plain text costs one test per piece.
 */
export function inertValue<T>(value: T): T {
  if (typeof value === 'string') return inertText(value) as T;
  if (typeof value !== 'object' || value === null) return value;
  const source = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(source)) {
    const item = source[key];
    const inert = inertValue(item);
    if (inert === item) continue;
    copy ??= Array.isArray(value) ? Object.assign([], source) : { ...source };
    copy[key] = inert;
  }
  return (copy as T | undefined) ?? value;
}

/** One line of a label (`Tool: …`): text from outside that cannot start a line of its own, nor hide a character. */
export function inertLine(text: string, max = 200): string {
  const line = approvalText(text).replace(/\s*\n\s*/g, ' ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
