import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BUSY_TEXT } from '../../../core/host/chat-controller.js';
import { errorReport } from '../../../core/host/error-report.js';
import { createRuntime } from '../../../core/host/runtime.js';
import type { HostEvent } from '../../../core/types/host-event.js';
import { gate } from '../../fakes/fake-chat-model.js';
import { ControllerHarness, nextEvent, ofType } from '../../helpers/controller-harness.js';
import { testServerEntry } from '../../helpers/engine-harness.js';

const harnesses: ControllerHarness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
});
async function start(options: Parameters<typeof ControllerHarness.start>[0] = {}) {
  const h = await ControllerHarness.start(options);
  harnesses.push(h);
  return h;
}
const withTools = { servers: { tools: testServerEntry() } };
/** The event types, without the status updates (a test of their own covers them). */
const types = (events: HostEvent[]) => events.filter((e) => e.type !== 'status').map((e) => e.type);
const outputLines = (events: HostEvent[]) => ofType(events, 'command-output').flatMap((e) => e.lines);
const lastUser = (h: ControllerHarness) => h.model.requests.at(-1)!.messages.at(-1)!.content;

describe('chat controller: messages', () => {
  it('echoes the line, streams the turn and reports the session file, in order', async () => {
    const h = await start();
    const { controller, events } = h.open();
    h.model.reply([{ thinking: 'hmm' }, { text: 'Hel' }, { text: 'lo' }]);
    await controller.submit('  hello there  ');
    expect(types(events)).toEqual([
      'input',
      'waiting',
      'thinking-start',
      'thinking-delta',
      'thinking-end',
      'text-delta', // 'Hel' and 'lo' came together: one delta
      'turn-end',
      'session-saved',
    ]);
    expect(ofType(events, 'text-delta')[0]?.text).toBe('Hello');
    // A message carries its id: the status's `held` says whether the conversation still holds it.
    expect(events[0]).toEqual({ type: 'input', text: 'hello there', reply: false, id: 1 });
    const saved = ofType(events, 'session-saved')[0]!;
    expect(JSON.parse(readFileSync(saved.file, 'utf8')).messages).toHaveLength(2);
    expect(controller.idle).toBe(true);
  });

  it('sends //text as the message /text, and keeps pasted line breaks', async () => {
    const h = await start();
    const { controller } = h.open();
    h.model.reply('ok', 'ok');
    await controller.submit('//etc/hosts is a file');
    expect(lastUser(h)).toBe('/etc/hosts is a file');
    await controller.submit('line one\r\nline two');
    expect(lastUser(h)).toBe('line one\nline two');
  });

  it('ignores an empty line', async () => {
    const h = await start();
    const { controller, events } = h.open();
    await controller.submit('   ');
    expect(events).toEqual([]);
  });

  it('refuses a second line while a turn runs (busy guard), and /new does not reset mid-turn', async () => {
    const h = await start();
    const { controller, events } = h.open();
    const open = gate();
    h.model.reply([{ text: 'first' }, { gate: open.promise }, { text: ' answer' }]);
    const turn = controller.submit('one');
    await nextEvent(events, 'text-delta');
    await controller.submit('two');
    await controller.submit('/new');
    expect(ofType(events, 'busy')).toEqual([
      { type: 'busy', text: BUSY_TEXT },
      { type: 'busy', text: BUSY_TEXT },
    ]);
    open.open();
    await turn;
    expect(h.model.requests).toHaveLength(1);
    expect(outputLines(events)).toEqual([]);
    // The answered turn is the context of the next one: /new never ran.
    h.model.reply('again');
    await controller.submit('three');
    expect(h.model.requests[1]!.messages.map((m) => m.content)).toContain('first answer');
  });

  it('shows the no-model guidance and sends nothing', async () => {
    const h = await start({ config: { models: [] } });
    const { controller, events } = h.open();
    await controller.submit('hi');
    expect(ofType(events, 'error')[0]).toMatchObject({ code: 'no-model' });
    expect(ofType(events, 'error')[0]!.message).toContain('No active model is configured.');
    expect(h.model.requests).toHaveLength(0);
  });
});

describe('chat controller: status', () => {
  it('says busy while a turn runs and idle after, with model, tool mode and MCP servers', async () => {
    const h = await start(withTools);
    const { controller, events } = h.open();
    await controller.start();
    await vi.waitFor(
      () =>
        expect(ofType(events, 'status').at(-1)!.status.mcp).toEqual({
          connected: 1,
          configured: 1,
          needSignIn: 0,
        }),
      { timeout: 10_000 },
    );
    expect(ofType(events, 'status').at(-1)!.status).toEqual({
      model: 'fake-model',
      provider: 'openai',
      toolMode: 'manual',
      markdown: true,
      mcp: { connected: 1, configured: 1, needSignIn: 0 },
      busy: false,
      // The folder whose AGENTS.md files are the workspace memory: where the test runs.
      workspace: expect.any(String),
      held: [],
    });
    h.model.reply('ok');
    const from = events.length;
    await controller.submit('hi');
    const busy = ofType(events.slice(from), 'status').map((e) => e.status.busy);
    expect(busy).toEqual([true, false]);
    await controller.submit('/set-tool-mode auto');
    expect(ofType(events, 'status').at(-1)!.status.toolMode).toBe('auto');
  });

  it("counts the conversation's tokens on after each turn, and again from the start after a take-back", async () => {
    const h = await start();
    const { controller, events } = h.open();
    const tokens = () => ofType(events, 'status').at(-1)!.status.tokens;
    h.model.reply('The first answer.', 'A second, longer answer than the first one.');
    await controller.submit('first');
    const first = tokens()!;
    await controller.submit('second question');
    const both = tokens()!;
    expect(first).toBeGreaterThan(0);
    expect(both).toBeGreaterThan(first);
    const rewind = controller.submit('/rewind');
    await nextEvent(events, 'prompt');
    await controller.submit('1');
    await rewind;
    expect(outputLines(events)).toContain('Took back the last exchange.');
    expect(tokens()).toBe(first);
    h.model.reply('A second, longer answer than the first one.');
    await controller.submit('second question');
    expect(tokens()).toBe(both);
  });
});

describe('chat controller: interrupt (Ctrl+C)', () => {
  it('is idle at the prompt', async () => {
    const h = await start();
    const { controller } = h.open();
    expect(controller.interrupt()).toBe('idle');
  });

  it('cancels a streaming answer; nothing is kept', async () => {
    const h = await start();
    const { controller, events } = h.open();
    h.model.reply([{ text: 'partial' }, { gate: gate().promise }]);
    const turn = controller.submit('long question');
    await nextEvent(events, 'text-delta');
    expect(controller.interrupt()).toBe('cancelled');
    await turn;
    expect(ofType(events, 'notice').map((n) => n.text)).toContain('Response cancelled.');
    expect(ofType(events, 'turn-end')[0]!.status).toBe('cancelled');
    expect(ofType(events, 'session-saved')).toEqual([]);
    expect(controller.interrupt()).toBe('idle');
  });

  it('answers no at Call now? (Y/N): and the turn is not kept', async () => {
    const h = await start(withTools);
    const { controller, events } = h.open();
    h.model.reply([{ call: { name: 'tools__echo', arguments: { text: 'x' } } }]);
    const turn = controller.submit('echo x');
    const prompt = await nextEvent(events, 'prompt');
    expect(prompt).toEqual({ type: 'prompt', kind: 'confirm', text: 'Call now? (Y/N): ' });
    expect(controller.asking).toBe('confirm');
    expect(controller.interrupt()).toBe('answered-no');
    await turn;
    expect(ofType(events, 'tool-skipped')[0]).toMatchObject({
      reason: 'declined',
      text: 'MCP call cancelled by user.',
    });
    expect(ofType(events, 'turn-end')[0]!.status).toBe('declined');
    expect(h.model.requests).toHaveLength(1);
  });

  it("cancels a command's question as if 0 was chosen", async () => {
    const h = await start();
    const { controller, events } = h.open();
    h.model.reply('unused');
    const command = controller.submit('/set-model');
    await nextEvent(events, 'prompt');
    expect(controller.interrupt()).toBe('question-cancelled');
    await command;
    expect(outputLines(events).at(-1)).toBe('Model selection unchanged.');
  });

  it("cancels the turn at the model's ask_user question", async () => {
    const h = await start();
    const { controller, events } = h.open();
    h.model.reply([{ call: { name: 'hac__ask_user', arguments: { question: 'Which city?' } } }]);
    const turn = controller.submit('weather?');
    await nextEvent(events, 'prompt');
    expect(controller.asking).toBe('ask');
    expect(controller.interrupt()).toBe('cancelled');
    await turn;
    expect(ofType(events, 'turn-end')[0]!.status).toBe('cancelled');
  });
});

describe('chat controller: questions answered by submit', () => {
  it('asks Y/N again after an invalid reply, then runs the tool on y', async () => {
    const h = await start(withTools);
    const { controller, events } = h.open();
    h.model.reply([{ call: { name: 'tools__echo', arguments: { text: 'hi' } } }], 'It said hi.');
    const turn = controller.submit('echo hi');
    await nextEvent(events, 'prompt');
    await controller.submit('maybe');
    await nextEvent(events, 'prompt', events.indexOf(ofType(events, 'input')[1]!));
    await controller.submit('Y');
    await turn;
    expect(ofType(events, 'input').map((e) => [e.text, e.reply])).toEqual([
      ['echo hi', false],
      ['maybe', true],
      ['Y', true],
    ]);
    expect(ofType(events, 'notice').map((n) => n.text)).toContain(
      'Please answer with Y or N (or A: always).',
    );
    expect(ofType(events, 'prompt')).toHaveLength(2);
    expect(ofType(events, 'tool-result')[0]).toMatchObject({ ok: true });
    expect(h.model.requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool' });
  });

  it('offers ask_user options as choices and sends the reply to the model', async () => {
    const h = await start();
    const { controller, events } = h.open();
    h.model.reply(
      [
        {
          call: {
            name: 'hac__ask_user',
            arguments: { question: 'Which city?', options: ['Seoul', 'Tokyo'] },
          },
        },
      ],
      'Tokyo it is.',
    );
    const turn = controller.submit('weather?');
    const prompt = await nextEvent(events, 'prompt');
    expect(prompt).toEqual({ type: 'prompt', kind: 'ask', text: '> ', choices: ['Seoul', 'Tokyo'] });
    await controller.submit('2');
    await turn;
    expect(h.model.requests[1]!.messages.at(-1)!.content).toContain('Tokyo');
    expect(ofType(events, 'turn-end')[0]!.status).toBe('answered');
  });
});

describe('chat controller with nobody to ask (one-shot)', () => {
  it('declines a tool call that needs confirmation, without asking, and the turn ends declined', async () => {
    const h = await start(withTools);
    const { controller, events } = h.open({ unattended: { approveTools: false } });
    h.model.reply([{ call: { name: 'tools__echo', arguments: { text: 'x' } } }]);
    const outcome = await controller.send('echo x');
    expect(ofType(events, 'prompt')).toEqual([]);
    expect(ofType(events, 'confirmation-request')).toHaveLength(1);
    expect(ofType(events, 'tool-result')).toEqual([]);
    expect(outcome).toEqual({ status: 'declined', hadError: false });
  });

  it('runs it when tools are approved (--yes), and the model gets its result', async () => {
    const h = await start(withTools);
    const { controller, events } = h.open({ unattended: { approveTools: true } });
    h.model.reply([{ call: { name: 'tools__echo', arguments: { text: 'hi' } } }], 'It said hi.');
    const outcome = await controller.send('echo hi');
    expect(ofType(events, 'prompt')).toEqual([]);
    expect(ofType(events, 'tool-result')[0]).toMatchObject({ ok: true });
    expect(outcome?.status).toBe('answered');
  });

  it("leaves the model's ask_user question unanswered instead of waiting", async () => {
    const h = await start();
    const { controller, events } = h.open({ unattended: { approveTools: true } });
    h.model.reply(
      [{ call: { name: 'hac__ask_user', arguments: { question: 'Which city?' } } }],
      'No answer.',
    );
    const outcome = await controller.send('weather?');
    expect(ofType(events, 'prompt')).toEqual([]);
    expect(outcome?.status).toBe('answered');
    expect(h.model.requests).toHaveLength(2);
  });

  it('send() passes a message as it is: a leading slash, spaces and line breaks stay', async () => {
    const h = await start();
    const { controller, events } = h.open();
    h.model.reply('ok');
    const outcome = await controller.send('/etc/hosts: what is it?\n');
    expect(lastUser(h)).toBe('/etc/hosts: what is it?\n');
    expect(ofType(events, 'command-output')).toEqual([]);
    expect(outcome).toEqual({ status: 'answered', hadError: false });
  });
});

describe('chat controller: commands', () => {
  it('/tool lists the last tool results, newest first, and shows one in full', async () => {
    const h = await start({ ...withTools, config: { toolCallMode: 'auto' } });
    const { controller, events } = h.open();
    await controller.submit('/tool');
    expect(outputLines(events)).toEqual(['No tool results yet in this conversation.']);
    h.model.reply(
      [{ call: { name: 'tools__echo', arguments: { text: 'first' } } }],
      [{ call: { name: 'tools__echo', arguments: { text: 'second\nline' } } }],
      'done',
    );
    await controller.submit('echo twice');
    events.length = 0;
    await controller.submit('/tool');
    const list = outputLines(events);
    expect(list).toHaveLength(3);
    expect(list[0]).toMatch(/^ {2}1\) tools\/echo returned \d+ characters\.$/);
    expect(list[2]).toBe('Use /tool <number> to show one in full.');
    events.length = 0;
    await controller.submit('/tool 1');
    expect(outputLines(events).join('\n')).toContain('second\nline');
    events.length = 0;
    await controller.submit('/tool 2');
    expect(outputLines(events).join('\n')).toContain('first');
    events.length = 0;
    await controller.submit('/tool 9');
    expect(outputLines(events)).toEqual(['Usage: /tool <1-2> (see /tool).']);
  });

  it('/help, unknown commands and /exit', async () => {
    const h = await start();
    const { controller, events } = h.open();
    await controller.submit('/help');
    expect(outputLines(events).some((l) => l.includes('/set-model'))).toBe(true);
    await controller.submit('/nope');
    expect(outputLines(events).at(-1)).toBe('Unknown command: /nope. Type /help for the list.');
    await controller.submit('/exit');
    expect(events.filter((e) => e.type !== 'status').at(-1)).toEqual({ type: 'exit' });
  });

  it('/set-model asks with its choices; a number saves config.json', async () => {
    const h = await start({
      config: {
        models: [
          { name: 'fake-model', provider: 'openai', apiKey: 'sk-unused-0000', active: true },
          { name: 'other', provider: 'openai', apiKey: 'sk-unused-0000' },
        ],
      },
    });
    const { controller, events } = h.open();
    const command = controller.submit('/set-model');
    const prompt = await nextEvent(events, 'prompt');
    expect(prompt).toMatchObject({
      kind: 'choice',
      text: 'Choice (0 keeps the current model): ',
      choices: ['fake-model (openai) *', 'other (openai)'],
    });
    await controller.submit('2');
    await command;
    expect(outputLines(events).at(-1)).toBe('Active model set to other (openai).');
    expect(JSON.parse(readFileSync(path.join(h.home, 'config.json'), 'utf8')).models[1].active).toBe(true);
    expect(h.runtime.config().activeModel!.label).toBe('other');
  });

  it('/set-model with an invalid reply changes nothing', async () => {
    const h = await start();
    const { controller, events } = h.open();
    const command = controller.submit('/set-model');
    await nextEvent(events, 'prompt');
    await controller.submit('7');
    await command;
    expect(outputLines(events).at(-1)).toBe('Invalid selection.');
  });

  it('/set-tool-mode shows, validates and saves', async () => {
    const h = await start();
    const { controller, events } = h.open();
    await controller.submit('/set-tool-mode');
    await controller.submit('/set-tool-mode sometimes');
    await controller.submit('/set-tool-mode auto');
    expect(outputLines(events)).toEqual([
      'Tool call mode is manual.',
      'Usage: /set-tool-mode [auto|manual]',
      'Please enter either auto or manual.',
      'Tool call mode set to auto.',
    ]);
    expect(h.runtime.config().toolCallMode).toBe('auto');
  });

  it('/toggle-mcp asks with the servers as choices and flips one', async () => {
    const h = await start(withTools);
    const { controller, events } = h.open();
    const command = controller.submit('/toggle-mcp');
    const prompt = await nextEvent(events, 'prompt');
    expect(prompt).toMatchObject({ kind: 'choice', choices: ['tools: enabled'] });
    await controller.submit('1');
    await command;
    expect(outputLines(events).at(-1)).toBe('Server "tools" is now disabled.');
    await controller.submit('/mcp');
    expect(outputLines(events).at(-1)).toBe('tools: disabled — hac test server');
  });

  it('/new, /sessions and /resume work on this conversation', async () => {
    const h = await start();
    const { controller, events } = h.open();
    h.model.reply('Paris.', 'Sure.');
    await controller.submit('capital of France?');
    await controller.submit('/new');
    expect(outputLines(events).at(-1)).toBe('Started a new session.');
    await controller.submit('/sessions');
    expect(outputLines(events).at(-2)).toMatch(/1\) .*capital of France\? {2}\(2 messages\)$/);
    await controller.submit('/resume 1');
    expect(outputLines(events).at(-1)).toBe('Resumed "capital of France?" (2 messages).');
    await controller.submit('and Italy?');
    expect(h.model.requests[1]!.messages.map((m) => m.content)).toContain('Paris.');
  });

  it('a command that fails shows its error and the conversation goes on', async () => {
    const h = await start();
    const { controller, events } = h.open();
    const file = path.join(h.home, 'config.json');
    writeFileSync(file, '{ "models": [ ');
    await controller.submit('/set-tool-mode auto');
    const error = ofType(events, 'error')[0]!;
    expect(error.code).toBe('command-failed');
    expect(error.message).toContain(file);
    expect(readFileSync(file, 'utf8')).toBe('{ "models": [ '); // never overwritten
    expect(controller.idle).toBe(true);
    await controller.submit('/help');
    expect(outputLines(events).length).toBeGreaterThan(5);
  });
});

describe('chat controller: conversations and the runtime', () => {
  it('two conversations have their own context and session file but one MCP pool', async () => {
    const h = await start({ ...withTools, config: { toolCallMode: 'auto' } });
    const a = h.open();
    const b = h.open();
    h.model.reply([{ call: { name: 'tools__pid', arguments: {} } }], 'A done.');
    await a.controller.submit('alpha question');
    h.model.reply([{ call: { name: 'tools__pid', arguments: {} } }], 'B done.');
    await b.controller.submit('beta question');
    const pidA = h.model.requests[1]!.messages.at(-1)!.content;
    const pidB = h.model.requests[3]!.messages.at(-1)!.content;
    expect(pidA).toMatch(/\d+/);
    expect(pidB).toBe(pidA); // the same MCP server process answered both
    // B's requests never carry A's conversation.
    expect(h.model.requests[2]!.messages.map((m) => m.content).join('\n')).not.toContain('alpha');
    const fileA = ofType(a.events, 'session-saved')[0]!.file;
    const fileB = ofType(b.events, 'session-saved')[0]!.file;
    expect(fileA).not.toBe(fileB);
    expect(readdirSync(path.join(h.home, 'sessions'))).toHaveLength(2);
    // Events went only to their own conversation.
    expect(ofType(a.events, 'input').map((e) => e.text)).toEqual(['alpha question']);
    expect(ofType(b.events, 'input').map((e) => e.text)).toEqual(['beta question']);
  });

  it('close() cancels a running turn and releases the listeners', async () => {
    const h = await start();
    const { controller, events } = h.open();
    h.model.reply([{ text: 'x' }, { gate: gate().promise }]);
    const turn = controller.submit('go');
    await nextEvent(events, 'text-delta');
    const before = events.length;
    controller.close();
    await turn;
    expect(events.length).toBe(before); // no events after close
    await controller.submit('ignored');
    expect(h.model.requests).toHaveLength(1);
  });

  it('reports a broken mcp-servers.json once, as an mcp-status event', async () => {
    const h = await start({ servers: '{ "mcpServers": ' });
    const { controller, events } = h.open();
    await controller.start();
    await controller.submit('/mcp');
    await h.open().controller.start(); // another window reports it in its own stream
    const status = ofType(events, 'mcp-status');
    expect(status).toHaveLength(1);
    expect(status[0]!.server).toBeUndefined();
    expect(status[0]!.text).toContain('mcp-servers.json');
    expect(status[0]!.text).toContain('hac runs without MCP tools; see /mcp.');
  });

  it('reports a server that fails to start, naming it', async () => {
    const h = await start({
      servers: { broken: { command: process.execPath, args: ['-e', 'process.exit(3)'] } },
    });
    const { controller, events } = h.open();
    await controller.start();
    const status = await nextEvent(events, 'mcp-status');
    expect(status.server).toBe('broken');
    expect(status.text).toMatch(/^MCP server "broken" failed: .* \(see \/mcp\)$/);
  });

  it('every event of a rich session survives structuredClone and JSON unchanged', async () => {
    const h = await start(withTools);
    const { controller, events } = h.open();
    h.model.reply(
      [
        { thinking: 'plan' },
        { text: 'Calling.' },
        { call: { name: 'tools__echo', arguments: { text: '안녕', n: 1 } } },
      ],
      [{ call: { name: 'hac__ask_user', arguments: { question: 'More?', options: ['yes', 'no'] } } }],
      'Done.',
    );
    const turn = controller.submit('go');
    await nextEvent(events, 'prompt');
    await controller.submit('y');
    await nextEvent(events, 'prompt', events.length);
    await controller.submit('1');
    await turn;
    await controller.submit('/help');
    expect(new Set(types(events)).size).toBeGreaterThan(10);
    for (const event of events) {
      expect(structuredClone(event)).toEqual(event);
      expect(JSON.parse(JSON.stringify(event))).toEqual(event);
    }
  });
});

describe('runtime start-up', () => {
  it('a config.json that stops start-up is thrown with its report and kept in the day log', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'hac-start-'));
    try {
      writeFileSync(path.join(home, 'config.json'), JSON.stringify({ logLevel: 'verbose', models: [] }));
      const error = await createRuntime({ home }).then(
        () => undefined,
        (e: unknown) => e,
      );
      const report = errorReport(error);
      expect(report).toMatchObject({ code: 'config-invalid', file: path.join(home, 'config.json') });
      expect(report.problems![0]).toMatchObject({ at: 'logLevel' });
      const [log] = readdirSync(path.join(home, 'logs'));
      expect(readFileSync(path.join(home, 'logs', log!), 'utf8')).toMatch(
        /\[ERROR\] Start-up failed: .*config\.json is not valid/,
      );
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
