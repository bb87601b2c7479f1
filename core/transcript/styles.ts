/** The few ANSI styles the transcript uses. Both hosts render the same codes. */
export interface Styles {
  dim(text: string): string;
  cyan(text: string): string;
  red(text: string): string;
  bold(text: string): string;
}

const wrap = (open: number, close: number) => (text: string) =>
  text ? `\x1b[${open}m${text}\x1b[${close}m` : text;

export const ANSI_STYLES: Styles = {
  dim: wrap(2, 22),
  cyan: wrap(36, 39),
  red: wrap(31, 39),
  bold: wrap(1, 22),
};

const same = (text: string) => text;
export const PLAIN_STYLES: Styles = { dim: same, cyan: same, red: same, bold: same };

/** Colour only on a terminal, and never when `NO_COLOR` is set to anything non-empty. */
export function stylesFor(isTty: boolean, env: Record<string, string | undefined>): Styles {
  return isTty && !env.NO_COLOR ? ANSI_STYLES : PLAIN_STYLES;
}
