import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../../core/host/runtime.js';
import { refusedUrl } from '../../fakes/http-fake.js';
import { useTempDir } from '../../helpers/temp-home.js';

const tempDir = useTempDir();

describe('the log of a real run', () => {
  it('a-failed-turn-is-in-the-daily-log-after-close', async () => {
    const home = tempDir();
    writeFileSync(
      path.join(home, 'config.json'),
      JSON.stringify({
        models: [{ name: 'llama3.2', provider: 'ollama', baseUrl: await refusedUrl(), active: true }],
      }),
    );
    const runtime = await createRuntime({ home });
    const { engine } = runtime.openChat();
    const events = [];
    for await (const e of engine.run('hello', new AbortController().signal)) events.push(e);
    await runtime.close();
    const [file] = readdirSync(path.join(home, 'logs'));
    expect(file).toMatch(/^application-hac-\d{4}-\d\d-\d\d\.log$/);
    const log = readFileSync(path.join(home, 'logs', file!), 'utf8');
    expect(log).toMatch(/\[WARN\] .*retrying/);
    expect(log).toMatch(/\[ERROR\] Turn failed|Cannot reach Ollama/);
  });
});
