import { describe, expect, it } from 'vitest';
import type { CommandContext } from '../../../../core/commands/command-types.js';
import { COMMANDS, runCommand } from '../../../../core/commands/run-command.js';
import { WINDOW_KEYS } from '../../../../core/host/bridge-session.js';

/** /help as a front end with these keys shows it (it reads nothing else of the context). */
const help = async (keys: CommandContext['keys']) =>
  (await runCommand('/help', { keys } as unknown as CommandContext)).lines;

describe('/help', () => {
  it('lists-every-command-once-in-order-and-a-terminal-gets-no-keys', async () => {
    const lines = await help([]);
    expect(lines.slice(0, COMMANDS.length).map((line) => line.trim().split(/\s+/)[0])).toEqual(
      COMMANDS.map((c) => c.name),
    );
    // Then the names people bring from other clients, on one line.
    expect(lines.slice(COMMANDS.length)).toEqual([
      '  Also: /clear (/new), /model (/set-model), /quit or /q (/exit), /cost (/usage)',
    ]);
  });

  it('the-window-lists-its-keys-after-the-commands', async () => {
    const lines = await help(WINDOW_KEYS);
    expect(lines.slice(COMMANDS.length + 1)).toEqual([
      '',
      'Keys:',
      ...WINDOW_KEYS.map(([key, what]) => `  ${key.padEnd(30)} ${what}`),
    ]);
  });

  // A terminal breaks a longer line anywhere, mid-word (`(auto` then `).`): every line fits 80 columns.
  it.each([
    ['a terminal', []],
    ['the window', WINDOW_KEYS],
  ] as const)('every-line-fits-an-80-column-terminal-in-%s', async (_front, keys) => {
    const wide = (await help(keys)).filter((line) => line.length > 80);
    expect(wide).toEqual([]);
  });
});
