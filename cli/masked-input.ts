import { cellWidth } from '../core/index.js';

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

/** One dot per cell the text takes: two for a wide character (Hangul, kana, Han), as the terminal draws it. */
function dots(text: string): string {
  return MASK.repeat(cellWidth(text));
}
