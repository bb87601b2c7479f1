import { spawn } from 'node:child_process';
import path from 'node:path';
import { HAC_BIN } from './pty.js';

export interface HacRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Goes to hac's stdin. */
  input?: string;
  env?: Record<string, string>;
  /** Run as this user (tests running as root use `nobody`, for whom file modes count). */
  uid?: number;
  gid?: number;
}

/** The built `hac` with pipes (one-shot mode), its own home, no colour. */
export function runHac(
  home: string,
  args: string[],
  { input = '', env = {}, uid, gid }: RunOptions = {},
): Promise<HacRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [HAC_BIN, ...args], {
      cwd: home,
      uid,
      gid,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        HAC_HOME: path.join(home, '.humble-ai-cli'),
        NO_COLOR: '1',
        ...env,
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(input);
  });
}
