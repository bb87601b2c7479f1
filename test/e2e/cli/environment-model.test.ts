import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startOllamaFake } from '../../fakes/ollama-fake.js';
import { openaiReply, startOpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome } from '../../helpers/cli-home.js';
import { HacPty, plain } from '../../helpers/pty.js';
import { runHac } from '../../helpers/run-hac.js';
import { replay, rowsOf } from '../../helpers/screen.js';
import { useTempDir } from '../../helpers/temp-home.js';

// Someone coming from codex, llm or gemini-cli: the environment alone gives a model, and the one offered is one the
// server has (asked with GET /models), not a guess. A fake OpenAI-compatible server (a LiteLLM or vLLM would list
// names like these) and a fake Ollama on a port of their own.
const tempDir = useTempDir();
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const KEY = 'sk-from-the-environment-77';

async function server() {
  const fake = await startOpenAIFake({ models: ['qwen2.5-coder-32b', 'llama-3.3-70b'] });
  cleanups.push(() => fake.close());
  const env = { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: fake.baseUrl };
  const listed = () => fake.requests.filter((r) => r.method === 'GET' && r.path === '/v1/models').length;
  const chats = () => fake.requests.filter((r) => r.path === '/v1/chat/completions');
  return { fake, env, listed, chats };
}

describe('a model from the environment alone', () => {
  it('the-first-run-offers-what-the-server-lists-and-declined-the-environment-model-answers', async () => {
    const { fake, env, listed, chats } = await server();
    const home = tempDir();
    const config = path.join(home, '.humble-ai-cli', 'config.json');
    const hac = new HacPty(home, [], env);
    cleanups.push(() => hac.kill());
    await hac.waitFor(`  1) openai: qwen2.5-coder-32b (key from $OPENAI_API_KEY at ${fake.baseUrl})`);
    await hac.waitFor('  2) openai: llama-3.3-70b');
    expect(listed()).toBeGreaterThan(0);
    await hac.waitFor('Write config.json for which? (a number, 0 for not now): ');
    hac.write('0\r');
    const said =
      'Nothing written. Using qwen2.5-coder-32b (openai) from the environment; /set-model writes a model into config.json.';
    await hac.waitFor(said);
    // Longer than the terminal's 100 columns: broken at a space, never mid-word.
    const rows = rowsOf(await replay(hac.output));
    const at = rows.findIndex((row) => row.startsWith('Nothing written.'));
    expect(rows[at]!.length).toBeLessThanOrEqual(100);
    expect(`${rows[at]} ${rows[at + 1]}`).toBe(said);
    fake.reply(openaiReply.text(['Hello from the environment.']));
    await hac.say('hi', 'Hello from the environment.');
    expect(chats()[0]!.body.model).toBe('qwen2.5-coder-32b');
    expect(chats()[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(plain(hac.output)).not.toContain('No active model');
    await hac.say('/set-model', 'Choice (0 keeps the current model): ');
    await hac.waitFor('  1) qwen2.5-coder-32b (openai, from the environment) *');
    hac.write('0\r');
    await hac.waitFor('Model selection unchanged.');
    expect(existsSync(config)).toBe(false); // nothing written without a choice
    expect(plain(hac.output)).not.toContain(KEY);
    hac.write('/exit\r');
    await hac.exited;
  });

  it('with-a-config-json-a-start-asks-no-server-of-the-environment-anything', async () => {
    // Keys in the environment are common (another client uses them): with a config.json, hac neither waits for
    // those servers before its prompt nor tells them it started.
    const { env, listed, chats } = await server();
    const ollama = await startOllamaFake({ models: ['qwen3:8b'] });
    cleanups.push(() => ollama.close());
    const configured = await startOpenAIFake();
    cleanups.push(() => configured.close());
    const home = tempDir();
    writeCliHome(home, configured.baseUrl);
    const hac = new HacPty(home, [], { ...env, OLLAMA_HOST: ollama.baseUrl });
    cleanups.push(() => hac.kill());
    await hac.waitFor('humble-ai> ');
    configured.reply(openaiReply.text(['From config.json.']));
    await hac.say('hi', 'From config.json.');
    expect(listed()).toBe(0);
    expect(chats()).toHaveLength(0);
    expect(ollama.requests).toHaveLength(0);
  });

  it('hac-p-answers-with-the-environment-alone-and-with-an-empty-models-list', async () => {
    const { fake, env, chats } = await server();
    const home = tempDir();
    fake.reply(openaiReply.text(['Four.']), openaiReply.text(['Five.']));
    const first = await runHac(home, ['-p', '2+2?'], { env });
    expect(first).toMatchObject({ status: 0, stdout: 'Four.\n' });
    expect(chats()[0]!.body.model).toBe('qwen2.5-coder-32b');
    // A config.json with no model is the same as none.
    const hacHome = path.join(home, '.humble-ai-cli');
    writeFileSync(path.join(hacHome, 'config.json'), '{ "toolCallMode": "auto", "models": [] }\n');
    const second = await runHac(home, ['-p', '2+3?'], { env });
    expect(second).toMatchObject({ status: 0, stdout: 'Five.\n' });
    expect(existsSync(path.join(hacHome, 'sessions'))).toBe(true);
  });

  it('a-server-that-does-not-list-its-models-is-offered-the-usual-name-and-ollama-is-named-where-it-is', async () => {
    const ollama = await startOllamaFake({ models: ['qwen3:8b'] });
    cleanups.push(() => ollama.close());
    const home = tempDir();
    // Nothing listens on this port: no list comes back, so the everyday name is offered.
    const hac = new HacPty(home, [], {
      OPENAI_API_KEY: KEY,
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
      OLLAMA_HOST: ollama.baseUrl,
    });
    cleanups.push(() => hac.kill());
    await hac.waitFor('  1) openai: gpt-4o (key from $OPENAI_API_KEY at http://127.0.0.1:9/v1)');
    await hac.waitFor(`  2) ollama: qwen3:8b (on ${ollama.baseUrl})`);
    hac.write('0\r');
    await hac.waitFor('Nothing written.');
    hac.write('/exit\r');
    await hac.exited;
  });

  it('models-in-config-json-but-none-active-say-only-to-choose-one', async () => {
    const home = tempDir();
    const hacHome = path.join(home, '.humble-ai-cli');
    mkdirSync(hacHome);
    writeFileSync(
      path.join(hacHome, 'config.json'),
      JSON.stringify({ models: [{ name: 'gpt-test', provider: 'openai', apiKey: 'sk-x-123456' }] }, null, 2),
    );
    const hac = new HacPty(home);
    cleanups.push(() => hac.kill());
    const at = await hac.waitFor('No active model is configured. Use /set-model to choose a model.');
    await hac.waitFor('humble-ai> ', { from: at });
    expect(plain(hac.output)).not.toContain('Add a model to');
    hac.write('/exit\r');
    await hac.exited;
  });

  it('set-model-lists-what-an-openai-compatible-server-has-and-keeps-the-window-it-states', async () => {
    // A vLLM server: its list states each model's context window (max_model_len).
    const fake = await startOpenAIFake({
      models: ['gpt-test', { id: 'qwen2.5-coder-32b', max_model_len: 32_768 }],
    });
    cleanups.push(() => fake.close());
    const home = tempDir();
    const hacHome = path.join(home, '.humble-ai-cli');
    mkdirSync(hacHome);
    const config = path.join(hacHome, 'config.json');
    const entry = { name: 'gpt-test', provider: 'openai', baseUrl: fake.baseUrl, apiKey: '${VLLM_KEY}' };
    writeFileSync(config, JSON.stringify({ models: [{ ...entry, active: true }] }, null, 2));
    const hac = new HacPty(home, [], { VLLM_KEY: KEY });
    cleanups.push(() => hac.kill());
    await hac.waitFor('humble-ai> ');
    await hac.say('/set-model', 'Choice (0 keeps the current model): ');
    await hac.waitFor('  1) gpt-test (openai) *');
    await hac.waitFor('  2) qwen2.5-coder-32b (openai, not in config)');
    expect(plain(hac.output)).not.toMatch(/\d\) gpt-test \(openai, not in config\)/);
    hac.write('2\r');
    await hac.waitFor('Active model set to qwen2.5-coder-32b (openai).');
    const written = JSON.parse(readFileSync(config, 'utf8')) as { models: Record<string, unknown>[] };
    expect(written.models[1]).toEqual({
      name: 'qwen2.5-coder-32b',
      provider: 'openai',
      baseUrl: fake.baseUrl,
      apiKey: '${VLLM_KEY}', // the reference it was found with, never the key
      contextWindow: 32_768,
      active: true,
    });
    expect(readFileSync(config, 'utf8')).not.toContain(KEY);
    hac.write('/exit\r');
    await hac.exited;
  });
});
