// HAC_PROFILE=1 prints where the time of a run goes (bench/cli.mjs reads it): ms since the process started.
const enabled = process.env.HAC_PROFILE === '1';

/** Records a phase mark on stderr when profiling; free otherwise. */
export function mark(phase: string): void {
  if (enabled) process.stderr.write(`[hac-profile] ${performance.now().toFixed(1)} ${phase}\n`);
}
