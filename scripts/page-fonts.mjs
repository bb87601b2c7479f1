// The window's own font, shipped with the page so the grid is the same on every machine: Nanum Gothic Coding
// (SIL OFL, from @fontsource), whose Hangul and CJK characters are exactly two of its Latin letters wide. Its
// @fontsource stylesheets are split into slices by unicode-range (a slice loads only when its characters are on
// screen); this writes the woff2 slices to dist/renderer/fonts/ and fonts.css with two families over them:
//   'hac Grid': ASCII and Hangul, the first font of the page, so it sets the cell and every Hangul syllable fills
//     its two cells without a gap (its symbols, arrows, box drawing and bullets, are drawn two cells wide where
//     a terminal gives them one: those come from the next font, styles.css's 'hac Mono');
//   'hac Grid CJK': every slice, after the system's CJK fonts (kana and Han in the shapes of the reader's
//     language where a font for it is installed, and from this font where none is).
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * What 'hac Grid' draws: ASCII, Hangul Jamo, compatibility Jamo and syllables. Its other Latin characters are two
 * cells wide (×, °, ±, Æ) or missing (é): measured in Chromium, only ASCII is one cell.
 */
const GRID = [
  [0x0000, 0x007e],
  [0x1100, 0x11ff],
  [0x3130, 0x318f],
  [0xa960, 0xa97f],
  [0xac00, 0xd7ff],
];

/** `U+0-FF,U+131,U+4??` as [from, to] pairs. */
function parseRanges(text) {
  return text.split(',').map((part) => {
    const [from, to = from] = part.trim().replace(/^U\+/i, '').split('-');
    return from.includes('?')
      ? [parseInt(from.replace(/\?/g, '0'), 16), parseInt(from.replace(/\?/g, 'F'), 16)]
      : [parseInt(from, 16), parseInt(to, 16)];
  });
}

const formatRanges = (ranges) =>
  ranges
    .map(([a, b]) => (a === b ? `U+${a.toString(16)}` : `U+${a.toString(16)}-${b.toString(16)}`))
    .join(',');

function intersect(ranges, allowed) {
  const out = [];
  for (const [a, b] of ranges)
    for (const [c, d] of allowed)
      if (Math.max(a, c) <= Math.min(b, d)) out.push([Math.max(a, c), Math.min(b, d)]);
  return out;
}

// swap: a slice still loading never hides text (a streamed answer stays readable); the transcript measures its
// characters again once it has come (renderer/transcript-view.ts).
const face = (family, weight, file, ranges) =>
  `@font-face{font-family:'${family}';font-style:normal;font-display:swap;font-weight:${weight};` +
  `src:url(fonts/${file}) format('woff2');unicode-range:${formatRanges(ranges)}}`;

/** Writes the fonts and fonts.css into `outDir`; returns the font files' names. */
export function writePageFonts(root, outDir) {
  const source = path.join(root, 'node_modules/@fontsource/nanum-gothic-coding');
  mkdirSync(path.join(outDir, 'fonts'), { recursive: true });
  const css = [];
  const grid = [];
  const files = [];
  for (const weight of [400, 700]) {
    const sheet = readFileSync(path.join(source, `${weight}.css`), 'utf8');
    for (const block of sheet.match(/@font-face\s*{[^}]*}/g) ?? []) {
      const file = /url\(\.\/files\/([\w-]+\.woff2)\)/.exec(block)?.[1];
      const ranges = /unicode-range:\s*([^;}]+)/.exec(block)?.[1];
      if (!file || !ranges)
        throw new Error(`${source}/${weight}.css: a face without a woff2 file or a unicode-range`);
      copyFileSync(path.join(source, 'files', file), path.join(outDir, 'fonts', file));
      files.push(file);
      const all = parseRanges(ranges);
      css.push(face('hac Grid CJK', weight, file, all));
      const mine = intersect(all, GRID);
      if (mine.length > 0) grid.push(face('hac Grid', weight, file, mine));
    }
  }
  if (files.length === 0) throw new Error(`${source}: no font faces found`);
  writeFileSync(
    path.join(outDir, 'fonts.css'),
    `/* Nanum Gothic Coding, SIL Open Font License 1.1 (scripts/page-fonts.mjs) */\n${[...grid, ...css].join('\n')}\n`,
  );
  return files;
}
