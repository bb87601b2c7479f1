import { describe, expect, it } from 'vitest';
import { httpStatusError } from '../../../../core/providers/provider-errors.js';
import { fakeModelConfig } from '../../../fakes/model-config.js';

const answer = { status: 503, serverMessage: 'overloaded', overflow: false };
const said = (provider: 'openai' | 'anthropic' | 'ollama', baseUrl: string, vendor: string) =>
  httpStatusError({ model: fakeModelConfig(provider, baseUrl), configFile: '/c.json' }, vendor, answer)
    .message;

describe('who an HTTP error names', () => {
  it('names-the-vendor-for-its-own-api-and-any-other-server-by-its-address', () => {
    expect(said('openai', 'https://api.openai.com/v1', 'OpenAI')).toBe(
      'OpenAI is unavailable (HTTP 503): overloaded',
    );
    expect(said('anthropic', 'https://api.anthropic.com', 'Anthropic')).toMatch(/^Anthropic is unavailable/);
    expect(said('ollama', 'http://localhost:11434', 'Ollama')).toMatch(/^Ollama is unavailable/);
    expect(said('openai', 'http://localhost:1234/v1', 'OpenAI')).toBe(
      'The server at http://localhost:1234/v1 is unavailable (HTTP 503): overloaded',
    );
    expect(said('ollama', 'http://gpu-box:11434', 'Ollama')).toMatch(
      /^The Ollama server at http:\/\/gpu-box:11434 is/,
    );
  });
});
