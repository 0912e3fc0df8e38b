import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite databases are heavy; a few files at a time keeps a 2-core machine responsive.
    maxWorkers: 2,
    globalSetup: ['src/server/test-support/global-setup.ts'],
  },
});
