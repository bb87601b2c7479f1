import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../../core/errors/hac-error.js';
import { loadMcpServers, parseMcpServers } from '../../../../core/mcp/mcp-config.js';

const FILE = '/home/u/.humble-ai-cli/mcp-servers.json';

function problems(text: string) {
  try {
    parseMcpServers(FILE, text);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('mcp-servers.json', () => {
  it('reads-the-spec-example-with-defaults', () => {
    const servers = parseMcpServers(
      FILE,
      JSON.stringify({
        mcpServers: {
          context7: {
            description: 'Library docs',
            command: 'npx',
            args: ['-y', '@upstash/context7-mcp'],
            env: { API_KEY: 'k' },
          },
          remote: {
            description: 'Hosted tools',
            url: 'https://example.com/mcp/sse',
            transport: 'sse',
            env: { Authorization: 'Bearer x' },
          },
          remote2: { url: 'https://example.com/mcp', transport: 'http', enabled: false },
        },
      }),
    );
    expect(servers).toEqual([
      {
        name: 'context7',
        description: 'Library docs',
        enabled: true,
        transport: 'stdio',
        command: 'npx',
        args: ['-y', '@upstash/context7-mcp'],
        env: { API_KEY: 'k' },
        cwd: undefined,
        url: undefined,
        timeoutMs: 60_000,
      },
      {
        name: 'remote',
        description: 'Hosted tools',
        enabled: true,
        transport: 'sse',
        command: undefined,
        args: [],
        env: { Authorization: 'Bearer x' },
        cwd: undefined,
        url: 'https://example.com/mcp/sse',
        timeoutMs: 60_000,
      },
      {
        name: 'remote2',
        description: '',
        enabled: false,
        transport: 'http',
        command: undefined,
        args: [],
        env: {},
        cwd: undefined,
        url: 'https://example.com/mcp',
        timeoutMs: 60_000,
      },
    ]);
  });

  it('url-without-transport-means-sse', () => {
    expect(parseMcpServers(FILE, '{"mcpServers":{"r":{"url":"http://127.0.0.1:1/sse"}}}')[0]!.transport).toBe(
      'sse',
    );
  });

  it.each([
    ['stdio', 'stdio', { command: 'x' }],
    ['sse', 'sse', { url: 'http://h/sse' }],
    ['http', 'http', { url: 'http://h/mcp' }],
    ['streamable-http', 'http', { url: 'http://h/mcp' }],
    ['Streamable-HTTP', 'http', { url: 'http://h/mcp' }],
  ])('accepts-type-%s-as-an-alias', (type, expected, entry) => {
    expect(
      parseMcpServers(FILE, JSON.stringify({ mcpServers: { s: { ...entry, type } } }))[0]!.transport,
    ).toBe(expected);
  });

  it('takes-timeout-cwd-and-headers', () => {
    const [server] = parseMcpServers(
      FILE,
      JSON.stringify({
        mcpServers: {
          s: { url: 'http://h/mcp', type: 'http', timeout: 5000, headers: { 'X-A': 'a' }, env: { 'X-B': 1 } },
        },
      }),
    );
    expect(server).toMatchObject({ timeoutMs: 5000, env: { 'X-B': '1', 'X-A': 'a' } });
  });

  it('both-command-and-url-is-an-error-naming-the-server-and-the-fix', () => {
    expect(problems('{"mcpServers":{"ctx":{"command":"npx","url":"http://h/sse"}}}')).toEqual([
      {
        at: 'mcpServers.ctx',
        message: 'server "ctx" has both "command" and "url".',
        fix: 'Keep "command" (a local server that hac starts) or "url" (a remote server), not both.',
      },
    ]);
  });

  it('neither-command-nor-url-is-an-error-naming-the-server-and-the-fix', () => {
    expect(problems('{"mcpServers":{"empty":{"description":"d"}}}')).toEqual([
      {
        at: 'mcpServers.empty',
        message: 'server "empty" has neither "command" nor "url".',
        fix: 'Add "command" (and "args") to start a local server, or "url" for a remote one.',
      },
    ]);
  });

  it('a-type-that-contradicts-the-fields-is-an-error', () => {
    expect(
      problems('{"mcpServers":{"a":{"command":"x","type":"sse"},"b":{"url":"http://h","type":"stdio"}}}').map(
        (p) => p.at,
      ),
    ).toEqual(['mcpServers.a.type', 'mcpServers.b.type']);
  });

  it('reports-every-field-problem-with-its-path-and-fix', () => {
    const found = problems(
      '{"mcpServers":{"s":{"command":"x","args":"-y","timeout":-1,"transport":"websocket"}}}',
    );
    expect(found.map((p) => p.at)).toEqual([
      'mcpServers.s.args',
      'mcpServers.s.transport',
      'mcpServers.s.timeout',
    ]);
    expect(found[0]!.fix).toContain('array of strings');
    expect(found[2]!.fix).toContain('milliseconds');
  });

  it('a-syntax-error-gives-line-and-column', () => {
    expect(problems('{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": {}\n  }\n}')).toEqual([
      expect.objectContaining({
        at: 'line 4, column 5',
        message: expect.stringContaining('JSON syntax error'),
      }),
    ]);
  });

  it('a-missing-file-is-no-servers-not-an-error', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hac-mcp-config-'));
    expect(await loadMcpServers(path.join(dir, 'mcp-servers.json'))).toEqual({
      file: path.join(dir, 'mcp-servers.json'),
      missing: true,
      servers: [],
    });
    writeFileSync(path.join(dir, 'mcp-servers.json'), '{}');
    expect((await loadMcpServers(path.join(dir, 'mcp-servers.json'))).servers).toEqual([]);
  });

  it('the-error-message-names-the-file', () => {
    expect(() => parseMcpServers(FILE, '{"mcpServers":{"x":{}}}')).toThrow(`${FILE} is not valid:`);
  });
});

describe('mcp-servers.json oauth', () => {
  const remote = (oauth: unknown) =>
    JSON.stringify({ mcpServers: { work: { url: 'https://mcp.example.com/mcp', type: 'http', oauth } } });

  it('reads-an-enterprise-sign-in-through-the-company-identity-provider', () => {
    const [server] = parseMcpServers(
      FILE,
      remote({
        grant: 'enterprise',
        clientId: 'hac',
        clientSecret: '${MCP_SECRET}',
        identityProvider: {
          tokenEndpoint: 'https://idp.example.com/oauth2/token',
          clientId: 'hac-at-idp',
          idToken: '${IDP_ID_TOKEN}',
        },
      }),
    );
    expect(server?.oauth).toMatchObject({
      grant: 'enterprise',
      identityProvider: { tokenEndpoint: 'https://idp.example.com/oauth2/token', idToken: '${IDP_ID_TOKEN}' },
    });
  });

  it('an-enterprise-sign-in-without-its-identity-provider-names-what-is-missing', () => {
    const [problem] = problems(remote({ grant: 'enterprise', clientId: 'hac', clientSecret: 's' }));
    expect(problem).toMatchObject({ at: 'mcpServers.work.oauth' });
    expect(problem?.message).toContain('"identityProvider"');
    const [bad] = problems(
      remote({
        grant: 'enterprise',
        clientId: 'hac',
        clientSecret: 's',
        identityProvider: { tokenEndpoint: 'ftp://idp', clientId: 'x', idToken: 't' },
      }),
    );
    expect(bad?.at).toBe('mcpServers.work.oauth.identityProvider.tokenEndpoint');
    expect(bad?.fix).toContain('token endpoint');
  });

  it('reads-a-workload-sign-in-with-its-platform-token-file', () => {
    const [server] = parseMcpServers(
      FILE,
      remote({ grant: 'Workload', clientId: 'ci-runner', assertionFile: '/var/run/secrets/tokens/mcp' }),
    );
    expect(server?.oauth).toMatchObject({ grant: 'workload', assertionFile: '/var/run/secrets/tokens/mcp' });
  });

  it('a-workload-sign-in-without-its-token-says-where-the-token-goes', () => {
    const [problem] = problems(remote({ grant: 'workload', clientId: 'ci-runner' }));
    expect(problem).toMatchObject({ at: 'mcpServers.work.oauth' });
    expect(problem?.message).toContain('"assertion" or "assertionFile"');
    expect(problem?.fix).toContain('"assertionFile": "/path/to/token"');
  });
});
