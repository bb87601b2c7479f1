import { defineConfig } from 'vitest/config';

// Two kinds of test files. In-process ones (unit, integration, architecture) share their workers: a fresh worker
// per file cost ~0.4 s each, a minute of the suite. Files that drive the built `hac` (a pseudo-terminal,
// Chromium, the conformance suite) or mock modules (Electron's fakes) keep a worker each, and get the time a
// loaded two-core machine needs to start real processes.
const SELF_CONTAINED = [
  'test/e2e/**/*.test.ts',
  'test/conformance/**/*.test.ts',
  'test/unit/electron/**/*.test.ts',
];

export default defineConfig({
  test: {
    // Integration tests start real processes; two cores do not gain from more workers.
    maxWorkers: 2,
    // expect.poll waits for real processes and servers: on a loaded CI machine 1 s (its default) is too short.
    expect: { poll: { timeout: 10_000 } },
    env: { NO_COLOR: '1' },
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'in-process',
          include: ['test/**/*.test.ts'],
          exclude: SELF_CONTAINED,
          isolate: false,
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'end-to-end',
          include: SELF_CONTAINED,
          // End-to-end tests drive the built `hac`: it is built once before they run.
          globalSetup: ['test/global-setup.ts'],
          // A test's own waits (a restart, a reconnect) add up past 20 s when the machine is busy; a hang still
          // fails, a minute later.
          testTimeout: 60_000,
        },
      },
    ],
  },
});
