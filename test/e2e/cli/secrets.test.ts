import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openaiReply, startOpenAIFake } from '../../fakes/openai-fake.js';
import { writeCliHome, type CliHomeFiles } from '../../helpers/cli-home.js';
import { testServerEntry } from '../../helpers/engine-harness.js';
import { HacPty, plain } from '../../helpers/pty.js';
import { runHac } from '../../helpers/run-hac.js';
import { useTempDir } from '../../helpers/temp-home.js';

// Secrets a server quotes back in its own words (issue 17 §1, R-LOG-4): none has a key's shape, so only
// masking by value can catch them. Each test looks at every place a line can leave hac.
const KEY = 'local-llm-key-7f3a91'; // an OpenAI-compatible server's key: no `sk-` shape
const HEADER_TOKEN = 'tok_9c1d2e3f4a5b';
const ORG = 'org-acme-4411';
const STDIO_SECRET = 'db-pass-q8w7e6';

const tempDir = useTempDir();
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(files: CliHomeFiles = {}) {
  const fake = await startOpenAIFake();
  cleanups.push(() => fake.close());
  const home = tempDir();
  const hacHome = writeCliHome(home, fake.baseUrl, files);
  // The key is given as `${ENV}`: the registry must know the expanded value.
  const config = JSON.parse(readFileSync(path.join(hacHome, 'config.json'), 'utf8'));
  config.models[0].apiKey = '${LOCAL_LLM_KEY}';
  writeFileSync(path.join(hacHome, 'config.json'), JSON.stringify(config));
  return { fake, home, hacHome, env: { LOCAL_LLM_KEY: KEY } };
}

function logText(hacHome: string): string {
  const dir = path.join(hacHome, 'logs');
  return readdirSync(dir)
    .map((f) => readFileSync(path.join(dir, f), 'utf8'))
    .join('\n');
}

// Some OpenAI-compatible servers answer a bad key with 400 and their own words (Google's says "API key not valid").
const invalidKey = () =>
  openaiReply.error(400, { message: `Invalid API key: ${KEY}`, code: 'invalid_api_key' });

/** A remote MCP server that refuses every request, quoting the headers it got. */
async function rejectingServer(): Promise<string> {
  const server = http.createServer((req, res) => {
    res.writeHead(401, { 'content-type': 'text/plain' });
    res.end(`invalid token "${req.headers.authorization ?? ''}" for org ${String(req.headers['x-org'])}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

/** A stdio MCP server that prints its env values on stderr and exits before answering. */
const leakyStdio = {
  command: process.execPath,
  args: [
    '-e',
    'console.error("using SECRET_TOKEN=" + process.env.SECRET_TOKEN); console.error("db password " + process.env.DB_PASSWORD); process.exit(1)',
  ],
  env: { SECRET_TOKEN: '${MCP_TOKEN}', DB_PASSWORD: STDIO_SECRET },
};

describe('secrets echoed back by servers', () => {
  it('a-provider-error-quoting-the-key-is-masked-on-stderr-in-jsonl-in-retry-lines-and-in-the-log', async () => {
    const { fake, home, hacHome, env } = await setup();
    fake.reply(invalidKey());
    const text = await runHac(home, ['-p', 'hi'], { env });
    expect(text.status).toBe(1);
    expect(text.stderr).toContain('Invalid API key: [redacted]');

    fake.reply(invalidKey());
    const jsonl = await runHac(home, ['-p', 'hi', '--output', 'jsonl'], { env });
    const error = jsonl.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .find((e) => e.type === 'error');
    expect(JSON.stringify(error)).toContain('[redacted]');

    // A rate limit quoting the key, retried once at once, then answered: the retry line is masked too.
    fake.reply(
      openaiReply.error(
        429,
        { message: `quota exceeded for key ${KEY}`, type: 'requests' },
        { retryAfter: 0 },
      ),
      openaiReply.text(['fine']),
    );
    const retried = await runHac(home, ['-p', 'hi'], { env });
    expect(retried.stdout).toBe('fine\n');
    expect(retried.stderr).toContain('quota exceeded for key [redacted]');

    for (const out of [
      text.stdout,
      text.stderr,
      jsonl.stdout,
      jsonl.stderr,
      retried.stderr,
      logText(hacHome),
    ])
      expect(out).not.toContain(KEY);
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`); // the key itself was sent
  });

  it('the-repl-screen-masks-the-key-and-mcp-header-values-a-server-quotes', async () => {
    const url = await rejectingServer();
    const servers = {
      remote: { url, type: 'http', headers: { Authorization: 'Bearer ${MCP_TOKEN}', 'X-Org': ORG } },
    };
    const { fake, home, hacHome, env } = await setup({ servers });
    fake.reply(invalidKey());
    const hac = new HacPty(home, [], { ...env, MCP_TOKEN: HEADER_TOKEN });
    cleanups.push(() => hac.kill());
    await hac.waitFor('humble-ai> ');
    await hac.waitFor(/remote/); // the start-up problem line
    hac.write('hello\r');
    await hac.waitFor('Invalid API key: [redacted]');
    hac.write('/mcp\r');
    const mcp = await hac.waitFor('invalid token');
    await hac.waitFor('humble-ai> ', { from: mcp });
    hac.write('/exit\r');
    await hac.exited;
    const screen = plain(hac.output);
    expect(screen).toContain('invalid token "[redacted]" for org [redacted]');
    for (const out of [screen, logText(hacHome)]) {
      expect(out).not.toContain(KEY);
      expect(out).not.toContain(HEADER_TOKEN);
      expect(out).not.toContain(ORG);
    }
  });

  it('remote-header-values-and-stdio-env-values-never-reach-one-shot-stderr-or-the-log', async () => {
    const url = await rejectingServer();
    const servers = {
      remote: { url, type: 'http', headers: { Authorization: 'Bearer ${MCP_TOKEN}', 'X-Org': ORG } },
      leaky: leakyStdio,
    };
    const { fake, home, hacHome, env } = await setup({ servers });
    fake.reply(openaiReply.text(['ok']));
    const result = await runHac(home, ['-p', 'hi'], { env: { ...env, MCP_TOKEN: HEADER_TOKEN } });
    expect(result.stdout).toBe('ok\n');
    expect(result.stderr).toContain('invalid token "[redacted]" for org [redacted]');
    const log = logText(hacHome);
    expect(log).toContain('using SECRET_TOKEN=[redacted]');
    expect(log).toContain('db password [redacted]');
    for (const out of [result.stderr, log]) {
      for (const secret of [HEADER_TOKEN, ORG, STDIO_SECRET, KEY]) expect(out).not.toContain(secret);
    }
  });

  it('a-session-file-never-holds-a-secret-the-model-was-told', async () => {
    const { fake, home, hacHome, env } = await setup();
    fake.reply(openaiReply.text([`Your key is ${KEY.slice(0, 9)}`, `${KEY.slice(9)}.`]));
    const result = await runHac(home, ['-p', `remember ${KEY}`], { env });
    expect(result.status).toBe(0);
    const [session] = readdirSync(path.join(hacHome, 'sessions'));
    expect(session).not.toContain(KEY);
    const saved = readFileSync(path.join(hacHome, 'sessions', session!), 'utf8');
    expect(saved).toContain('remember [redacted]');
    expect(saved).toContain('Your key is [redacted].');
    expect(saved).not.toContain(KEY);
  });

  it('a-secret-a-tool-returns-stays-redacted-in-jsonl-on-the-repl-screen-and-in-tool-n', async () => {
    // The test server's `env` tool returns its environment, which holds a secret from mcp-servers.json.
    const servers = { tools: { ...testServerEntry(), env: { DB_PASSWORD: STDIO_SECRET } } };
    const { fake, home, hacHome, env } = await setup({ servers, config: { toolCallMode: 'auto' } });
    const callEnv = () => openaiReply.toolCalls([{ id: 'c1', name: 'tools__env', arguments: {} }]);
    fake.reply(callEnv(), openaiReply.text(['done']), callEnv(), openaiReply.text(['done again']));

    const result = await runHac(home, ['-p', 'show the env', '--output', 'jsonl'], { env });
    expect(result.status).toBe(0);
    const results = result.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type: string; output?: string })
      .filter((event) => event.type === 'tool-result');
    expect(results).toHaveLength(1);
    expect(results[0]!.output).toContain('"DB_PASSWORD":"[redacted]"');

    const hac = new HacPty(home, [], env);
    cleanups.push(() => hac.kill());
    await hac.waitFor('humble-ai> ');
    await hac.say('show the env', 'done again');
    await hac.say('/tool 1', '"DB_PASSWORD":"[redacted]"');
    hac.write('/exit\r');
    await hac.exited;
    for (const out of [result.stdout, result.stderr, hac.output, logText(hacHome)])
      expect(out).not.toContain(STDIO_SECRET);
  });
});
