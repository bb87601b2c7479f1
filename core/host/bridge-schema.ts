import * as z from 'zod/mini';
import { BRIDGE_LIMITS, type BridgeCall } from './bridge.js';

const id = z.int().check(z.nonnegative());
const none = z.strictObject({});
const text = (max: number) => z.string().check(z.maxLength(max));
/** A file name in `sessions/`, never a path: the page names sessions, it cannot point elsewhere. */
const sessionName = z.string().check(
  z.maxLength(255),
  z.regex(/^[^/\\]+\.json$/),
  z.refine((n) => !n.startsWith('.')),
);

/**
 * Every call a page may make, validated where it arrives (the `hac web` socket and Electron's IPC handlers):
 * type and size. Anything else is refused.
 */
export const bridgeCallSchema = z.discriminatedUnion('method', [
  z.strictObject({
    id,
    method: z.literal('submit'),
    params: z.strictObject({ text: text(BRIDGE_LIMITS.textChars) }),
  }),
  z.strictObject({ id, method: z.literal('interrupt'), params: none }),
  z.strictObject({
    id,
    method: z.literal('complete'),
    params: z.strictObject({ prefix: text(BRIDGE_LIMITS.prefixChars) }),
  }),
  z.strictObject({ id, method: z.literal('history'), params: none }),
  z.strictObject({
    id,
    method: z.literal('openLink'),
    params: z.strictObject({ url: text(BRIDGE_LIMITS.urlChars) }),
  }),
  z.strictObject({
    id,
    method: z.literal('attach'),
    params: z.strictObject({ name: text(BRIDGE_LIMITS.nameChars), data: text(BRIDGE_LIMITS.imageChars) }),
  }),
  z.strictObject({
    id,
    method: z.literal('detach'),
    params: z.strictObject({ index: id }),
  }),
  z.strictObject({
    id,
    method: z.literal('answerForm'),
    params: z.union([
      z.strictObject({
        action: z.literal('accept'),
        values: z
          .record(
            text(BRIDGE_LIMITS.nameChars),
            z.union([
              text(BRIDGE_LIMITS.fieldChars),
              z.boolean(),
              z.array(text(BRIDGE_LIMITS.fieldChars)).check(z.maxLength(BRIDGE_LIMITS.formFields)),
            ]),
          )
          .check(
            z.refine((values) => Object.keys(values).length <= BRIDGE_LIMITS.formFields, 'too many fields'),
          ),
      }),
      z.strictObject({ action: z.enum(['decline', 'cancel']) }),
    ]),
  }),
  z.strictObject({
    id,
    method: z.literal('sessions'),
    params: z.strictObject({ query: text(BRIDGE_LIMITS.prefixChars) }),
  }),
  z.strictObject({
    id,
    method: z.literal('manageSession'),
    params: z.union([
      z.strictObject({ action: z.enum(['open', 'delete']), name: sessionName }),
      z.strictObject({
        action: z.literal('rename'),
        name: sessionName,
        title: text(BRIDGE_LIMITS.nameChars),
      }),
      z.strictObject({ action: z.literal('export'), name: sessionName, format: z.enum(['md', 'json']) }),
    ]),
  }),
  z.strictObject({
    id,
    method: z.literal('downloadSession'),
    params: z.strictObject({ name: sessionName, format: z.enum(['md', 'json']) }),
  }),
  z.strictObject({ id, method: z.literal('openWindow'), params: z.strictObject({ resume: sessionName }) }),
  z.strictObject({
    id,
    method: z.literal('showView'),
    params: z.strictObject({ number: z.int().check(z.positive()), theme: z.enum(['light', 'dark']) }),
  }),
]);

/** A call as sent, or why it was refused. */
export function parseBridgeCall(
  raw: unknown,
): { ok: true; call: BridgeCall } | { ok: false; problem: string } {
  const parsed = z.safeParse(bridgeCallSchema, raw);
  if (parsed.success) return { ok: true, call: parsed.data };
  return {
    ok: false,
    problem: parsed.error.issues.map((i) => `${i.path.join('.') || 'call'}: ${i.message}`).join('; '),
  };
}
