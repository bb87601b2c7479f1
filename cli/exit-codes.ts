/** Exit codes of R-TTY-6 (and 129/143 for SIGHUP/SIGTERM, R-TTY-3). */
export const EXIT = { ok: 0, failed: 1, usage: 2, needsConfirmation: 3, sighup: 129, sigterm: 143 } as const;
