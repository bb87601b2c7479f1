import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../../core/errors/hac-error.js';
import { defaultBaseUrl, loadConfig, resolveApiKey } from '../../../../core/config/load-config.js';
import { useTempDir } from '../../../helpers/temp-home.js';

const tempDir = useTempDir();

function configFile(content: string): string {
  const file = path.join(tempDir(), 'config.json');
  writeFileSync(file, content);
  return file;
}

async function problemsOf(content: string): Promise<{ error: ConfigError; file: string }> {
  const file = configFile(content);
  const error = await loadConfig(file).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ConfigError)) throw new Error(`expected a ConfigError, got ${String(error)}`);
  expect(readFileSync(file, 'utf8')).toBe(content); // never repaired (R-HOME-5)
  return { error, file };
}

describe('loadConfig', () => {
  it('treats-a-missing-file-as-defaults', async () => {
    const config = await loadConfig(path.join(tempDir(), 'config.json'));
    expect(config).toMatchObject({
      missing: true,
      logLevel: 'info',
      toolCallMode: 'manual',
      models: [],
      activeModel: undefined,
    });
    expect(config.contextMaxChars).toBe(80_000);
  });

  it('reads-the-original-format-with-name-and-case-insensitive-values', async () => {
    const file = configFile(
      JSON.stringify({
        logLevel: 'DEBUG',
        toolCallMode: 'Auto',
        models: [
          { name: 'gpt-4o', provider: 'OpenAI', apiKey: 'sk-x', active: true },
          { name: 'llama3.2', provider: 'ollama', baseUrl: 'http://localhost:11434/' },
          { model: 'qwen3:8b', name: 'Qwen', provider: 'ollama', think: 'HIGH', toolMode: 'native' },
        ],
        myOwnKey: { kept: true },
      }),
    );
    const config = await loadConfig(file);
    expect(config.logLevel).toBe('debug');
    expect(config.toolCallMode).toBe('auto');
    expect(config.activeModel).toMatchObject({
      id: 'gpt-4o',
      label: 'gpt-4o',
      provider: 'openai',
      toolMode: 'native',
      baseUrl: 'https://api.openai.com/v1',
      firstByteTimeoutMs: 20_000,
    });
    expect(config.models[1]).toMatchObject({
      id: 'llama3.2',
      provider: 'ollama',
      toolMode: 'prompt',
      baseUrl: 'http://localhost:11434',
      firstByteTimeoutMs: 120_000,
    });
    expect(config.models[2]).toMatchObject({
      id: 'qwen3:8b',
      label: 'Qwen',
      think: 'high',
      toolMode: 'native',
    });
  });

  it('reports-two-active-models', async () => {
    const { error, file } = await problemsOf(
      '{"models":[{"name":"a","provider":"openai","active":true},{"name":"b","provider":"ollama","active":true}]}',
    );
    expect(error.file).toBe(file);
    expect(error.problems).toEqual([
      expect.objectContaining({
        at: 'models',
        message: expect.stringContaining('2 models are marked "active": true'),
      }),
    ]);
    expect(error.message).toContain(file);
    expect(error.message).toContain('Keep "active": true on one model at most');
  });

  it('reports-a-bad-log-level-with-its-fix', async () => {
    const { error } = await problemsOf('{"logLevel":"verbose"}');
    expect(error.problems).toEqual([
      expect.objectContaining({ at: 'logLevel', fix: 'Use one of "debug", "info", "warn", "error".' }),
    ]);
  });

  it('reports-a-bad-tool-call-mode', async () => {
    const { error } = await problemsOf('{"toolCallMode":"sometimes"}');
    expect(error.problems[0]).toMatchObject({ at: 'toolCallMode', fix: 'Use "manual" or "auto".' });
  });

  it('reports-an-unknown-provider-at-its-json-path', async () => {
    const { error } = await problemsOf(
      '{"models":[{"name":"a","provider":"openai"},{"name":"c","provider":"gemini"}]}',
    );
    expect(error.problems[0]).toMatchObject({
      at: 'models[1].provider',
      fix: 'Use "openai", "ollama" or "anthropic".',
    });
    expect(error.message).toContain('models[1].provider');
  });

  it('accepts-anthropic-with-max-tokens-and-defaults-its-base-url-and-native-tools', async () => {
    const file = path.join(tempDir(), 'config.json');
    writeFileSync(
      file,
      '{"models":[{"model":"claude-sonnet-4-6","provider":"Anthropic","maxTokens":8192,"active":true}]}',
    );
    const config = await loadConfig(file);
    expect(config.activeModel).toMatchObject({
      provider: 'anthropic',
      baseUrl: 'https://api.anthropic.com',
      maxTokens: 8192,
      toolMode: 'native',
    });
  });

  it('reports-a-missing-model-id', async () => {
    const { error } = await problemsOf('{"models":[{"provider":"openai","apiKey":"x"}]}');
    expect(error.problems[0]).toMatchObject({ at: 'models[0].model', message: 'the model id is missing' });
    expect(error.problems[0]!.fix).toContain('"model": "<model id>"');
  });

  it('reports-a-syntax-error-with-line-and-column', async () => {
    const { error } = await problemsOf(
      '{\n  "logLevel": "info",\n  "models": [\n    {"name": "a" "provider": "openai"}\n  ]\n}\n',
    );
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]!.at).toBe('line 4, column 18');
    expect(error.message).toMatch(/JSON syntax error/);
  });

  it('reports-every-problem-at-once', async () => {
    const { error } = await problemsOf('{"logLevel":"loud","toolCallMode":1,"models":[{"provider":"x"}]}');
    expect(error.problems.map((p) => p.at).sort()).toEqual([
      'logLevel',
      'models[0].model',
      'models[0].provider',
      'toolCallMode',
    ]);
  });
});

describe('resolveApiKey', () => {
  const model = { apiKey: undefined } as Parameters<typeof resolveApiKey>[0];
  it('reads-env-references-literal-keys-and-falls-back-to-OPENAI_API_KEY', () => {
    expect(resolveApiKey({ ...model, apiKey: '${MY_KEY}' }, { MY_KEY: 'sk-from-env' })).toBe('sk-from-env');
    expect(resolveApiKey({ ...model, apiKey: '${MISSING}' }, {})).toBeUndefined();
    expect(resolveApiKey({ ...model, apiKey: 'sk-literal' }, { OPENAI_API_KEY: 'other' })).toBe('sk-literal');
    expect(resolveApiKey(model, { OPENAI_API_KEY: 'sk-default' })).toBe('sk-default');
  });
});

describe('where a model without baseUrl is served', () => {
  it('follows-the-variables-people-already-set-for-each-vendor', () => {
    expect(defaultBaseUrl('openai', {})).toBe('https://api.openai.com/v1');
    expect(defaultBaseUrl('openai', { OPENAI_BASE_URL: 'http://litellm.corp:4000/v1' })).toBe(
      'http://litellm.corp:4000/v1',
    );
    expect(defaultBaseUrl('anthropic', { ANTHROPIC_BASE_URL: 'https://gw.corp/anthropic' })).toBe(
      'https://gw.corp/anthropic',
    );
    // OLLAMA_HOST as `ollama serve` takes it.
    expect(defaultBaseUrl('ollama', {})).toBe('http://localhost:11434');
    expect(defaultBaseUrl('ollama', { OLLAMA_HOST: '0.0.0.0:11434' })).toBe('http://127.0.0.1:11434');
    expect(defaultBaseUrl('ollama', { OLLAMA_HOST: 'gpu-box' })).toBe('http://gpu-box:11434');
    expect(defaultBaseUrl('ollama', { OLLAMA_HOST: 'https://ollama.corp' })).toBe('https://ollama.corp');
    expect(defaultBaseUrl('ollama', { OLLAMA_HOST: 'http://10.0.0.5:8080' })).toBe('http://10.0.0.5:8080');
  });
});
