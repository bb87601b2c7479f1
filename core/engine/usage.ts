import type { Usage } from '../types/message.js';

/** A cheap token estimate (R-PROV-6) for providers that report no usage: about 4 characters per token for Latin text, 1 per character for CJK and other wide scripts. */
export function roughTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) < 0x80) ascii++;
    else other++;
  }
  return Math.ceil(ascii / 4) + other;
}

export function addUsage(total: Usage | undefined, next: Usage): Usage {
  if (!total) return { ...next };
  return {
    inputTokens: total.inputTokens + next.inputTokens,
    outputTokens: total.outputTokens + next.outputTokens,
    ...(total.estimated || next.estimated ? { estimated: true } : {}),
  };
}
