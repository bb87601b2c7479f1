import type { CDPSession } from 'playwright-core';

// Chromium's own IME path over CDP, as the IME tests drive it: compositions, commits, the keys an IME consumes
// (keyCode 229) and plain keys, run one step at a time or all at once (burst), which is what exposes races.

export type Step = (cdp: CDPSession) => Promise<unknown>;
export const compose =
  (text: string, selection: [number, number] = [text.length, text.length]): Step =>
  (cdp) =>
    cdp.send('Input.imeSetComposition', { text, selectionStart: selection[0], selectionEnd: selection[1] });
export const commit =
  (text: string): Step =>
  (cdp) =>
    cdp.send('Input.insertText', { text });
/** A key the IME consumes: keydown with keyCode 229 (`key` "Process" on Windows, the real key on macOS). */
export const imeKey =
  (code: string, key = 'Process'): Step =>
  (cdp) =>
    cdp.send('Input.dispatchKeyEvent', { type: 'rawKeyDown', windowsVirtualKeyCode: 229, code, key });
export const keyUp =
  (key: string, code: string, keyCode: number): Step =>
  (cdp) =>
    cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key, code, windowsVirtualKeyCode: keyCode });
export const KEYS: Record<string, [code: string, keyCode: number, text?: string]> = {
  Enter: ['Enter', 13, '\r'],
  Home: ['Home', 36],
  End: ['End', 35],
  Escape: ['Escape', 27],
};
/** A plain key, down and up. */
export const press =
  (key: keyof typeof KEYS): Step =>
  async (cdp) => {
    const [code, keyCode, text] = KEYS[key]!;
    await cdp.send('Input.dispatchKeyEvent', {
      type: 'keyDown',
      key,
      code,
      windowsVirtualKeyCode: keyCode,
      ...(text ? { text } : {}),
    });
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key, code, windowsVirtualKeyCode: keyCode });
  };
/** A Korean syllable as a 2-set IME builds it: each partial form, then the commit. */
export const syllable = (forms: string[]): Step[] => [...forms.map((f) => compose(f)), commit(forms.at(-1)!)];

export const TIMINGS = ['awaited', 'burst'] as const;
export async function run(cdp: CDPSession, steps: Step[], timing: (typeof TIMINGS)[number]): Promise<void> {
  if (timing === 'awaited') for (const step of steps) await step(cdp);
  else await Promise.all(steps.map((step) => step(cdp)));
}
