import { describe, expect, it } from 'vitest';
import {
  HistoryWalker,
  promptAction,
  type KeyInfo,
  type PromptState,
} from '../../../renderer/prompt-keys.js';
import { PROMPT_AT_REST } from './prompt-state.js';

const key = (k: Partial<KeyInfo> & { key: string }): KeyInfo => ({
  code: k.key === 'Enter' ? 'Enter' : k.key,
  keyCode: k.key === 'Enter' ? 13 : 0,
  isComposing: false,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...k,
});
const state: PromptState = PROMPT_AT_REST;

describe('prompt keys (R-DESK-2, R-DESK-3)', () => {
  it('PageUp/PageDown (with Shift too) and Ctrl+Home/End scroll the transcript; not while composing', () => {
    expect(promptAction(key({ key: 'PageUp' }), state)).toBe('scroll-page-up');
    expect(promptAction(key({ key: 'PageDown', shiftKey: true }), state)).toBe('scroll-page-down');
    expect(promptAction(key({ key: 'Home', ctrlKey: true }), state)).toBe('scroll-top');
    expect(promptAction(key({ key: 'End', metaKey: true }), { ...state, mac: true })).toBe('scroll-bottom');
    expect(promptAction(key({ key: 'Home' }), state)).toBe('default'); // the caret's own Home
    expect(promptAction(key({ key: 'PageUp', isComposing: true }), state)).toBe('default');
  });

  it('Enter submits; Shift+Enter is a line break', () => {
    expect(promptAction(key({ key: 'Enter' }), state)).toBe('submit');
    expect(promptAction(key({ key: 'Enter', shiftKey: true }), state)).toBe('default');
  });

  it.each([
    ['composing (Korean syllable open)', key({ key: 'Enter', isComposing: true })],
    ['keyCode 229, Windows style (key "Process")', key({ key: 'Process', code: 'Enter', keyCode: 229 })],
    ['keyCode 229, macOS style (key "Enter")', key({ key: 'Enter', code: 'Enter', keyCode: 229 })],
    ['composing with keyCode 229', key({ key: 'Enter', isComposing: true, keyCode: 229 })],
  ])('Enter while the IME composes does nothing: %s', (_name, event) => {
    expect(promptAction(event, state)).toBe('default');
  });

  it.each(['Escape', 'Tab', 'ArrowUp', 'ArrowDown'])('%s belongs to the IME while composing', (k) => {
    expect(promptAction(key({ key: k, isComposing: true }), state)).toBe('default');
    expect(promptAction(key({ key: 'Process', code: k, keyCode: 229 }), state)).toBe('default');
  });

  it('Ctrl+C interrupts, but copies when something is selected; Cmd+C on macOS', () => {
    const ctrlC = key({ key: 'c', code: 'KeyC', ctrlKey: true });
    expect(promptAction(ctrlC, state)).toBe('interrupt');
    expect(promptAction(ctrlC, { ...state, hasSelection: true })).toBe('default');
    const cmdC = key({ key: 'c', code: 'KeyC', metaKey: true });
    expect(promptAction(cmdC, { ...state, mac: true })).toBe('interrupt');
    expect(promptAction(cmdC, { ...state, mac: true, hasSelection: true })).toBe('default');
    expect(promptAction(ctrlC, { ...state, mac: true })).toBe('interrupt');
  });

  it('uses the physical key for shortcuts (a Korean layout still has KeyC and KeyL)', () => {
    expect(promptAction(key({ key: 'ㅊ', code: 'KeyC', ctrlKey: true }), state)).toBe('interrupt');
    expect(promptAction(key({ key: 'ㅣ', code: 'KeyL', ctrlKey: true }), state)).toBe('clear-screen');
  });

  it('Ctrl+V and other shortcuts are left to the textarea', () => {
    expect(promptAction(key({ key: 'v', code: 'KeyV', ctrlKey: true }), state)).toBe('default');
    expect(promptAction(key({ key: 'a', code: 'KeyA', ctrlKey: true }), state)).toBe('default');
  });

  it('Up/Down walk history only from the first/last line', () => {
    expect(promptAction(key({ key: 'ArrowUp' }), state)).toBe('history-previous');
    expect(promptAction(key({ key: 'ArrowUp' }), { ...state, caretOnFirstLine: false })).toBe('default');
    expect(promptAction(key({ key: 'ArrowDown' }), state)).toBe('history-next');
    expect(promptAction(key({ key: 'ArrowDown' }), { ...state, caretOnLastLine: false })).toBe('default');
  });

  it('Tab completes what is typed, and leaves an empty prompt; Escape escapes', () => {
    expect(promptAction(key({ key: 'Tab' }), state)).toBe('complete');
    expect(promptAction(key({ key: 'Tab' }), { ...state, empty: true })).toBe('default');
    expect(promptAction(key({ key: 'Tab', shiftKey: true }), state)).toBe('default');
    expect(promptAction(key({ key: 'Escape' }), state)).toBe('escape');
  });
});

describe('history walker', () => {
  it('walks older and newer, and brings back the line being typed', () => {
    const walker = new HistoryWalker(['newest', 'older']);
    expect(walker.next()).toBeUndefined();
    expect(walker.previous('draft')).toBe('newest');
    expect(walker.previous('newest')).toBe('older');
    expect(walker.previous('older')).toBeUndefined();
    expect(walker.next()).toBe('newest');
    expect(walker.next()).toBe('draft');
    expect(walker.next()).toBeUndefined();
  });

  it('keeps lines sent before the saved history arrived as the newest', () => {
    const walker = new HistoryWalker();
    walker.add('sent early');
    walker.loadOlder(['saved', 'sent early', 'older']);
    expect(walker.previous('')).toBe('sent early');
    expect(walker.previous('')).toBe('saved');
    expect(walker.previous('')).toBe('older');
    expect(walker.previous('')).toBeUndefined();
  });

  it('adds submitted lines as the newest, once', () => {
    const walker = new HistoryWalker([]);
    walker.add('안녕');
    walker.add('안녕');
    walker.add('');
    expect(walker.previous('')).toBe('안녕');
    expect(walker.previous('안녕')).toBeUndefined();
  });
});
