/** The share of the budget at which the user is warned, once per session. */
export const WARNING_RATIO = 0.8;

/** The whole percentage shown to the user: rounded down, so 79.6% never reads as 80%. */
export function percentFull(ratio: number): number {
  return Math.floor(ratio * 100);
}

/**
 * The dim warning (`Context is 82% full; older messages will be summarised.`), or undefined when it is
 * not due: below 80%, at or over 100% (then the trim notice speaks), or already shown in this session. With
 * `summarize: false` it says "dropped", because nothing will be summarised.
 */
export function budgetWarning(ratio: number, alreadyWarned: boolean, summarize: boolean): string | undefined {
  if (alreadyWarned || ratio < WARNING_RATIO || ratio >= 1) return undefined;
  return `Context is ${percentFull(ratio)}% full; older messages will be ${summarize ? 'summarised' : 'dropped'}.`;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The line shown at 100%, saying what was trimmed from this request and not reported before:
 * - `Context full: dropped 12 older messages to stay within the limit.`
 * - `Context full: summarised 12 older messages into one.`
 * - `Context full: summarised 10 older messages into one and dropped 2 more.`
 * and, when even the messages that must stay do not fit, ` The request is still 130% of the limit.`
 */
export function trimNotice(dropped: number, summarised: number, stillOverRatio?: number): string {
  let text: string;
  if (summarised <= 0)
    text = `Context full: dropped ${plural(dropped, 'older message')} to stay within the limit.`;
  else if (dropped <= summarised)
    text = `Context full: summarised ${plural(summarised, 'older message')} into one.`;
  else
    text = `Context full: summarised ${plural(summarised, 'older message')} into one and dropped ${dropped - summarised} more.`;
  if (stillOverRatio !== undefined && stillOverRatio > 1) {
    text += ` The request is still ${percentFull(stillOverRatio)}% of the limit.`;
  }
  return text;
}
