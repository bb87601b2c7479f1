import { spawn, type IPty } from 'node-pty';
import path from 'node:path';

export const HAC_BIN = path.resolve(import.meta.dirname, '../../dist/cli/hac.cjs');

/**
 * Strips ANSI escapes and carriage returns, so tests read the screen text; hac's own lines read unwrapped (a break
 * hac inserted into one of its lines ends with an erase to the line's end, see own-lines.ts).
 */
export function plain(text: string): string {
  return text.replace(/(?<!\x1b\[0m)\x1b\[K\r*\n */g, ' ').replace(/\x1b\[[0-9;?]*[A-Za-z]|\x1b[>=]|\r/g, '');
}

/** The built `hac` in a real pseudo-terminal with a UTF-8 locale and its own home. */
export class HacPty {
  readonly pty: IPty;
  output = '';
  readonly exited: Promise<{ exitCode: number; signal?: number }>;

  /**
   * `underShell`: hac runs as a shell's child, as in a real terminal, instead of leading the terminal's session
   * (whose end would hang up everything in it, hiding what hac itself leaves behind). `cwd`: the folder hac is
   * started in (the home by default).
   */
  constructor(
    home: string,
    args: string[] = [],
    env: Record<string, string> = {},
    { underShell = false, cwd = home } = {},
  ) {
    const [file, argv] = underShell
      ? ['sh', ['-c', `"${process.execPath}" "${HAC_BIN}" "$@"; sleep 60`, 'sh', ...args]]
      : [process.execPath, [HAC_BIN, ...args]];
    this.pty = spawn(file, argv, {
      name: 'xterm-256color',
      cols: 100,
      rows: 30,
      cwd,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        HAC_HOME: path.join(home, '.humble-ai-cli'),
        LANG: 'C.UTF-8',
        LC_ALL: 'C.UTF-8',
        TERM: 'xterm-256color',
        ...env,
      },
    });
    this.pty.onData((d) => {
      this.output += d;
    });
    this.exited = new Promise((resolve) => this.pty.onExit(resolve));
  }

  /** Resolves when the screen text (ANSI removed) matches, searching from `from`; rejects with the screen after `ms`. */
  async waitFor(pattern: string | RegExp, { from = 0, ms = 10_000 } = {}): Promise<number> {
    const deadline = Date.now() + ms;
    for (;;) {
      const text = plain(this.output).slice(from);
      const index = typeof pattern === 'string' ? text.indexOf(pattern) : text.search(pattern);
      if (index >= 0) return from + index;
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${String(pattern)}; screen:\n${plain(this.output)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  write(keys: string): void {
    this.pty.write(keys);
  }

  /** Sends a line and waits for `until` after it; resolves with where it appeared. */
  say(line: string, until: string | RegExp): Promise<number> {
    const from = plain(this.output).length;
    this.write(`${line}\r`);
    return this.waitFor(until, { from });
  }

  /** Types keys one at a time, as a person does: each waits for the terminal's echo before the next. */
  async type(...keys: string[]): Promise<void> {
    for (const key of keys) {
      const before = this.output.length;
      this.pty.write(key);
      const deadline = Date.now() + 5_000;
      while (this.output.length === before && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 5));
    }
  }

  /** Ends hac and waits (up to 5 s) until it has exited, so nothing still writes into the temp home. */
  async kill(): Promise<void> {
    try {
      this.pty.kill();
    } catch {
      /* already gone */
    }
    await Promise.race([this.exited, new Promise((r) => setTimeout(r, 5_000))]);
  }
}
