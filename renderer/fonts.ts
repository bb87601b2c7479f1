/** CJK fonts by script, in the shapes of that language (Han characters and punctuation differ in form and place). */
const CJK: Record<string, string[]> = {
  ko: ["'Noto Sans Mono CJK KR'", "'Noto Sans CJK KR'", "'Apple SD Gothic Neo'", "'Malgun Gothic'"],
  ja: ["'Noto Sans Mono CJK JP'", "'Noto Sans CJK JP'", "'Hiragino Sans'", "'Yu Gothic'"],
  zh: ["'Noto Sans Mono CJK SC'", "'Noto Sans CJK SC'", "'PingFang SC'", "'Microsoft YaHei'"],
  'zh-tw': ["'Noto Sans Mono CJK TC'", "'Noto Sans CJK TC'", "'PingFang TC'", "'Microsoft JhengHei'"],
  'zh-hk': ["'Noto Sans Mono CJK HK'", "'Noto Sans CJK HK'", "'PingFang HK'"],
};

/**
 * The font stack for the transcript and the prompt. A terminal's cell is as wide as the first font's Latin
 * letter and a CJK character takes two cells, so the first font is the page's own (fonts.css, shipped with it):
 * `hac Grid` draws ASCII and Hangul, its Hangul exactly two of its letters wide, so every machine shows the same
 * grid; `hac Mono` the rest of Latin and the one-cell symbols. Kana and Han come from the system's CJK fonts in
 * the order of the reader's languages (every CJK font draws them one em wide, which is two of these cells), and
 * from the page's own font (`hac Grid CJK`) where none is installed; emoji come last.
 */
export function fontStack(languages: readonly string[]): string {
  const order: string[] = [];
  for (const language of [...languages.map((l) => l.toLowerCase()), 'ja', 'zh', 'ko', 'zh-tw', 'zh-hk']) {
    const key = CJK[language] ? language : language.split('-')[0]!;
    if (CJK[key] && !order.includes(key)) order.push(key);
  }
  return [
    "'hac Grid'",
    // One-cell symbols, Greek and Cyrillic, monospaced (styles.css fits them to the cells).
    "'hac Mono'",
    "'hac Mono Windows'",
    ...order.flatMap((key) => CJK[key]!),
    "'hac Grid CJK'",
    "'Noto Color Emoji'",
    'monospace',
  ].join(', ');
}

/** How long the page waits for its font before it draws with what it has. */
const FONT_WAIT_MS = 1500;

/**
 * Loads the page's font (its Latin and a first Hangul slice, both weights) before the transcript measures its
 * cells: measured with a stand-in font, every cell would be the stand-in's width.
 */
export async function loadGridFont(): Promise<void> {
  const loads = ['normal', 'bold'].map((weight) => document.fonts.load(`${weight} 14px 'hac Grid'`, 'W가'));
  await Promise.race([
    Promise.all(loads).catch(() => undefined),
    new Promise((resolve) => setTimeout(resolve, FONT_WAIT_MS)),
  ]);
}
