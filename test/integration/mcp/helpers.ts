import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MemoryLogger } from '../../../core/logging/logger.js';
import type { McpPool, McpPoolEvent } from '../../../core/mcp/index.js';

export const root = path.resolve(import.meta.dirname, '../../..');
export const testServer = path.join(root, 'test/fixtures/mcp/test-server.mjs');
export const headerServer = path.join(root, 'test/fixtures/mcp/header-server.mjs');
export const everything = path.join(
  root,
  'node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);
export const bindLoopback = path.join(root, 'test/fixtures/mcp/bind-loopback.mjs');

/** A temp home with mcp-servers.json holding `servers` (or the raw text). */
export function writeServersFile(servers: Record<string, unknown> | string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hac-mcp-'));
  const file = path.join(dir, 'mcp-servers.json');
  writeFileSync(
    file,
    typeof servers === 'string' ? servers : `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`,
  );
  return file;
}

/** A stdio entry for our test server. */
export function stdioTestServer(
  extra: Record<string, unknown> = {},
  flags: string[] = [],
): Record<string, unknown> {
  return {
    description: 'hac test server',
    command: process.execPath,
    args: [testServer, 'stdio', ...flags],
    ...extra,
  };
}

/** A MemoryLogger that can wait for a line, so tests wait on events rather than sleeping. */
export class WaitingLogger extends MemoryLogger {
  private waiters: { pattern: RegExp; count: number; resolve: () => void }[] = [];
  private push(message: string): void {
    this.waiters = this.waiters.filter((w) => {
      if (!w.pattern.test(message) || this.matching(w.pattern) < w.count) return true;
      w.resolve();
      return false;
    });
  }
  private matching(pattern: RegExp): number {
    return this.lines.filter((l) => pattern.test(l.message)).length;
  }
  override debug(message: string): void {
    super.debug(message);
    this.push(message);
  }
  override info(message: string): void {
    super.info(message);
    this.push(message);
  }
  override warn(message: string): void {
    super.warn(message);
    this.push(message);
  }
  override error(message: string): void {
    super.error(message);
    this.push(message);
  }
  /** Resolves when `count` lines matching `pattern` are (or were already) logged. */
  waitFor(pattern: RegExp, count = 1): Promise<void> {
    if (this.matching(pattern) >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ pattern, count, resolve }));
  }
}

/** Resolves when the pool reports an event for which `check` holds (checked at once too). */
export function until(pool: McpPool, check: (event?: McpPoolEvent) => boolean): Promise<void> {
  if (check()) return Promise.resolve();
  return new Promise((resolve) => {
    const off = pool.subscribe((event) => {
      if (check(event)) {
        off();
        resolve();
      }
    });
  });
}

/** True while a process with this pid exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A server process that prints HAC_TEST_PORT=<n> on stderr once it listens. */
export interface ListeningServer {
  child: ChildProcess;
  port: number;
  stop(): Promise<void>;
}

/** Starts `node <args>` and waits for the port it reports. */
export function startListening(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ListeningServer> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let buffer = '';
    const onEarlyExit = (code: number | null) => reject(new Error(`server exited with ${code}: ${buffer}`));
    child.once('exit', onEarlyExit);
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString();
      const match = /HAC_TEST_PORT=(\d+)/.exec(buffer);
      if (match) {
        child.off('exit', onEarlyExit);
        // Keep draining stderr so a chatty server never blocks on a full pipe.
        child.stderr.off('data', onData);
        child.stderr.resume();
        resolve({
          child,
          port: Number(match[1]),
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null || child.signalCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGKILL');
            }),
        });
      }
    };
    child.stderr.on('data', onData);
  });
}

/** server-everything over sse or streamableHttp, bound to 127.0.0.1 on a free port. */
export function startEverything(mode: 'sse' | 'streamableHttp'): Promise<ListeningServer> {
  return startListening(['--import', bindLoopback, everything, mode], { PORT: '0' });
}
