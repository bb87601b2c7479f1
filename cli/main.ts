// The REPL lands later in this issue.
export function main(_args: string[], _version: string): Promise<number> {
  return Promise.resolve(0);
}
