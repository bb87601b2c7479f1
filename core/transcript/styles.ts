/** The few ANSI styles the transcript uses. Both hosts render the same codes. */
export interface Styles {
  dim(text: string): string;
  cyan(text: string): string;
  red(text: string): string;
  bold(text: string): string;
  /**
   * hac's own questions and labels (`Call now? (Y/N): `, `Tool:`): reverse video, which answer text can never
   * produce (its escapes are made inert, and Markdown and code highlighting never use it), so an answer cannot
   * imitate them.
   */
  question(text: string): string;
  /** Without colour, the line that ends an answer before hac asks something (nothing else sets them apart). */
  answerEnd?: string;
}

const wrap = (open: number, close: number) => (text: string) =>
  text ? `\x1b[${open}m${text}\x1b[${close}m` : text;

export const ANSI_STYLES: Styles = {
  dim: wrap(2, 22),
  cyan: wrap(36, 39),
  red: wrap(31, 39),
  bold: wrap(1, 22),
  question: wrap(7, 27),
};

const same = (text: string) => text;
export const PLAIN_STYLES: Styles = {
  dim: same,
  cyan: same,
  red: same,
  bold: same,
  question: same,
  answerEnd: '-- end of answer --',
};

/** Colour only on a terminal, and never when `NO_COLOR` is set to anything non-empty. */
export function stylesFor(isTty: boolean, env: Record<string, string | undefined>): Styles {
  return isTty && !env.NO_COLOR ? ANSI_STYLES : PLAIN_STYLES;
}
