import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Integration tests start real processes; two cores do not gain from more workers.
    maxWorkers: 2,
    // expect.poll waits for real processes and servers: on a loaded CI machine 1 s (its default) is too short.
    expect: { poll: { timeout: 10_000 } },
    env: { NO_COLOR: '1' },
  },
});
