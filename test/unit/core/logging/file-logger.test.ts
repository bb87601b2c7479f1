import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SecretRegistry } from '../../../../core/logging/secrets.js';
import { createFileLogger, isoLocal, logFileName } from '../../../../core/logging/file-logger.js';
import { useTempDir } from '../../../helpers/temp-home.js';

const tempDir = useTempDir();

afterEach(() => {
  vi.useRealTimers();
});

describe('file logger', () => {
  it('names-the-file-by-local-date', () => {
    expect(logFileName(new Date(2026, 10, 22, 23, 59, 59))).toBe('application-hac-2026-11-22.log');
    expect(logFileName(new Date(2026, 0, 2, 0, 0, 0))).toBe('application-hac-2026-01-02.log');
  });

  it('writes-iso-local-time-level-and-message', async () => {
    const dir = tempDir();
    const log = createFileLogger(dir, 'info');
    log.info('session started');
    await log.flush();
    const text = readFileSync(log.currentFile(), 'utf8');
    expect(text).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d \[INFO\] session started\n$/);
    expect(isoLocal(new Date(2026, 10, 22, 9, 5, 7, 42))).toMatch(/^2026-11-22T09:05:07\.042[+-]\d\d:\d\d$/);
  });

  it('creates-the-file-with-mode-0600', async () => {
    const dir = tempDir();
    const log = createFileLogger(dir, 'info');
    log.error('boom');
    await log.flush();
    expect(statSync(log.currentFile()).mode & 0o777).toBe(0o600);
  });

  it('filters-by-level-and-follows-level-changes', async () => {
    const dir = tempDir();
    const log = createFileLogger(dir, 'warn');
    log.debug('d1');
    log.info('i1');
    log.warn('w1');
    log.error('e1');
    log.setLevel('debug');
    log.debug('d2');
    await log.flush();
    const lines = readFileSync(log.currentFile(), 'utf8').trim().split('\n');
    expect(lines.map((l) => l.replace(/^\S+ /, ''))).toEqual(['[WARN] w1', '[ERROR] e1', '[DEBUG] d2']);
  });

  it('switches-files-after-midnight', async () => {
    const dir = tempDir();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 10, 22, 23, 59, 59, 900));
    const log = createFileLogger(dir, 'info');
    log.info('before midnight');
    vi.setSystemTime(new Date(2026, 10, 23, 0, 0, 0, 100));
    log.info('after midnight');
    await log.flush();
    expect(readdirSync(dir).sort()).toEqual([
      'application-hac-2026-11-22.log',
      'application-hac-2026-11-23.log',
    ]);
    expect(readFileSync(path.join(dir, 'application-hac-2026-11-23.log'), 'utf8')).toContain(
      'after midnight',
    );
    expect(readFileSync(path.join(dir, 'application-hac-2026-11-22.log'), 'utf8')).not.toContain(
      'after midnight',
    );
  });

  it('redacts-secrets-in-every-line', async () => {
    const dir = tempDir();
    const secrets = new SecretRegistry();
    const log = createFileLogger(dir, 'debug', secrets);
    secrets.add(['my-mcp-env-value-123', undefined]);
    log.debug('request with key sk-proj-abcdefghijklmnop1234 and Authorization: Bearer tok_abcdef123456');
    log.debug('stdio env TOKEN_VALUE=my-mcp-env-value-123 passed');
    await log.flush();
    const text = readFileSync(log.currentFile(), 'utf8');
    expect(text).not.toContain('sk-proj-abcdefghijklmnop1234');
    expect(text).not.toContain('tok_abcdef123456');
    expect(text).not.toContain('my-mcp-env-value-123');
    expect(text).toContain('[redacted]');
  });
});
