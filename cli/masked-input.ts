/** Shown for each cell of a secret as it is typed. */
const MASK = '•';

/**
 * The terminal as readline writes to it, with the line being typed drawn as dots while `secretLine()` returns it
 * (a server's write-only field). Readline echoes single typed characters, or the whole line on a refresh; the dots
 * take the same cells, so its cursor arithmetic still holds. Everything else passes unchanged, and the stream is
 * the terminal in every other respect (its size, its resize events).
 */
export function maskingOutput(
  output: NodeJS.WriteStream,
  secretLine: () => string | undefined,
): NodeJS.WriteStream {
  const write = (text: unknown, ...rest: unknown[]) => {
    const line = secretLine();
    if (line && typeof text === 'string') {
      if (text.includes(line)) text = text.replace(line, dots(line));
      else if (!/[\x1b\r\n]/.test(text) && line.endsWith(text)) text = dots(text);
    }
    return (output.write as (...args: unknown[]) => boolean)(text, ...rest);
  };
  return new Proxy(output, {
    get(target, key) {
      if (key === 'write') return write;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** One dot per cell: two for a wide character (Hangul, kana, CJK), as the terminal would draw it. */
function dots(text: string): string {
  return [...text].map((c) => (isWide(c.codePointAt(0) ?? 0) ? MASK + MASK : MASK)).join('');
}

function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}
