import { z } from 'zod';

const usageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  estimated: z.boolean().optional(),
});

const messageSchema = z.looseObject({
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  createdAt: z.string().optional(),
  model: z.string().optional(),
  usage: usageSchema.optional(),
});

const summarySchema = z.looseObject({
  content: z.string(),
  createdAt: z.string().optional(),
  /** How many of the oldest messages this summary stands for (R-CTX-4). */
  covers: z.number().int().min(0).optional(),
});

/**
 * A session file (R-SES-3), version 1. Read leniently: files from the original humble-ai-cli
 * (no version, no timestamps) still load; unknown keys are kept.
 */
export const sessionFileSchema = z.looseObject({
  version: z.literal(1).default(1),
  startedAt: z.string().optional(),
  model: z.string().optional(),
  messages: z.array(messageSchema),
  summaries: z.array(summarySchema).optional(),
});

export type SessionFile = z.infer<typeof sessionFileSchema>;
export type SessionMessage = z.infer<typeof messageSchema>;
export type SessionSummary = z.infer<typeof summarySchema>;

/** RFC 3339 local time with offset, second precision: `2026-11-22T12:49:37+09:00`. */
export function rfc3339Local(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  return (
    `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}T` +
    `${p(date.getHours())}:${p(date.getMinutes())}:${p(date.getSeconds())}${sign}${p(Math.floor(abs / 60))}:${p(abs % 60)}`
  );
}
