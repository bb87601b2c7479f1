/** The logging seam: every module logs through this, never to the terminal. Messages pass redaction first. */
export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** A logger that keeps lines in memory; for tests and for code that runs before the file log exists. */
export class MemoryLogger implements Logger {
  readonly lines: { level: LogLevel; message: string }[] = [];
  debug(message: string): void {
    this.lines.push({ level: 'debug', message });
  }
  info(message: string): void {
    this.lines.push({ level: 'info', message });
  }
  warn(message: string): void {
    this.lines.push({ level: 'warn', message });
  }
  error(message: string): void {
    this.lines.push({ level: 'error', message });
  }
  /** Every line as `[LEVEL] message`, for assertions. */
  text(): string {
    return this.lines.map((l) => `[${l.level}] ${l.message}`).join('\n');
  }
}

/** A logger that drops everything. */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
