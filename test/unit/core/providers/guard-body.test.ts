import { describe, expect, it } from 'vitest';
import { guardBody } from '../../../../core/providers/guard-body.js';
import { ProviderError } from '../../../../core/errors/provider-error.js';
import { fakeModelConfig } from '../../../fakes/model-config.js';

const context = {
  model: fakeModelConfig('ollama', 'http://127.0.0.1:11434'),
  configFile: '/home/u/.humble-ai-cli/config.json',
};

/** A body that arrives in exactly these reads. */
function bodyOf(reads: string[]): ReadableStream<Uint8Array> {
  const bytes = reads.map((r) => new TextEncoder().encode(r));
  let next = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const read = bytes[next++];
      if (read) controller.enqueue(read);
      else controller.close();
    },
  });
}

/** Reads the guarded body to its end: the complete lines counted after each read, the text, and the error. */
async function readAll(reads: string[]) {
  const lines = { passed: 0 };
  const reader = guardBody(bodyOf(reads), { context, validateJsonLines: true, lines }).getReader();
  const counts: number[] = [];
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
      counts.push(lines.passed);
    }
    return { counts, text, error: undefined };
  } catch (error) {
    return { counts, text, error: error as ProviderError };
  }
}

describe('guardBody: NDJSON lines passed on', () => {
  it('counts-the-complete-lines-each-read-passes-on', async () => {
    // A line split across reads counts once, in the read that completes it; a blank line is a line to the SDK.
    const result = await readAll(['{"a":1}\n{"b"', ':2}\n\n{"c":3}\n', '{"d":4}']);
    expect(result.error).toBeUndefined();
    expect(result.counts).toEqual([1, 4, 4]);
    expect(result.text).toBe('{"a":1}\n{"b":2}\n\n{"c":3}\n{"d":4}');
  });

  it('stops-counting-before-a-bad-line-and-fails-after-what-came-before-it', async () => {
    const result = await readAll(['{"a":1}\n{"b":2}\n<html>\n{"c":3}\n']);
    expect(result.text).toBe('{"a":1}\n{"b":2}\n');
    expect(result.counts).toEqual([2]);
    expect(result.error).toBeInstanceOf(ProviderError);
    expect(result.error?.message).toContain('a line that is not JSON: <html>');
  });
});
