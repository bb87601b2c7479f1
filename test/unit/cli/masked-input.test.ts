import { PassThrough } from 'node:stream';
import readline from 'node:readline/promises';
import { describe, expect, it } from 'vitest';
import { maskingOutput } from '../../../cli/masked-input.js';

/** A readline on a fake terminal whose echo goes through the masking output while `secret` is on. */
function terminal() {
  const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => undefined });
  const screen = Object.assign(new PassThrough(), { isTTY: true, columns: 80 });
  let written = '';
  screen.on('data', (d: Buffer) => (written += d.toString()));
  let secret = true;
  const rl: readline.Interface = readline.createInterface({
    input,
    output: maskingOutput(screen as unknown as NodeJS.WriteStream, () => (secret ? rl.line : undefined)),
    terminal: true,
  });
  return { rl, input, screen: () => written, reveal: () => (secret = false) };
}

describe('a secret typed at a question', () => {
  it('is-drawn-as-dots-of-its-width-and-read-as-typed', async () => {
    const { rl, input, screen } = terminal();
    const answer = rl.question('Code: ');
    input.write('ab비밀\r');
    expect(await answer).toBe('ab비밀');
    expect(screen()).toContain('Code: ');
    expect(screen()).toContain('••••••');
    expect(screen()).not.toMatch(/ab|비밀/);
    rl.close();
  });

  it('is-shown-as-typed-once-nothing-secret-is-asked', async () => {
    const { rl, input, screen, reveal } = terminal();
    reveal();
    const answer = rl.question('Name: ');
    input.write('Kim\r');
    expect(await answer).toBe('Kim');
    expect(screen()).toContain('Kim');
    rl.close();
  });
});
