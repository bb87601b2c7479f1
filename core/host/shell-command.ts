import { workingDirectory } from './attachments.js';

/** What a command's output may add to the next message: more is cut, with a note (it is also on screen). */
export const SHELL_OUTPUT_MAX_CHARS = 20_000;

/** A command the user ran with `!`, and what it printed, for the next message to carry. */
export interface ShellRun {
  command: string;
  output: string;
  /** The exit code, or the signal's name when it was stopped. */
  status: number | string;
}

/**
 * Runs a command the user typed after `!` (never text from a model or a server) in the user's shell, in hac's
 * folder, stdout and stderr together as a terminal shows them; Ctrl+C (the signal) stops it.
 */
export function runShellCommand(command: string, signal: AbortSignal): Promise<ShellRun> {
  // Loaded here: node:child_process costs every start a few milliseconds.
  const { spawn } = process.getBuiltinModule('node:child_process');
  const windows = process.platform === 'win32';
  const [shell, args] = windows
    ? ['cmd.exe', ['/d', '/s', '/c', command]]
    : [process.env.SHELL?.trim() || '/bin/sh', ['-c', command]];
  return new Promise((resolve) => {
    const child = spawn(shell, args, {
      cwd: workingDirectory(),
      stdio: ['ignore', 'pipe', 'pipe'],
      signal,
      windowsHide: true,
    });
    let output = '';
    const take = (chunk: Buffer) => {
      if (output.length < SHELL_OUTPUT_MAX_CHARS * 4) output += chunk.toString('utf8');
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (error) =>
      resolve({ command, output: `${output}${error.message}\n`, status: 'error' }),
    );
    child.on('close', (code, killed) => resolve({ command, output, status: code ?? killed ?? 'stopped' }));
  });
}

/** The line under a command's output: how it ended, and that it goes with the next message. */
export function shellRunLine(run: ShellRun): string {
  const ended =
    run.status === 0 ? 'exit 0' : typeof run.status === 'number' ? `exit ${run.status}` : run.status;
  return `(${ended}; the command and its output go with your next message)`;
}

/** The command and its output as the next message carries them, before what the user then writes. */
export function shellRunText(run: ShellRun): string {
  let output = run.output.replace(/\s+$/, '');
  if (output.length > SHELL_OUTPUT_MAX_CHARS)
    output = `${output.slice(0, SHELL_OUTPUT_MAX_CHARS)}\n... (cut: ${(output.length - SHELL_OUTPUT_MAX_CHARS).toLocaleString('en-US')} more characters)`;
  const longest = Math.max(2, ...[...output.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const status = typeof run.status === 'number' ? `exit code ${run.status}` : run.status;
  return `I ran \`${run.command}\` in my shell (${status}):\n${fence}\n${output}\n${fence}`;
}
