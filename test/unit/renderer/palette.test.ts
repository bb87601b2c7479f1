import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DARK, LIGHT } from '../../../renderer/palette.js';

// WCAG 2 contrast: relative luminance of sRGB colours, (lighter + 0.05) / (darker + 0.05).
const channels = (hex: string) => hex.match(/[0-9a-f]{2}/gi)!.map((h) => parseInt(h, 16));
const luminance = (hex: string) => {
  const [r, g, b] = channels(hex).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
};
const contrast = (a: string, b: string) => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
};
/** Dim text is drawn at half strength: half way to the background. */
const dim = (fg: string, bg: string) =>
  `#${channels(fg)
    .map((v, i) =>
      Math.round((v + channels(bg)[i]!) / 2)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;

const TEXT_COLOURS = ['foreground', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan'] as const;
const BRIGHT = [
  'brightRed',
  'brightGreen',
  'brightYellow',
  'brightBlue',
  'brightMagenta',
  'brightCyan',
] as const;

describe.each([
  ['dark', DARK],
  ['light', LIGHT],
])('the %s palette meets WCAG AA', (_name, theme) => {
  const bg = theme.background!;
  it.each([...TEXT_COLOURS, ...BRIGHT, 'brightBlack'] as const)('%s text: 4.5:1 or more', (colour) => {
    expect(contrast(theme[colour]!, bg)).toBeGreaterThanOrEqual(4.5);
  });
  it('dim text: 3:1 or more', () => {
    expect(contrast(dim(theme.foreground!, bg), bg)).toBeGreaterThanOrEqual(3);
  });
});

describe('the page around the transcript meets WCAG AA in both themes', () => {
  const css = readFileSync(path.resolve(import.meta.dirname, '../../../renderer/styles.css'), 'utf8');
  const variables = (block: string) =>
    Object.fromEntries([...block.matchAll(/--([\w-]+):\s*(#[0-9a-f]{6})/gi)].map((m) => [m[1]!, m[2]!]));
  const dark = variables(
    css.slice(css.indexOf(':root {'), css.indexOf('@media (prefers-color-scheme: light)')),
  );
  const light = { ...dark, ...variables(css.slice(css.indexOf('@media (prefers-color-scheme: light)'))) };
  it.each([
    ['dark', dark],
    ['light', light],
  ])('%s: the prompt, the status line and the hints', (_name, v) => {
    expect(contrast(v.fg!, v.bg!)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(v.dim!, v.bar!)).toBeGreaterThanOrEqual(4.5); // the status line
    expect(contrast(v.dim!, v.bg!)).toBeGreaterThanOrEqual(4.5); // the welcome hints
    expect(contrast(v.accent!, v.bg!)).toBeGreaterThanOrEqual(4.5);
  });
  it.each([
    ['dark', dark],
    ['light', light],
  ])("%s: the transcript's dim text reads at 4.5:1 and is still dimmer than the text", (_name, v) => {
    expect(contrast(v['dim-text']!, v.bg!)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(v['dim-text']!, v.bg!)).toBeLessThan(contrast(v.fg!, v.bg!) - 3);
  });
  it('the dim text colour is the one xterm uses for dim cells', () => {
    expect(css).toMatch(
      /#transcript \.xterm-rows \.xterm-dim:not\(\[class\*='xterm-fg-'\]\) \{\s*color: var\(--dim-text\);/,
    );
  });
});
