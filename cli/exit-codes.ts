/** Exit codes of `hac -p`, and 143 after SIGTERM (after SIGHUP hac ends by the signal, status 129). */
export const EXIT = { ok: 0, failed: 1, usage: 2, needsConfirmation: 3, sigterm: 143 } as const;
