import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { updateJsonFile } from '../../../../core/config/json-edit.js';
import { ConfigError } from '../../../../core/errors/hac-error.js';
import { useTempDir } from '../../../helpers/temp-home.js';

const tempDir = useTempDir();

function file(content: string): string {
  const f = path.join(tempDir(), 'config.json');
  writeFileSync(f, content);
  return f;
}

describe('updateJsonFile', () => {
  it('says-clearly-why-a-file-nested-too-deeply-is-not-edited-and-leaves-it-unchanged', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const original = `{"toolCallMode": "manual", "x-notes": ${deep}}\n`;
    const f = file(original);
    expect(() => JSON.parse(original) as unknown).not.toThrow(); // reading it works
    await expect(updateJsonFile(f, [{ path: ['toolCallMode'], value: 'auto' }])).rejects.toThrow(
      `${f} was not changed: it holds a value nested too deeply for hac to edit the file in place. Set toolCallMode to "auto" by hand, or remove the deeply nested value.`,
    );
    expect(readFileSync(f, 'utf8')).toBe(original);
  });

  it('changes-one-value-and-keeps-unknown-keys-order-and-4-space-indent', async () => {
    const original = `{
    "zeta": 1,
    "toolCallMode": "manual",
    "models": [
        { "name": "a", "provider": "openai", "active": true, "custom": [1, 2] },
        {
            "name": "b",
            "provider": "ollama"
        }
    ],
    "alpha": {"nested": true}
}
`;
    const f = file(original);
    await updateJsonFile(f, [
      { path: ['toolCallMode'], value: 'auto' },
      { path: ['models', 0, 'active'], value: false },
      { path: ['models', 1, 'active'], value: true },
    ]);
    // Replaced values keep their place and style; an added key follows the object's own layout.
    expect(readFileSync(f, 'utf8')).toBe(`{
    "zeta": 1,
    "toolCallMode": "auto",
    "models": [
        { "name": "a", "provider": "openai", "active": false, "custom": [1, 2] },
        {
            "name": "b",
            "provider": "ollama",
            "active": true
        }
    ],
    "alpha": {"nested": true}
}
`);
  });

  it('keeps-tab-indent-and-crlf-when-adding-a-key', async () => {
    const f = file(
      '{\r\n\t"mcpServers": {\r\n\t\t"ctx": {\r\n\t\t\t"command": "npx"\r\n\t\t}\r\n\t}\r\n}\r\n',
    );
    await updateJsonFile(f, [{ path: ['mcpServers', 'ctx', 'enabled'], value: false }]);
    expect(readFileSync(f, 'utf8')).toBe(
      '{\r\n\t"mcpServers": {\r\n\t\t"ctx": {\r\n\t\t\t"command": "npx",\r\n\t\t\t"enabled": false\r\n\t\t}\r\n\t}\r\n}\r\n',
    );
  });

  it('re-reads-the-file-so-a-hand-edit-survives', async () => {
    const f = file('{"toolCallMode": "manual"}');
    writeFileSync(f, '{"toolCallMode": "manual", "addedByHand": 1}');
    await updateJsonFile(f, (current) => {
      expect(current).toEqual({ toolCallMode: 'manual', addedByHand: 1 });
      return [{ path: ['toolCallMode'], value: 'auto' }];
    });
    expect(JSON.parse(readFileSync(f, 'utf8'))).toEqual({ toolCallMode: 'auto', addedByHand: 1 });
  });

  it('refuses-to-touch-a-file-that-does-not-parse', async () => {
    const broken = '{"toolCallMode": "manual",,}';
    const f = file(broken);
    await expect(updateJsonFile(f, [{ path: ['toolCallMode'], value: 'auto' }])).rejects.toBeInstanceOf(
      ConfigError,
    );
    expect(readFileSync(f, 'utf8')).toBe(broken);
  });
});
