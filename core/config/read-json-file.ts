import { promises as fs } from 'node:fs';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { safeParse } from 'zod/mini';
import type { $ZodIssue, $ZodType, output } from 'zod/v4/core';
import { ConfigError, type FileProblem } from '../errors/hac-error.js';
import { fileAccessError } from '../fs/file-access.js';

/** A file's raw text, or undefined when it does not exist (a missing file is not an error). */
export async function readRawIfExists(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw fileAccessError(error, file, 'read');
  }
}

/** A JSON file's text, without a UTF-8 byte-order mark (Windows editors write one), or undefined when missing. */
export async function readTextIfExists(file: string): Promise<string | undefined> {
  const raw = await readRawIfExists(file);
  return raw === undefined ? undefined : stripBom(raw);
}

const BOM = '\uFEFF';

/** The text without a leading byte-order mark. */
export function stripBom(text: string): string {
  return text.startsWith(BOM) ? text.slice(1) : text;
}

/** Whether a file's raw text starts with a byte-order mark (kept when we rewrite the file). */
export function hasBom(text: string): boolean {
  return text.startsWith(BOM);
}

/** Parses strict JSON; a syntax error becomes a ConfigError naming line and column. */
export function parseJsonText(file: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // JSON.parse's message has no line/column on Node 20; jsonc-parser gives the offset of the first error.
    const errors: ParseError[] = [];
    parse(text, errors, { allowTrailingComma: false, disallowComments: true, allowEmptyContent: false });
    const first = errors[0];
    const offset = first?.offset ?? text.length;
    const { line, column } = lineAndColumn(text, offset);
    const what = first ? describeParseError(printParseErrorCode(first.error)) : 'the file is not valid JSON';
    throw new ConfigError(file, [
      {
        at: `line ${line}, column ${column}`,
        message: what,
        fix: 'Correct the JSON syntax there (no comments or trailing commas).',
      },
    ]);
  }
}

/** Validates parsed JSON against a schema, turning every issue into a FileProblem with its fix. */
export function validateJson<S extends $ZodType>(
  file: string,
  value: unknown,
  schema: S,
  fixes: Record<string, string>,
): output<S> {
  const result = safeParse(schema, value, { reportInput: true });
  if (result.success) return result.data;
  const problems: FileProblem[] = result.error.issues.map((issue) => {
    const lastKey = [...issue.path].reverse().find((k) => typeof k === 'string');
    return {
      at: formatJsonPath(issue.path) || '(top level)',
      message: showsInput(issue) ? `${issue.message}; got ${JSON.stringify(issue.input)}` : issue.message,
      fix: fixes[lastKey ?? '(top level)'],
    };
  });
  throw new ConfigError(file, problems);
}

// For a wrong value or type, the value itself helps the user find the line; for other issues it is noise.
function showsInput(issue: $ZodIssue): boolean {
  return (issue.code === 'invalid_value' || issue.code === 'invalid_type') && issue.input !== undefined;
}

/** `['models', 1, 'provider']` → `models[1].provider`. */
export function formatJsonPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => {
    if (typeof key === 'number') return `${out}[${key}]`;
    return out ? `${out}.${String(key)}` : String(key);
  }, '');
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return { line, column };
}

function describeParseError(code: string): string {
  const words = code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return `JSON syntax error (${words})`;
}
