import { describe, expect, it } from 'vitest';
import { promptAction, type KeyInfo, type PromptState } from '../../../renderer/prompt-keys.js';
import { PROMPT_AT_REST } from './prompt-state.js';

/** One event as Chromium delivers it to the textarea (only keydowns reach the controller; the rest is context). */
type Recorded =
  | { type: 'compositionstart' | 'compositionend'; data?: string }
  | { type: 'keydown' | 'keyup'; key: string; code: string; keyCode: number; isComposing: boolean };

const state: PromptState = PROMPT_AT_REST;
const down = (key: string, code: string, keyCode: number, isComposing: boolean): Recorded => ({
  type: 'keydown',
  key,
  code,
  keyCode,
  isComposing,
});
const up = (key: string, code: string, keyCode: number, isComposing = false): Recorded => ({
  type: 'keyup',
  key,
  code,
  keyCode,
  isComposing,
});

/** What the prompt does over a recorded sequence: the actions of the keydowns, in order (keyups never act). */
function replay(events: Recorded[]): string[] {
  return events.flatMap((e) => {
    if (e.type !== 'keydown') return [];
    const info: KeyInfo = { ...e, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false };
    const action = promptAction(info, state);
    return action === 'default' ? [] : [action];
  });
}

describe('the prompt over recorded IME event sequences', () => {
  it('Windows Microsoft IME: Enter consumed by the IME (Process/229), then a plain Enter', () => {
    expect(
      replay([
        { type: 'compositionstart' },
        down('Process', 'KeyR', 229, true),
        down('Process', 'Enter', 229, true),
        { type: 'compositionend', data: '日本語' },
        up('Enter', 'Enter', 13),
        down('Enter', 'Enter', 13, false),
        up('Enter', 'Enter', 13),
      ]),
    ).toEqual(['submit']);
  });

  it('macOS: Enter with key "Enter" but keyCode 229 while composing, then a plain Enter', () => {
    expect(
      replay([
        { type: 'compositionstart' },
        down('Enter', 'Enter', 229, true),
        { type: 'compositionend', data: '국' },
        up('Enter', 'Enter', 13),
        down('Enter', 'Enter', 13, false),
      ]),
    ).toEqual(['submit']);
  });

  it('Korean: the syllable is committed, then Enter arrives as 13 and submits once', () => {
    expect(
      replay([
        { type: 'compositionstart' },
        down('Process', 'KeyR', 229, true),
        { type: 'compositionend', data: '국' },
        down('Enter', 'Enter', 13, false),
        up('Enter', 'Enter', 13),
      ]),
    ).toEqual(['submit']);
  });

  it('Chinese pinyin: Space picks the candidate and is the IME’s', () => {
    expect(
      replay([
        { type: 'compositionstart' },
        down('Process', 'KeyN', 229, true),
        down('Process', 'Space', 229, true),
        { type: 'compositionend', data: '你好' },
        up(' ', 'Space', 32),
      ]),
    ).toEqual([]);
  });

  it('compositionend before the keydown of the key that ended it (keydown 229, isComposing false): nothing', () => {
    expect(
      replay([
        { type: 'compositionstart' },
        { type: 'compositionend', data: '한' },
        down('Enter', 'Enter', 229, false),
        down('Process', 'ArrowUp', 229, false),
        down('Process', 'Tab', 229, false),
        up('Enter', 'Enter', 13),
      ]),
    ).toEqual([]);
  });

  it('cancel: Escape inside a composition is the IME’s, a later Escape is ours', () => {
    expect(
      replay([
        { type: 'compositionstart' },
        down('Escape', 'Escape', 229, true),
        { type: 'compositionend', data: '' },
        down('Escape', 'Escape', 27, false),
      ]),
    ).toEqual(['escape']);
  });
});
