import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openaiReply, startOpenAIFake, type OpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome } from '../../helpers/cli-home.js';
import { HacPty, plain } from '../../helpers/pty.js';
import { runHac } from '../../helpers/run-hac.js';
import { useTempDir } from '../../helpers/temp-home.js';

// MCP Apps in the terminal, with the extension's own example server from the registry and hac's fixture: a tool
// with a view says so under its result, a tool for views only is never offered to the model, and `hac -p` (which
// shows no view) neither declares views nor mentions one.
const root = path.resolve(import.meta.dirname, '../../..');
const servers = {
  basic: {
    command: process.execPath,
    args: [
      path.join(root, 'node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js'),
      '--stdio',
    ],
  },
  apps: { command: process.execPath, args: [path.join(root, 'test/fixtures/mcp/app-server.mjs')] },
};
const tempDir = useTempDir();
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function start(): Promise<{ fake: OpenAIFake; home: string }> {
  const fake = await startOpenAIFake();
  cleanups.push(() => fake.close());
  const home = tempDir();
  writeCliHome(home, fake.baseUrl, { servers, config: { toolCallMode: 'auto' } });
  return { fake, home };
}

const offered = (fake: OpenAIFake) =>
  (fake.requests[0]!.body.tools as { function: { name: string } }[]).map((t) => t.function.name);

describe('a tool with a view, in the terminal', () => {
  it('says-under-its-result-that-it-has-a-view-and-which-number-opens-it', async () => {
    const { fake, home } = await start();
    fake.reply(
      openaiReply.toolCalls([{ id: 'c1', name: 'basic__get-time', arguments: {} }]),
      openaiReply.text(['It is noon.']),
      openaiReply.toolCalls([{ id: 'c2', name: 'apps__show-weather', arguments: { place: '서울' } }]),
      openaiReply.text(['Sunny.']),
    );
    const hac = new HacPty(home);
    cleanups.push(() => hac.kill());
    await hac.waitFor('humble-ai> ');
    hac.write('what time is it?\r');
    await hac.waitFor('It is noon.');
    hac.write('서울 날씨는?\r');
    await hac.waitFor('Sunny.');
    const screen = plain(hac.output);
    expect(screen).toMatch(
      /basic\/get-time returned \d+ characters\.\nbasic\/get-time has a view: \/view 1 opens it in your browser\n/,
    );
    expect(screen).toContain(
      'apps/show-weather returned 16 characters.\napps/show-weather has a view: /view 2 opens it in your browser\n',
    );
    expect(offered(fake)).toContain('apps__show-weather');
    expect(offered(fake)).not.toContain('apps__refresh-weather');

    // Kept with the conversation: continued in a new hac, the views are there again, without calling anything.
    hac.write('/exit\r');
    await hac.exited;
    const calls = fake.requests.length;
    const again = new HacPty(home, ['-c'], { BROWSER: '/bin/true' });
    cleanups.push(() => again.kill());
    await again.waitFor(
      'This conversation has 2 views: /view 1 (basic/get-time), /view 2 (apps/show-weather).',
    );
    await again.waitFor('humble-ai> ');
    again.write('/view 2\r');
    await again.waitFor(/View: apps\/show-weather: http:\/\/127\.0\.0\.1:\d+\/view\/1\?key=/);
    expect(fake.requests.length).toBe(calls);
  });

  it('hac-p-declares-no-views-and-mentions-none', async () => {
    const { fake, home } = await start();
    fake.reply(
      openaiReply.toolCalls([
        { id: 'c1', name: 'apps__show-weather', arguments: { place: 'Paris' } },
        { id: 'c2', name: 'apps__client-extensions', arguments: {} },
      ]),
      openaiReply.text(['Done.']),
    );
    const run = await runHac(home, ['-p', '--verbose', 'weather in Paris']);
    expect(run.stdout).toBe('Done.\n');
    expect(run.stderr).not.toContain('has a view');
    const results = (fake.requests[1]!.body.messages as { role: string; content: string }[])
      .filter((m) => m.role === 'tool')
      .map((m) => m.content);
    expect(results).toEqual(['Paris: sunny, 21 °C', 'null']);
    expect(offered(fake)).not.toContain('apps__refresh-weather');
  });
});
