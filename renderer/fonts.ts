/** Monospace fonts whose Latin letters are exactly half as wide as their CJK characters, by script. */
const CJK_MONO: Record<string, string[]> = {
  ko: ["'D2Coding'", "'Sarasa Mono K'", "'NanumGothicCoding'", "'Noto Sans Mono CJK KR'"],
  ja: ["'Noto Sans Mono CJK JP'", "'Sarasa Mono J'"],
  zh: ["'Noto Sans Mono CJK SC'", "'Sarasa Mono SC'"],
  'zh-tw': ["'Noto Sans Mono CJK TC'", "'Sarasa Mono TC'"],
  'zh-hk': ["'Noto Sans Mono CJK HK'", "'Sarasa Mono HC'"],
};
/** Used where no CJK monospace font is installed (the glyphs then sit in their two cells with some space). */
const FALLBACK = [
  "'DejaVu Sans Mono'",
  "'Menlo'",
  "'Consolas'",
  "'Noto Sans CJK KR'",
  "'Apple SD Gothic Neo'",
  "'Malgun Gothic'",
  "'Noto Color Emoji'",
  'monospace',
];

/**
 * The font stack for the transcript and the prompt. A terminal's cell is as wide as the first font's Latin
 * letter and a CJK character takes two cells, so the first font must be one whose CJK characters are exactly two
 * Latin letters wide, else every Hangul syllable and kana shows a gap. The user's language picks which CJK
 * font comes first (Han characters and punctuation differ in shape and place); the others follow.
 */
export function fontStack(languages: readonly string[]): string {
  const order: string[] = [];
  for (const language of languages.map((l) => l.toLowerCase())) {
    const key = CJK_MONO[language] ? language : language.split('-')[0]!;
    if (CJK_MONO[key] && !order.includes(key)) order.push(key);
  }
  // Otherwise Japanese first: its kana and punctuation sit where Japanese text expects them.
  for (const key of ['ja', 'zh', 'ko', 'zh-tw', 'zh-hk']) if (!order.includes(key)) order.push(key);
  // Hangul and one-cell symbols first from a Korean coding font whatever the language (styles.css, `hac Grid`):
  // Noto Sans Mono CJK draws Hangul narrower than two Latin letters and box drawing two cells wide.
  return ["'hac Grid'", ...order.flatMap((key) => CJK_MONO[key]!), ...FALLBACK].join(', ');
}
