/** Monospace fonts whose Latin letters are exactly half as wide as their CJK characters, by script. */
const CJK_MONO: Record<string, string[]> = {
  ko: ["'D2Coding'", "'Sarasa Mono K'", "'NanumGothicCoding'", "'Noto Sans Mono CJK KR'"],
  ja: ["'Noto Sans Mono CJK JP'", "'Sarasa Mono J'"],
  zh: ["'Noto Sans Mono CJK SC'", "'Sarasa Mono SC'"],
  'zh-tw': ["'Noto Sans Mono CJK TC'", "'Sarasa Mono TC'"],
  'zh-hk': ["'Noto Sans Mono CJK HK'", "'Sarasa Mono HC'"],
};
/** Latin monospace fonts, small and on every system. */
const LATIN = ["'DejaVu Sans Mono'", "'Menlo'", "'Consolas'"];
/** Where no CJK monospace font is installed (CJK glyphs then sit in their two cells with some space), and emoji. */
const OTHERS = [
  "'Noto Sans CJK KR'",
  "'Apple SD Gothic Neo'",
  "'Malgun Gothic'",
  "'Noto Color Emoji'",
  'monospace',
];

/**
 * The font stack for the transcript and the prompt. A terminal's cell is as wide as the first font's Latin
 * letter and a CJK character takes two cells, so for CJK text without gaps the first font must be one whose CJK
 * characters are exactly two Latin letters wide. For a user whose languages include Korean, Japanese or Chinese
 * such a font comes first (Han characters and punctuation differ in shape and place by language), with Hangul and
 * one-cell symbols from a Korean coding font (styles.css, `hac Grid`). For others a Latin monospace font comes
 * first: the CJK fonts are large, and loading one before the first paint costs the window about 100 ms to open.
 */
export function fontStack(languages: readonly string[]): string {
  const order: string[] = [];
  for (const language of languages.map((l) => l.toLowerCase())) {
    const key = CJK_MONO[language] ? language : language.split('-')[0]!;
    if (CJK_MONO[key] && !order.includes(key)) order.push(key);
  }
  const readsCjk = order.length > 0;
  for (const key of ['ja', 'zh', 'ko', 'zh-tw', 'zh-hk']) if (!order.includes(key)) order.push(key);
  const cjk = order.flatMap((key) => CJK_MONO[key]!);
  return (readsCjk ? ["'hac Grid'", ...cjk, ...LATIN, ...OTHERS] : [...LATIN, ...cjk, ...OTHERS]).join(', ');
}
