import { ConfigError, HacError } from '../errors/hac-error.js';
import type { ErrorReport } from '../types/host-event.js';

/** Any error as plain data that crosses a process boundary intact (a config report keeps file and problems). */
export function errorReport(error: unknown): ErrorReport {
  if (error instanceof ConfigError) {
    return {
      code: error.code,
      message: error.message,
      file: error.file,
      problems: error.problems.map((p) => ({
        at: p.at,
        message: p.message,
        ...(p.fix ? { fix: p.fix } : {}),
      })),
    };
  }
  if (error instanceof HacError) return { code: error.code, message: error.message };
  return { code: 'internal', message: error instanceof Error ? error.message : String(error) };
}
