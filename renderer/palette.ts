import type { ITheme } from '@xterm/xterm';

/**
 * The transcript's colours, dark and light. Every colour the transcript writes text in (the default, the six
 * ANSI colours answers, code and notices use, and their bright forms) reads at 4.5:1 or more on its background,
 * and dim text in a colour (drawn at half strength) at 3:1 or more; dim text in the default colour is drawn in the
 * page's --dim-text at 4.5:1 (styles.css). test/unit/renderer/palette.test.ts computes it.
 */
export const DARK: ITheme = {
  background: '#1e1e1e',
  foreground: '#d4d4d4',
  cursor: '#1e1e1e',
  selectionBackground: '#264f78',
  black: '#1e1e1e',
  red: '#f48771',
  green: '#89d185',
  yellow: '#e5c07b',
  blue: '#6cb6ff',
  magenta: '#d898e8',
  cyan: '#4ec9b0',
  white: '#d4d4d4',
  brightBlack: '#9a9a9a',
  brightRed: '#ff9d8a',
  brightGreen: '#a6e3a1',
  brightYellow: '#f0d399',
  brightBlue: '#8fc8ff',
  brightMagenta: '#e6b3f0',
  brightCyan: '#7fdcc8',
  brightWhite: '#ffffff',
};

export const LIGHT: ITheme = {
  background: '#ffffff',
  foreground: '#1f1f1f',
  cursor: '#ffffff',
  selectionBackground: '#add6ff',
  black: '#1f1f1f',
  red: '#c72e0f',
  green: '#116329',
  yellow: '#7a5c00',
  blue: '#0550ae',
  magenta: '#8250df',
  cyan: '#0e7c86',
  white: '#6b6b6b',
  brightBlack: '#595959',
  brightRed: '#a4260c',
  brightGreen: '#0d5020',
  brightYellow: '#634b00',
  brightBlue: '#04408c',
  brightMagenta: '#6a3fc0',
  brightCyan: '#0a6168',
  brightWhite: '#1f1f1f',
};
