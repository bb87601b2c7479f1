/** Exit codes of R-TTY-6, and 143 after SIGTERM (R-TTY-3; after SIGHUP hac ends by the signal, status 129). */
export const EXIT = { ok: 0, failed: 1, usage: 2, needsConfirmation: 3, sigterm: 143 } as const;
