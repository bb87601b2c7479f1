import { afterEach, describe, expect, it } from 'vitest';
import { openaiReply, startOpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome } from '../../helpers/cli-home.js';
import { testServerEntry } from '../../helpers/engine-harness.js';
import { HacPty, plain } from '../../helpers/pty.js';
import { useTempDir } from '../../helpers/temp-home.js';

// The terminal for a screen reader (`--screen-reader`, HAC_SCREEN_READER=1): labelled lines read once, in order;
// no colour, no line hac wraps itself with an erase, nothing drawn over.
const tempDir = useTempDir('hac-reader-');
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('hac for a screen reader', () => {
  it.each([
    ['--screen-reader', [['--screen-reader'], {}]],
    ['HAC_SCREEN_READER=1', [[], { HAC_SCREEN_READER: '1' }]],
  ] as const)('%s labels each message and asks with Question:', async (_how, [args, env]) => {
    const fake = await startOpenAIFake();
    cleanups.push(() => fake.close());
    const home = tempDir();
    writeCliHome(home, fake.baseUrl, { servers: { tools: testServerEntry() } });
    const hac = new HacPty(home, [...args], { ...env });
    cleanups.push(() => hac.kill());
    await hac.waitFor('You: ');
    fake.reply(
      openaiReply.toolCalls([{ id: 'c1', name: 'tools__echo', arguments: { text: '안녕' } }]),
      openaiReply.text(['The tool said ', '안녕.']),
    );
    const from = hac.output.length;
    hac.write('echo 안녕\r');
    await hac.waitFor('Call now? (Y/N): ');
    hac.write('y\r');
    await hac.waitFor('The tool said 안녕.');
    await hac.waitFor('You: ', { from: plain(hac.output).length - 10 });
    const said = plain(hac.output.slice(from));
    expect(said).toMatch(
      /Tool call:\nMCP server: tools \(hac test server\)\nTool: echo: [^\n]*\nArguments:\n[^]*Question:\n[^]*Call now\? \(Y\/N\): y\n[^]*Answer:\nThe tool said 안녕\.\n/,
    );
    // hac's own output has no colour, reverse video or erase: a reader is never told a line twice.
    const raw = hac.output.slice(from);
    expect(raw).not.toMatch(/\x1b\[(\d+;)*(2|7|3\d|9\d)m/);
    expect(raw).not.toContain('\x1b[K\n');
    hac.write('/exit\r');
    await hac.exited;
  });
});
