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
    reporters: ['default', './tests/helpers/summary-reporter.ts'],
  },
});
