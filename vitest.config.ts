import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

// Two tiers: `npm test` runs the fast tier; `npm run test:full` (LSHDP_TEST_TIER=full) adds the
// long statistical hunts and end-to-end tests, kept in files named `*.long.test.ts`.
const full = process.env.LSHDP_TEST_TIER === 'full';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    exclude: full ? [...configDefaults.exclude] : [...configDefaults.exclude, 'tests/**/*.long.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // vitest's default leaves a core free (one worker on 2 cores), but most test files wait on a
    // CLI child process or on worker threads: one worker per core keeps the cores busy
    maxWorkers: Math.max(2, availableParallelism()),
    reporters: ['default', './tests/helpers/summary-reporter.ts'],
    // `npm run coverage` / `coverage:full`: line coverage of src/, the built dist/ mapped back to
    // it through its source maps (most CLI tests run the built CLI in-process)
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts', 'dist/**/*.js'],
      exclude: ['**/*.d.ts'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: full ? 'coverage/full' : 'coverage/fast',
    },
  },
});
