/**
 * Run before every test file (vitest.config.ts setupFiles). The files of a worker share one module
 * registry (isolate: false), so a plugin one file registers (a config with a `module:` entry
 * parsed in this process) would still be known to the next file: after each file, the mechanisms
 * it registered are forgotten, as a fresh process would have them.
 */
import { afterAll } from 'vitest';
import { registeredKeys, unregisterMechanism } from '../../src/mechanisms/registry.js';

const before = new Set(registeredKeys());
afterAll(() => {
  for (const key of registeredKeys()) if (!before.has(key)) unregisterMechanism(key);
});
