import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicReply, startAnthropicFake } from '../../fakes/anthropic-fake.js';
import { ollamaReply, startOllamaFake } from '../../fakes/ollama-fake.js';
import { openaiReply, startOpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome } from '../../helpers/cli-home.js';
import { HacPty } from '../../helpers/pty.js';
import { runHac } from '../../helpers/run-hac.js';
import { useTempDir } from '../../helpers/temp-home.js';

// Pictures for vision models, from outside: the request each provider's loopback fake receives carries the
// image, decoded and scaled to that provider's limits; what cannot be sent gets one line and nothing is sent.
const tempDir = useTempDir();
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const everything = path.resolve(
  import.meta.dirname,
  '../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);

/** A 3000×2000 PNG (a large screenshot) in `dir`. */
async function screenshot(dir: string, name = 'shot.png', background = '#3366cc'): Promise<string> {
  const file = path.join(dir, name);
  await sharp({ create: { width: 3000, height: 2000, channels: 3, background } })
    .png()
    .toFile(file);
  return file;
}

async function dimensions(base64: string) {
  const meta = await sharp(Buffer.from(base64, 'base64')).metadata();
  return { width: meta.width, height: meta.height, format: meta.format };
}

async function openaiHome(models: Record<string, unknown>[] = [], servers?: Record<string, unknown>) {
  const fake = await startOpenAIFake();
  cleanups.push(() => fake.close());
  const home = tempDir();
  const hacHome = writeCliHome(home, fake.baseUrl, { moreModels: models, ...(servers ? { servers } : {}) });
  return { fake, home, hacHome };
}

type Part = { type: string; text?: string; image_url?: { url: string } };
const dataOf = (url: string) => url.replace(/^data:image\/\w+;base64,/, '');

describe('pictures for vision models', () => {
  it('openai-gets-an-image-url-part-scaled-to-its-limits-and-the-file-is-untouched', async () => {
    const { fake, home } = await openaiHome();
    const file = await screenshot(home);
    const before = readFileSync(file);
    fake.reply(openaiReply.text(['A blue square.']));
    const result = await runHac(home, ['-p', 'What is this?', '--image', 'shot.png', '--verbose']);
    expect(result.stdout).toBe('A blue square.\n');
    expect(result.stderr).toContain('[image: shot.png 1152×768'); // said with --verbose
    const user = fake.requests[0]!.body.messages.at(-1) as { role: string; content: Part[] };
    expect(user.content[0]).toEqual({ type: 'text', text: 'What is this?' });
    const url = user.content[1]!.image_url!.url;
    expect(url).toMatch(/^data:image\/png;base64,/);
    expect(await dimensions(dataOf(url))).toEqual({ width: 1152, height: 768, format: 'png' });
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('anthropic-gets-an-image-block-and-ollama-the-messages-images', async () => {
    const anthropic = await startAnthropicFake({ apiKey: 'sk-ant-img' });
    cleanups.push(() => anthropic.close());
    const ollama = await startOllamaFake();
    cleanups.push(() => ollama.close());
    const home = tempDir();
    const hacHome = path.join(home, '.humble-ai-cli');
    mkdirSync(hacHome);
    const models = [
      {
        name: 'claude-sonnet-4-6',
        provider: 'anthropic',
        apiKey: 'sk-ant-img',
        baseUrl: anthropic.baseUrl,
        active: true,
      },
      { name: 'qwen2.5vl:7b', provider: 'ollama', baseUrl: ollama.baseUrl },
    ];
    writeFileSync(path.join(hacHome, 'config.json'), JSON.stringify({ models }));
    await screenshot(home);
    anthropic.reply(anthropicReply.text(['Blue.']));
    expect((await runHac(home, ['-p', 'Colour?', '--image', 'shot.png'])).stdout).toBe('Blue.\n');
    const blocks = anthropic.requests[0]!.body.messages[0].content as {
      type: string;
      source?: { type: string; media_type: string; data: string };
    }[];
    expect(blocks.map((b) => b.type)).toEqual(['text', 'image']);
    expect(blocks[1]!.source).toMatchObject({ type: 'base64', media_type: 'image/png' });
    expect(await dimensions(blocks[1]!.source!.data)).toMatchObject({ width: 1313, height: 875 });

    ollama.reply(ollamaReply.text(['Blue too.']));
    const local = await runHac(home, ['-p', 'Colour?', '--image', 'shot.png', '--model', 'qwen2.5vl:7b']);
    expect(local.stdout).toBe('Blue too.\n');
    const message = (ollama.requests[0]!.body.messages as { role: string; images?: string[] }[]).at(-1)!;
    expect(message.images).toHaveLength(1);
    expect(await dimensions(message.images![0]!)).toMatchObject({ width: 1024, height: 682 });
  });

  it('a-text-only-model-a-missing-file-and-a-non-image-get-one-line-and-nothing-is-sent', async () => {
    const { fake, home } = await openaiHome([
      {
        name: 'text-only',
        provider: 'openai',
        apiKey: 'sk-e2e-secret-123456',
        baseUrl: 'http://127.0.0.1:9',
        vision: false,
      },
    ]);
    await screenshot(home);
    writeFileSync(path.join(home, 'notes.png'), 'not a picture at all');
    const blind = await runHac(home, ['-p', 'hi', '--image', 'shot.png', '--model', 'text-only']);
    expect(blind.status).toBe(1);
    expect(blind.stderr).toContain('text-only does not take images; nothing was sent.');
    const missing = await runHac(home, ['-p', 'hi', '--image', 'gone.png']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('Cannot read image gone.png: no such file.');
    const bogus = await runHac(home, ['-p', 'hi', '--image', 'notes.png']);
    expect(bogus.stderr).toContain('notes.png is not an image hac can send (PNG, JPEG, WebP or GIF).');
    expect(bogus.stderr).not.toMatch(/\n\s+at /);
    expect(fake.requests).toHaveLength(0);
  });

  it('an-mcp-image-reaches-a-vision-model-after-the-tool-results-and-a-placeholder-reaches-a-text-only-one', async () => {
    const servers = { e: { command: process.execPath, args: [everything, 'stdio'] } };
    const { fake, home } = await openaiHome(
      [
        {
          name: 'text-only',
          model: 'gpt-test',
          provider: 'openai',
          apiKey: 'sk-e2e-secret-123456',
          vision: false,
        },
      ],
      servers,
    );
    const config = path.join(home, '.humble-ai-cli/config.json');
    const parsed = JSON.parse(readFileSync(config, 'utf8'));
    parsed.models[1].baseUrl = fake.baseUrl;
    writeFileSync(config, JSON.stringify(parsed));
    const call = [{ id: 'c1', name: 'e__get-tiny-image', arguments: {} }];
    fake.reply(openaiReply.toolCalls(call), openaiReply.text(['A tiny image.']));
    const seen = await runHac(home, ['-p', 'show me', '--yes']);
    expect(seen.stdout).toBe('A tiny image.\n');
    const messages = fake.requests[1]!.body.messages as { role: string; content: string | Part[] }[];
    const toolAt = messages.findIndex((m) => m.role === 'tool');
    const after = messages[toolAt + 1]!;
    expect(after.role).toBe('user');
    const parts = after.content as Part[];
    expect(parts[0]!.text).toBe('Images from the tool results above:');
    expect(parts[1]!.image_url!.url).toMatch(/^data:image\/png;base64,/);

    fake.reply(openaiReply.toolCalls(call), openaiReply.text(['Cannot see it.']));
    await runHac(home, ['-p', 'show me', '--yes', '--model', 'text-only']);
    const blind = fake.requests[3]!.body.messages as { role: string; content: string }[];
    expect(blind.some((m) => Array.isArray(m.content))).toBe(false);
    expect(blind.find((m) => m.role === 'tool')!.content).toMatch(
      /\[image from e\/get-tiny-image: \d+×\d+ PNG, not sent: this model does not take images\]/,
    );
  });

  it('in-the-repl-at-file-slash-image-and-a-dropped-path-attach-and-resume-sends-them-again', async () => {
    const { fake, home, hacHome } = await openaiHome();
    await screenshot(home);
    await screenshot(home, 'second shot.png', '#cc6633');
    fake.reply(openaiReply.text(['One.']), openaiReply.text(['Two.']), openaiReply.text(['Three.']));
    const hac = new HacPty(home);
    cleanups.push(() => hac.kill());
    await hac.waitFor('humble-ai> ');
    hac.write('what is in @shot.png?\r');
    await hac.waitFor('[image: shot.png 1152×768');
    await hac.waitFor('One.');
    const first = fake.requests[0]!.body.messages.at(-1) as { content: Part[] };
    expect(first.content[0]!.text).toBe('what is in shot.png?');

    // A terminal types a dropped file's path, quoted; /image takes one for the next message.
    hac.write(`'${path.join(home, 'second shot.png')}'\r`);
    await hac.waitFor('Attached [image: second shot.png');
    hac.write('/image @missing.png\r');
    await hac.waitFor('Cannot read image @missing.png: no such file.');
    hac.write('and this?\r');
    await hac.waitFor('Two.');
    const second = fake.requests[1]!.body.messages as { role: string; content: string | Part[] }[];
    expect((second.at(-1)!.content as Part[]).filter((p) => p.type === 'image_url')).toHaveLength(1);
    // The first picture is still in the conversation.
    expect((second.at(-3)!.content as Part[]).filter((p) => p.type === 'image_url')).toHaveLength(1);

    // Stored once beside the session, by hash, never inlined.
    const sessions = path.join(hacHome, 'sessions');
    const json = readdirSync(sessions).find((n) => n.endsWith('.json'))!;
    const assets = path.join(sessions, json.replace(/\.json$/, '.assets'));
    // The session is written once the answer is shown.
    const stored = () => readdirSync(assets).filter((f) => /^[0-9a-f]{64}\.png$/.test(f));
    await expect.poll(() => stored().length).toBe(2);
    expect(readFileSync(path.join(sessions, json), 'utf8')).not.toMatch(/base64|iVBOR/);
    // Written atomically: once both are there, nothing else is (no temp file left behind).
    await expect.poll(() => readdirSync(assets).length).toBe(2);
    const files = stored();
    expect(statSync(path.join(assets, files[0]!)).mode & 0o777).toBe(0o600);
    hac.write('/exit\r');
    await hac.exited;

    const again = new HacPty(home, ['--resume']);
    cleanups.push(() => again.kill());
    await again.waitFor('humble-ai> ');
    again.write('and now?\r');
    await again.waitFor('Three.');
    const resumed = fake.requests[2]!.body.messages as { role: string; content: string | Part[] }[];
    const pictures = resumed
      .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
      .filter((p) => p.type === 'image_url');
    expect(pictures).toHaveLength(2);
  });
});
