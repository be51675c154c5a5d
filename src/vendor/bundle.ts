/**
 * A library bundled into one file by the build (scripts/bundle.mjs: dist/vendor/bundled-<name>.cjs),
 * or null where there is none (the tests run on src/, which has no bundles): the caller then loads
 * the packages themselves, the same code.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

export function loadBundle<T>(name: string): T | null {
  // '../vendor/': this folder, also from the CLI's bundle (dist/bundle/) and the worker's (dist/machinery/)
  const path = fileURLToPath(new URL(`../vendor/bundled-${name}.cjs`, import.meta.url));
  return existsSync(path) ? (require(path) as T) : null;
}

/** A package loaded the CommonJS way (what a bundle replaces). */
export const requirePackage = <T>(name: string): T => require(name) as T;
