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
    // each worker runs its files one after another in one module registry instead of a fresh
    // child process per file: the suite's ~110 files each paid ~0.5 CPU-s of start-up and of
    // evaluating the same modules (vitest's runner, src/, the built CLI) before. The tests leave
    // no state behind for the next file: they put back the environment, working folder and
    // stdout/stderr writers they change (tests/helpers/inproc.ts), unregister the mechanisms
    // they register, and the two that load modules under another LSHDP_KERNEL reset the
    // registry after (vi.resetModules). A test that cannot do so belongs in a child process.
    isolate: false,
    // and, as a safety net, forgets after each file the plugins it registered (tests/helpers/isolation.ts)
    setupFiles: ['./tests/helpers/isolation.ts'],
    // a line per file as it finishes (a suite that looks hung is one a user stops), then the plain closing line
    reporters: ['default', './tests/helpers/progress-reporter.ts', './tests/helpers/summary-reporter.ts'],
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
