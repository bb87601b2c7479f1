import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ollamaReply, startOllamaFake } from '../../fakes/ollama-fake.js';
import { runHac } from '../../helpers/run-hac.js';
import { useTempDir } from '../../helpers/temp-home.js';

// What a start loads, every `hac -p` pays for. A local Ollama answer needs none of these: undici (the global fetch's
// classes; also loaded by an ES module import of node:http, ~40 ms), TLS (Node then parses the root certificates on
// another thread), child_process and node:crypto (~13 ms together, required by electron-log as it loads). An import
// that pulls one of them onto this path fails here, not only in bench/.

const tempDir = useTempDir();
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** The built-in modules one `hac -p` loaded, answered by the fake Ollama; and its log's text. */
async function modulesOfAnOllamaAnswer(servers?: Record<string, unknown>) {
  const fake = await startOllamaFake();
  cleanups.push(() => fake.close());
  fake.reply(ollamaReply.text(['Ready ', 'when you are.']));
  const home = tempDir();
  const hacHome = path.join(home, '.humble-ai-cli');
  mkdirSync(hacHome);
  const model = { provider: 'ollama', model: 'llama3.2', baseUrl: fake.baseUrl, active: true };
  writeFileSync(path.join(hacHome, 'config.json'), JSON.stringify({ models: [model] }));
  if (servers) writeFileSync(path.join(hacHome, 'mcp-servers.json'), JSON.stringify({ mcpServers: servers }));
  const loaded = path.join(home, 'loaded.json');
  const recorder = path.join(home, 'record-modules.cjs');
  writeFileSync(
    recorder,
    `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(loaded)}, JSON.stringify(process.moduleLoadList)));`,
  );

  const result = await runHac(home, ['-p', 'hi'], { env: { NODE_OPTIONS: `--require ${recorder}` } });

  expect(result.status).toBe(0);
  expect(result.stdout).toContain('Ready when you are.');
  const modules = JSON.parse(readFileSync(loaded, 'utf8')) as string[];
  expect(modules).toContain('NativeModule http'); // the list is the real one: the answer came over node:http
  const [log] = readdirSync(path.join(hacHome, 'logs'));
  return { modules, log: readFileSync(path.join(hacHome, 'logs', log!), 'utf8') };
}

describe('what a one-shot Ollama answer loads', () => {
  it('an-ollama-answer-loads-neither-undici-nor-tls-nor-child-process-nor-crypto', async () => {
    const { modules, log } = await modulesOfAnOllamaAnswer();
    for (const costly of ['internal/deps/undici/undici', 'tls', 'child_process', 'crypto'])
      expect(modules).not.toContain(`NativeModule ${costly}`);
    // electron-log, given stand-ins for what it requires, still wrote the day's log.
    expect(log).toMatch(/\[INFO\] Session file created: /);
  });

  it('with-a-stdio-mcp-server-it-loads-child-process-but-neither-undici-nor-tls-nor-crypto', async () => {
    const server = path.resolve(import.meta.dirname, '../../fixtures/mcp/test-server.mjs');
    const { modules, log } = await modulesOfAnOllamaAnswer({
      test: { command: process.execPath, args: [server] },
    });
    expect(modules).toContain('NativeModule child_process'); // the server was started
    for (const costly of ['internal/deps/undici/undici', 'tls', 'crypto'])
      expect(modules).not.toContain(`NativeModule ${costly}`);
    expect(log).toMatch(/MCP server "test"/);
  });
});
