import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpPool } from '../../../core/mcp/index.js';
import { root, WaitingLogger, writeServersFile } from './helpers.js';

// MCP Apps through the pool: what hac declares, which tools the model is offered, and the views it reads.
const appServer = { command: process.execPath, args: [path.join(root, 'test/fixtures/mcp/app-server.mjs')] };
// A real view server from the registry (the extension's own example).
const basic = {
  command: process.execPath,
  args: [
    path.join(root, 'node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js'),
    '--stdio',
  ],
};
const pools: McpPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

async function startPool(servers: Record<string, unknown>, views: boolean) {
  const pool = new McpPool({
    file: writeServersFile(servers),
    logger: new WaitingLogger(),
    killAfterMs: 600,
    views,
  });
  pools.push(pool);
  await pool.ready();
  return pool;
}

const never = new AbortController().signal;

describe('MCP Apps views', () => {
  it('a-host-that-shows-views-declares-the-extension-and-a-one-shot-does-not', async () => {
    const shows = await startPool({ apps: appServer }, true);
    expect(JSON.parse((await shows.call('apps', 'client-extensions', {}, never)).text)).toEqual({
      'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] },
    });
    const oneShot = await startPool({ apps: appServer }, false);
    expect((await oneShot.call('apps', 'client-extensions', {}, never)).text).toBe('null');
  });

  it('a-tool-for-views-only-is-never-offered-to-the-model', async () => {
    const pool = await startPool({ apps: appServer }, true);
    const names = pool.tools().map((t) => t.name);
    expect(names).toContain('show-weather');
    expect(names).not.toContain('refresh-weather');
  });

  it('a-call-of-a-tool-with-a-view-keeps-its-whole-result-for-the-view-only-where-views-are-shown', async () => {
    const pool = await startPool({ apps: appServer }, true);
    const result = await pool.call('apps', 'show-weather', { place: '서울' }, never);
    expect(result.text).toBe('서울: sunny, 21 °C');
    expect(result.view).toEqual({
      resourceUri: 'ui://weather/view.html',
      result: {
        content: [{ type: 'text', text: '서울: sunny, 21 °C' }],
        structuredContent: { place: '서울', sky: 'sunny', celsius: 21 },
      },
    });
    const oneShot = await startPool({ apps: appServer }, false);
    expect((await oneShot.call('apps', 'show-weather', { place: '서울' }, never)).view).toBeUndefined();
  });

  it('a-view-is-read-once-checked-and-its-csp-kept', async () => {
    const pool = await startPool({ apps: appServer }, true);
    const first = pool.views.read('apps', 'ui://weather/view.html');
    expect(pool.views.read('apps', 'ui://weather/view.html')).toBe(first);
    expect(await first).toMatchObject({
      uri: 'ui://weather/view.html',
      html: expect.stringContaining('<button id="refresh">') as string,
      csp: { connectDomains: ['https://api.weather.example'] },
      prefersBorder: true,
    });
    await expect(pool.views.read('apps', 'ui://wrong/view.html')).rejects.toThrow(
      'ui://wrong/view.html is text/html, not text/html;profile=mcp-app',
    );
    await expect(pool.views.read('apps', 'ui://huge/view.html')).rejects.toThrow(
      'ui://huge/view.html is 5.0 MB, over the 4 MB a view may be',
    );
    await expect(pool.views.read('apps', 'ui://nowhere/view.html')).rejects.toThrow();
  });

  it('the-registrys-basic-view-server-links-get-time-to-its-view-and-serves-it', async () => {
    const pool = await startPool({ basic }, true);
    const result = await pool.call('basic', 'get-time', {}, never);
    expect(result.view?.resourceUri).toBe('ui://get-time/mcp-app.html');
    const view = await pool.views.read('basic', 'ui://get-time/mcp-app.html');
    expect(view.html).toMatch(/<html/i);
  });

  it('a-view-calls-only-its-own-servers-tools-that-are-open-to-views', async () => {
    const pool = await startPool({ apps: appServer, basic }, true);
    const called = await pool.views.call('apps', 'refresh-weather', { place: 'Oslo' }, never);
    expect(called).toMatchObject({ content: [{ type: 'text', text: 'Oslo: cloudy, 18 °C' }] });
    await expect(pool.views.call('apps', 'model-only', {}, never)).rejects.toThrow(
      'apps/model-only is not open to views',
    );
    await expect(pool.views.call('apps', 'get-time', {}, never)).rejects.toThrow(
      'apps has no tool "get-time" (a view calls only its own server\'s tools)',
    );
    expect(pool.tools().map((t) => t.name)).toContain('model-only');
  });
});
