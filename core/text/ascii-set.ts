/** A set of ASCII characters as a lookup table, for scanning text without a regex call per run. */
export type AsciiSet = Uint8Array;

export function asciiSet(chars: string): AsciiSet {
  const table = new Uint8Array(128);
  for (const c of chars) table[c.charCodeAt(0)] = 1;
  return table;
}

/** The index of the first character of `s` from `from` on that is in `set`, or `s.length`. */
export function indexOfAny(s: string, from: number, set: AsciiSet): number {
  let at = from;
  for (; at < s.length; at++) {
    const code = s.charCodeAt(at);
    if (code < 128 && set[code] === 1) break;
  }
  return at;
}
