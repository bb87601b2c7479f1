import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface CliHomeFiles {
  /** Extra config.json keys. */
  config?: Record<string, unknown>;
  /** mcp-servers.json: the `mcpServers` object, or the file's raw text. */
  servers?: string | Record<string, unknown>;
  /** Models besides the active `gpt-test` on the fake. */
  moreModels?: Record<string, unknown>[];
}

/** Writes `<home>/.humble-ai-cli` for a hac whose active model `gpt-test` talks to the fake at `baseUrl`. */
export function writeCliHome(home: string, baseUrl: string, files: CliHomeFiles = {}): string {
  const hacHome = path.join(home, '.humble-ai-cli');
  mkdirSync(hacHome);
  const active = {
    name: 'gpt-test',
    provider: 'openai',
    apiKey: 'sk-e2e-secret-123456',
    baseUrl,
    active: true,
  };
  const models = [active, ...(files.moreModels ?? [])];
  writeFileSync(path.join(hacHome, 'config.json'), JSON.stringify({ models, ...files.config }, null, 2));
  if (files.servers !== undefined) {
    const text =
      typeof files.servers === 'string'
        ? files.servers
        : JSON.stringify({ mcpServers: files.servers }, null, 2);
    writeFileSync(path.join(hacHome, 'mcp-servers.json'), text);
  }
  return hacHome;
}
