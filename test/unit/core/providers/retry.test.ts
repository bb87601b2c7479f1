import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../../../core/errors/provider-error.js';
import { abortableSleep } from '../../../../core/providers/retry.js';

describe('abortableSleep', () => {
  it('rejects-with-cancelled-when-already-aborted', async () => {
    await expect(abortableSleep(60_000, AbortSignal.abort())).rejects.toMatchObject({ code: 'cancelled' });
  });

  it('rejects-with-cancelled-at-once-when-aborted-during-the-wait', async () => {
    const controller = new AbortController();
    const waiting = abortableSleep(60_000, controller.signal);
    controller.abort();
    const error = await waiting.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).message).toBe('Request cancelled.');
  });

  it('resolves-after-the-delay', async () => {
    await expect(abortableSleep(1, new AbortController().signal)).resolves.toBeUndefined();
  });
});
