import {
  lstatSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatController } from '../../../core/host/chat-controller.js';
import { createRuntime } from '../../../core/host/runtime.js';
import { MemoryLogger } from '../../../core/logging/logger.js';
import { ControllerHarness, ofType } from '../../helpers/controller-harness.js';
import { testServerEntry } from '../../helpers/engine-harness.js';

// Files that are not what we expect (issue 17 section 2): symlinks from a dotfiles manager, a byte-order mark.
const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
const outputLines = (events: ReturnType<ControllerHarness['open']>['events']) =>
  ofType(events, 'command-output').flatMap((e) => e.lines);

describe('symlinked config files', () => {
  it('/set-tool-mode and /toggle-mcp write through the link: the link stays, the real file changes', async () => {
    const h = await ControllerHarness.start({ servers: { tools: testServerEntry() } });
    cleanups.push(() => h.close());
    const dotfiles = mkdtempSync(path.join(os.tmpdir(), 'hac-dotfiles-'));
    cleanups.push(() => rmSync(dotfiles, { recursive: true, force: true }));
    for (const name of ['config.json', 'mcp-servers.json']) {
      const real = path.join(dotfiles, name);
      writeFileSync(real, readFileSync(path.join(h.home, name)));
      rmSync(path.join(h.home, name));
      symlinkSync(real, path.join(h.home, name));
    }
    const { controller, events } = h.open();
    await controller.submit('/set-tool-mode auto');
    expect(outputLines(events).at(-1)).toBe('Tool call mode set to auto.');
    const command = controller.submit('/toggle-mcp');
    await expect.poll(() => controller.asking).toBe('choice');
    await controller.submit('1');
    await command;
    for (const name of ['config.json', 'mcp-servers.json']) {
      const link = path.join(h.home, name);
      expect(lstatSync(link).isSymbolicLink(), name).toBe(true);
      expect(readlinkSync(link)).toBe(path.join(dotfiles, name));
    }
    expect(JSON.parse(readFileSync(path.join(dotfiles, 'config.json'), 'utf8')).toolCallMode).toBe('auto');
    expect(
      JSON.parse(readFileSync(path.join(dotfiles, 'mcp-servers.json'), 'utf8')).mcpServers.tools.enabled,
    ).toBe(false);
  });
});

describe('a UTF-8 byte-order mark', () => {
  it('is read as if it were not there, and kept when the file is edited', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'hac-bom-'));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    const file = path.join(home, 'config.json');
    const model = { name: 'fake-model', provider: 'openai', apiKey: 'sk-unused-0000', active: true };
    writeFileSync(file, `\uFEFF${JSON.stringify({ models: [model] }, null, 2)}\n`);
    writeFileSync(path.join(home, 'mcp-servers.json'), `\uFEFF${JSON.stringify({ mcpServers: {} })}`);
    const runtime = await createRuntime({ home, logger: new MemoryLogger() });
    cleanups.push(() => runtime.close());
    expect(runtime.config().activeModel?.label).toBe('fake-model');
    expect((await runtime.mcpServers()).error).toBeUndefined();
    const controller = new ChatController(runtime);
    await controller.submit('/set-tool-mode auto');
    const written = readFileSync(file, 'utf8');
    expect(written.startsWith('\uFEFF')).toBe(true);
    expect(JSON.parse(written.slice(1)).toolCallMode).toBe('auto');
  });
});
