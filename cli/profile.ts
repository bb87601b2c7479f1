// HAC_PROFILE=1 prints where the time of a run goes (bench/cli.mjs reads it): ms since the process started, and
// the wall-clock time (ms since the epoch) so that a bench can set the marks beside its own clock.
const enabled = process.env.HAC_PROFILE === '1';

/** Records a phase mark on stderr when profiling; free otherwise. */
export function mark(phase: string): void {
  if (!enabled) return;
  const now = performance.now();
  process.stderr.write(
    `[hac-profile] ${now.toFixed(1)} ${phase} @${(performance.timeOrigin + now).toFixed(1)}\n`,
  );
}
