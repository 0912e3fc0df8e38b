import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    // Budgets for a machine busy with other work (load 13 on 2 cores makes a test ten times slower).
    // A process a test starts fails sooner, as soon as it is stuck (test-support/server-process.ts).
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // PGlite databases are heavy; a few files at a time keeps a 2-core machine responsive.
    maxWorkers: 2,
    globalSetup: ['src/server/test-support/global-setup.ts'],
  },
});
