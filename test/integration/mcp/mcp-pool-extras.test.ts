import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpPool, type Elicit } from '../../../core/mcp/index.js';
import { SecretRegistry } from '../../../core/logging/secrets.js';
import type { ElicitationRequest } from '../../../core/types/elicitation.js';
import { everything, root, until, WaitingLogger, writeServersFile } from './helpers.js';

// What MCP servers offer besides tools, through the pool: questions to the user (elicitation) routed to the call
// that runs, prompts, resources and templates, completions, and lists that change while a server runs.
const askServer = path.join(root, 'test/fixtures/mcp/ask-server.mjs');
const statelessServer = path.join(root, 'test/fixtures/mcp/stateless-server.mjs');
const pools: McpPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

async function startPool(servers: Record<string, unknown>, secrets?: SecretRegistry) {
  const logger = new WaitingLogger();
  const pool = new McpPool({ file: writeServersFile(servers), logger, killAfterMs: 600, secrets });
  pools.push(pool);
  await pool.ready();
  return { pool, logger };
}

const never = new AbortController().signal;
const ask = { command: process.execPath, args: [askServer] };

/** An elicit that records what was asked and answers with `answer`. */
function answering(answer: Awaited<ReturnType<Elicit>>) {
  const asked: ElicitationRequest[] = [];
  const elicit: Elicit = (request) => {
    asked.push(request);
    return Promise.resolve(answer);
  };
  return { asked, elicit };
}

describe('MCP beyond tools', () => {
  it('a-form-question-reaches-the-call-that-runs-with-every-field-kind-and-the-answer-goes-back', async () => {
    const secrets = new SecretRegistry();
    const { pool, logger } = await startPool({ ask }, secrets);
    const content = {
      name: '김민수',
      party: 4,
      date: '2026-12-24',
      seating: 'out',
      extras: ['cake'],
      newsletter: true,
      code: 'club-secret-77',
    };
    const { asked, elicit } = answering({ action: 'accept', content });
    const result = await pool.call('ask', 'book_table', {}, never, { elicit: elicit });
    const { code: _code, ...booking } = content;
    expect(result.text).toBe(`Booked: ${JSON.stringify(booking)}; member code given.`);
    const [form] = asked;
    expect(form).toMatchObject({ mode: 'form', message: 'Details for your booking' });
    if (form?.mode !== 'form') throw new Error('not a form');
    expect(form.fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['name', 'text', true],
      ['party', 'integer', true],
      ['date', 'text', true],
      ['seating', 'choice', false],
      ['extras', 'choices', false],
      ['newsletter', 'boolean', false],
      ['code', 'text', false],
    ]);
    expect(form.fields[1]).toMatchObject({ label: 'Party size', minimum: 1, maximum: 12, default: 2 });
    expect(form.fields[2]).toMatchObject({ format: 'date' });
    expect(form.fields[3]?.options).toEqual([
      { value: 'in', label: 'Indoors' },
      { value: 'out', label: 'Terrace' },
    ]);
    expect(form.fields[4]).toMatchObject({ maxItems: 2 });
    // The server marked the member code write-only: it is masked wherever it might be written.
    expect(form.fields[6]).toMatchObject({ sensitive: true });
    expect(secrets.redact('code club-secret-77')).not.toContain('club-secret-77');
    expect(logger.text()).toContain('MCP server "ask" asked for a form of 7 fields: accept.');
    expect(
      logger.lines
        .filter((l) => l.level !== 'debug')
        .map((l) => l.message)
        .join('\n'),
    ).not.toContain('김민수');
  });

  it('decline-and-cancel-reach-the-server-and-a-question-with-nobody-to-ask-is-declined', async () => {
    const { pool } = await startPool({ ask });
    expect(
      (await pool.call('ask', 'book_table', {}, never, { elicit: answering({ action: 'decline' }).elicit }))
        .text,
    ).toBe('Booking declined by the user.');
    expect(
      (await pool.call('ask', 'book_table', {}, never, { elicit: answering({ action: 'cancel' }).elicit }))
        .text,
    ).toBe('Booking cancelled by the user.');
    expect((await pool.call('ask', 'book_table', {}, never)).text).toBe('Booking declined by the user.');
  });

  it('a-page-to-open-is-asked-with-its-address', async () => {
    const { pool } = await startPool({ ask });
    const { asked, elicit } = answering({ action: 'accept' });
    expect((await pool.call('ask', 'connect_account', {}, never, { elicit: elicit })).text).toBe(
      'Account connection: accept.',
    );
    expect(asked).toEqual([
      {
        mode: 'url',
        message: 'Connect your account',
        url: 'https://accounts.example.com/connect?session=42',
      },
    ]);
  });

  it('a-stateless-server-asks-inside-its-result-and-gets-the-answer-on-the-call-made-again', async () => {
    const { pool } = await startPool({ s: { command: process.execPath, args: [statelessServer, 'stdio'] } });
    expect(pool.status()[0]).toMatchObject({ revision: '2026-07-28' });
    const { asked, elicit } = answering({ action: 'accept', content: { confirm: true } });
    expect((await pool.call('s', 'deploy', { env: 'prod' }, never, { elicit: elicit })).text).toBe(
      'deployed to prod',
    );
    expect(asked[0]).toMatchObject({ mode: 'form', message: 'Deploy to prod?' });
    const declined = answering({ action: 'decline' });
    expect((await pool.call('s', 'deploy', { env: 'prod' }, never, { elicit: declined.elicit })).text).toBe(
      'not deployed',
    );
  });

  it('prompts-resources-templates-and-completions-are-listed-read-and-filled-in', async () => {
    const { pool } = await startPool({ ask });
    expect(pool.prompts()).toEqual([
      {
        server: 'ask',
        name: 'trip',
        description: 'Plans a trip to a city',
        arguments: [
          { name: 'city', description: 'Where to', required: true },
          { name: 'days', description: 'How many days', required: false },
        ],
      },
    ]);
    expect(pool.resources().map((r) => [r.uri, r.name, r.template ?? false])).toEqual([
      ['menu://today', "Today's menu", false],
      ['menu://dish/{name}', 'One dish', true],
    ]);
    expect(pool.status()[0]).toMatchObject({ prompts: 1, resources: 2 });
    expect(await pool.completePrompt('ask', 'trip', { name: 'city', value: 'se' }, {})).toEqual([
      'Seoul',
      'Sejong',
    ]);
    expect(await pool.getPrompt('ask', 'trip', { city: 'Busan', days: '2' }, never)).toEqual({
      text: 'Plan a 2-day trip to Busan.',
      images: [],
    });
    const menu = await pool.readResource('ask', 'menu://today', never);
    expect(menu.text).toBe(
      '[Resource ask:menu://today, text/markdown]\n# Menu\n- 비빔밥 (bibimbap)\n- Soup\n[End of resource]',
    );
    const dish = await pool.readResource('ask', 'menu://dish/kimchi', never);
    expect(dish.text).toContain('Dish: kimchi');
  });

  it('lists-that-change-on-the-server-are-read-again-before-whatever-follows-the-call', async () => {
    const { pool } = await startPool({ ask });
    await pool.call('ask', 'add_more', {}, never);
    // The server is busy for 400 ms after answering: the new lists are still on their way here.
    await pool.listsSettled();
    expect(pool.prompts().some((p) => p.name === 'extra-1')).toBe(true);
    expect(pool.resources().some((r) => r.uri === 'note://1')).toBe(true);
    expect(pool.tools().some((t) => t.name === 'extra_tool_1')).toBe(true);
    expect(pool.status()[0]).toMatchObject({ prompts: 2, resources: 3 });
  });

  it('the-everything-server-offers-its-form-prompts-and-resources', async () => {
    const { pool } = await startPool({
      everything: { command: process.execPath, args: [everything, 'stdio'] },
    });
    // It adds its elicitation tool once it knows the client can answer (a list change).
    await until(pool, () => pool.tools().some((t) => t.name === 'trigger-elicitation-request'));
    const { asked, elicit } = answering({ action: 'decline' });
    const result = await pool.call('everything', 'trigger-elicitation-request', {}, never, {
      elicit: elicit,
    });
    expect(result.text).toContain('decline');
    expect(asked[0]?.mode).toBe('form');
    expect(pool.prompts().map((p) => p.name)).toContain('simple-prompt');
    expect(pool.resources().length).toBeGreaterThan(1);
  });
});
