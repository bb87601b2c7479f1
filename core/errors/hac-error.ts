/** The base of every error hac reports: a stable code for programs, a message for people, and the cause. */
export class HacError extends Error {
  override readonly name: string = 'HacError';
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** One problem found in a user's file: where, what, and how to fix it. */
export interface FileProblem {
  /** JSON path such as `models[1].provider`, or `line 3, column 7` for syntax errors. */
  at: string;
  message: string;
  fix?: string;
}

/** A file that does not parse or validate. Carries every problem at once. */
export class ConfigError extends HacError {
  override readonly name = 'ConfigError';
  constructor(
    readonly file: string,
    readonly problems: FileProblem[],
  ) {
    super('config-invalid', formatProblems(file, problems));
  }
}

/** The report a user reads: the file, then one line per problem with its fix. */
export function formatProblems(file: string, problems: FileProblem[]): string {
  const lines = problems.map((p) => `  - ${p.at}: ${p.message}${p.fix ? `\n    Fix: ${p.fix}` : ''}`);
  return [`${file} is not valid:`, ...lines, 'The file was left unchanged.'].join('\n');
}
