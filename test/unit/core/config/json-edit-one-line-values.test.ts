import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { updateJsonFile } from '../../../../core/config/json-edit.js';

function fileWith(text: string): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'hac-json-')), 'mcp-servers.json');
  writeFileSync(file, text);
  return file;
}

describe('updateJsonFile keeps what it does not change', () => {
  it('adding-a-key-after-a-one-line-array-keeps-the-array-on-one-line', async () => {
    const file = fileWith(
      '{\n  "mcpServers": {\n    "c7": { "command": "npx", "args": ["-y", "@upstash/context7-mcp"] }\n  }\n}\n',
    );
    await updateJsonFile(file, [{ path: ['mcpServers', 'c7', 'enabled'], value: false }]);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('"args": ["-y", "@upstash/context7-mcp"],');
    expect(JSON.parse(text)).toEqual({
      mcpServers: { c7: { command: 'npx', args: ['-y', '@upstash/context7-mcp'], enabled: false } },
    });
  });

  it('adding-a-key-to-an-empty-object-formats-only-the-new-key', async () => {
    const file = fileWith('{\n  "a": [1,2],\n  "mcpServers": {\n    "x": {}\n  }\n}\n');
    await updateJsonFile(file, [{ path: ['mcpServers', 'x', 'enabled'], value: true }]);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('"a": [1,2],');
    expect(JSON.parse(text)).toEqual({ a: [1, 2], mcpServers: { x: { enabled: true } } });
  });

  it('replacing-a-value-touches-only-that-value', async () => {
    const original = '{\n  "mcpServers": {\n    "x": {"enabled": true,   "args": [1,2]}\n  }\n}\n';
    const file = fileWith(original);
    await updateJsonFile(file, [{ path: ['mcpServers', 'x', 'enabled'], value: false }]);
    expect(readFileSync(file, 'utf8')).toBe(original.replace('true', 'false'));
  });
});
