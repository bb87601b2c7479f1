import * as z from 'zod/mini';

const usageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  estimated: z.optional(z.boolean()),
});

/** A picture of a message, named by the hash of its copy beside the session (session-assets.ts). */
const imageSchema = z.looseObject({
  mediaType: z.enum(['image/png', 'image/jpeg']),
  width: z.number(),
  height: z.number(),
  bytes: z.number(),
  sha256: z.string(),
  name: z.string(),
});

const messageSchema = z.looseObject({
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  images: z.optional(z.array(imageSchema)),
  createdAt: z.optional(z.string()),
  model: z.optional(z.string()),
  usage: z.optional(usageSchema),
  /** An answer that is not one: the turn was declined, cancelled or failed, and its text says so. */
  status: z.optional(z.enum(['declined', 'cancelled', 'failed'])),
});

const summarySchema = z.looseObject({
  content: z.string(),
  createdAt: z.optional(z.string()),
  /** How many of the oldest messages this summary stands for. */
  covers: z.optional(z.int().check(z.nonnegative())),
});

/**
 * A session file, version 1. Read leniently: files from the original humble-ai-cli
 * (no version, no timestamps) still load; unknown keys are kept.
 */
export const sessionFileSchema = z.looseObject({
  version: z._default(z.literal(1), 1),
  startedAt: z.optional(z.string()),
  model: z.optional(z.string()),
  /** The name the user gave it (`/rename`); else its first message stands for it. */
  title: z.optional(z.string()),
  messages: z.array(messageSchema),
  summaries: z.optional(z.array(summarySchema)),
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
