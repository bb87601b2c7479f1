import type electronLogType from 'electron-log/node.js';
import path from 'node:path';
import type { Logger, LogLevel } from './logger.js';
import { redact } from './redact.js';
import { SecretRegistry } from './secrets.js';

/** A Logger writing one file a day (`logs/application-hac-YYYY-MM-DD.log`), with level filtering and redaction of every line. */
export interface FileLogger extends Logger {
  setLevel(level: LogLevel): void;
  /** The file a line logged now goes to. */
  currentFile(): string;
  /** Resolves when every line logged so far is in the file. */
  flush(): Promise<void>;
}

/** `application-hac-YYYY-MM-DD.log` for the local date of `date`. */
export function logFileName(date: Date): string {
  return `application-hac-${localDate(date)}.log`;
}

/** ISO 8601 in local time with its offset: `2026-11-22T12:49:37.123+09:00`. */
export function isoLocal(date: Date): string {
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  const ms = String(date.getMilliseconds()).padStart(3, '0');
  return `${localDate(date)}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${ms}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * Creates the file logger on electron-log's Node entry (the same in the CLI and in Electron's main process).
 * electron-log (~25 ms to load) is imported when the process is next idle, not on the start-up path: lines
 * logged before are queued with their own time and written in order. `flush()` waits until all are written.
 * The file is chosen per line, so a long session switches files after midnight. Files are created 0600.
 */
export function createFileLogger(
  logsDir: string,
  level: LogLevel,
  secrets = new SecretRegistry(),
): FileLogger {
  let currentLevel = level;
  let backend: ElectronLogger | undefined;
  let queue: { level: LogLevel; message: string; date: Date }[] = [];
  let replayDate: Date | undefined;

  const load = async (): Promise<void> => {
    const { default: electronLog } = await import('electron-log/node.js');
    const log = electronLog.create({ logId: `hac-${logsDir}` });
    log.transports.console.level = false;
    // electron-log reports its own write failures (a full disk) through the default logger's console, stack and
    // all, bypassing levels: the screen is the host's, which says what failed when it matters (a session).
    for (const logger of [log, electronLog]) logger.transports.console.writeFn = () => undefined;
    const file = log.transports.file;
    // Without a name electron-log looks for the nearest package.json from the script or the cwd, and when it finds
    // none every write fails silently (hac run from an npm global install, or a bundled copy elsewhere).
    file.setAppName('hac');
    file.level = currentLevel;
    file.maxSize = 0; // one file per day is the rotation
    file.writeOptions = { flag: 'a', mode: 0o600, encoding: 'utf8' };
    file.resolvePathFn = (_vars, message) => path.join(logsDir, logFileName(message?.date ?? new Date()));
    file.format = ({ message, data }) => [
      `${isoLocal(message.date)} [${message.level.toUpperCase()}] ${redact(secrets.redact(data.map(String).join(' ')))}`,
    ];
    // Queued lines keep the time they were logged at.
    log.hooks.push((message) => (replayDate ? { ...message, date: replayDate } : message));
    for (const line of queue) {
      replayDate = line.date;
      log[line.level](line.message);
    }
    replayDate = undefined;
    queue = [];
    backend = log;
  };
  let loading: Promise<void> | undefined;
  const start = () => (loading ??= load());
  setTimeout(() => void start(), 0).unref();

  const write = (lineLevel: LogLevel) => (message: string) => {
    if (backend) backend[lineLevel](message);
    else if (LEVELS.indexOf(lineLevel) >= LEVELS.indexOf(currentLevel))
      queue.push({ level: lineLevel, message, date: new Date() });
  };
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    setLevel(next) {
      currentLevel = next;
      if (backend) backend.transports.file.level = next;
    },
    currentFile: () => path.join(logsDir, logFileName(new Date())),
    flush: () => start(),
  };
}

const LEVELS: LogLevel[] = ['debug', 'info', 'warn', 'error'];

type ElectronLogger = ReturnType<typeof electronLogType.create>;

function localDate(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
