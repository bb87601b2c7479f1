import type { Message, Usage } from '../types/message.js';

/** A cheap token estimate for providers that report no usage: about 4 characters per token for Latin text, 1 per character for CJK and other wide scripts. */
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

/**
 * A provider that reports no usage gets an estimate, marked as such. A cheap one on purpose: loading the
 * BPE tokenizer costs ~250 ms and ~40 MB, which a one-shot answer must not pay after its last byte.
 */
export function estimateUsage(request: readonly Message[], answer: string): Usage {
  const input = request.reduce((n, m) => n + roughTokens(m.content), 0);
  return { inputTokens: input, outputTokens: roughTokens(answer), estimated: true };
}
