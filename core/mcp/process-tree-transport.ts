import { execFile, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import spawn from 'cross-spawn';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/client';
import type { Transport } from '@modelcontextprotocol/client';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';

export interface ProcessTreeParams {
  command: string;
  args: string[];
  /** Added to the SDK's default safe environment (PATH, HOME, ...), never hac's whole environment. */
  env: Record<string, string>;
  cwd?: string;
}

const WINDOWS = process.platform === 'win32';

/**
 * The SDK's stdio transport, but for the server's whole process tree: servers are usually started
 * through a wrapper (`npx`, `uvx`, `sh -c`, a script) and the SDK's transport can only signal the wrapper. On
 * POSIX the child leads a process group of its own, so a signal reaches everything it started (and the
 * terminal's Ctrl+C reaches only hac, which decides); on Windows `taskkill /T` ends the tree.
 * `close()` only closes stdin, the polite first step: McpConnection escalates with `signal()`.
 */
export class ProcessTreeTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The server's stderr, readable before start() so that nothing it prints early is lost. */
  readonly stderr = new PassThrough();
  private child: ChildProcess | undefined;
  private readonly buffer = new ReadBuffer();

  constructor(private readonly params: ProcessTreeParams) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('ProcessTreeTransport already started');
    return new Promise((resolve, reject) => {
      const { command, args, env, cwd } = this.params;
      const child = spawn(command, args, {
        env: { ...getDefaultEnvironment(), ...env },
        cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        windowsHide: true,
        detached: !WINDOWS, // a process group of its own (on Windows this would open a console instead)
      });
      this.child = child;
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on('spawn', () => resolve());
      // 'close' waits for every process holding the pipes: a wrapper's children included.
      child.on('close', () => {
        this.child = undefined;
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => {
        try {
          this.buffer.append(chunk);
        } catch (error) {
          this.onerror?.(error as Error); // a line over 10 MB: this session cannot go on
          void this.close();
          return;
        }
        this.readMessages();
      });
      child.stderr?.pipe(this.stderr);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin) return reject(new Error('Not connected'));
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  close(): Promise<void> {
    this.child?.stdin?.end();
    this.buffer.clear();
    return Promise.resolve();
  }

  /** Whether any process of the tree is still running (a zombie no parent reaped does not count). */
  treeAlive(pid: number): boolean {
    if (process.platform === 'linux') return groupRunsOnLinux(pid);
    try {
      process.kill(WINDOWS ? pid : -pid, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  }

  /** Signals the whole tree; SIGTERM asks, SIGKILL ends. */
  signal(pid: number, signal: 'SIGTERM' | 'SIGKILL'): void {
    if (WINDOWS) {
      const force = signal === 'SIGKILL' ? ['/F'] : [];
      execFile('taskkill', ['/T', ...force, '/PID', String(pid)], { windowsHide: true }, () => undefined);
      return;
    }
    try {
      process.kill(-pid, signal);
    } catch {
      // The group is gone already.
    }
  }

  private readMessages(): void {
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (error) {
        this.onerror?.(error as Error); // one bad line is reported; the next ones are still read
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }
}

/**
 * Whether a process of group `pgid` runs, from /proc: kill(-pgid, 0) also counts zombies, and in a container
 * whose first process reaps nothing, an orphaned server stays a zombie for good.
 */
function groupRunsOnLinux(pgid: number): boolean {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'latin1');
    } catch {
      continue; // ended while we looked
    }
    // `pid (comm) state ppid pgrp …`; comm may hold spaces and parentheses, so read after the last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') return true;
  }
  return false;
}
