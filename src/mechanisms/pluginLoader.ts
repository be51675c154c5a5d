/**
 * Loading a plugin module (by path, asynchronously or synchronously for configs and worker
 * threads), checking its default export, and registering a run's plugins in a thread's registry.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UserError } from '../util/errors.js';
import type { MechanismPlugin } from './pluginContract.js';
import type { Mechanism } from './types.js';
import { validatePlugin } from './pluginValidate.js';
import { firstLine, where } from './pluginChecks.js';

/** A validated plugin, where it came from and the SHA-256 of its file (part of result identities). */
export interface LoadedPlugin {
  plugin: MechanismPlugin;
  /** the module path as given (for messages) */
  path: string;
  /** absolute path of the module file */
  file: string;
  sha256: string;
}

/** A registry mechanism made from a plugin: its `epsilon` reads `privacy.d` in the family's metric. */
export type PluginBackedMechanism = Mechanism & { readonly plugin: LoadedPlugin };

export { validatePlugin };

/**
 * Loads and validates a plugin module. `path` is resolved against `baseDir` (the config file's
 * folder; default the working directory). Fails with a one-line UserError naming the module when
 * the file is missing, does not load, or its default export breaks the contract.
 */
export async function loadPlugin(path: string, baseDir = process.cwd()): Promise<LoadedPlugin> {
  const file = resolve(baseDir, path);
  const { sha256 } = readModule(path, file);
  let mod: { default?: unknown };
  try {
    // the hash in the URL: an edited file is a new module even within one process
    mod = (await import(`${pathToFileURL(file).href}?sha256=${sha256}`)) as { default?: unknown };
  } catch (e) {
    throw new UserError(`${where(path)}: failed to load: ${firstLine(e)}`);
  }
  return { plugin: validatePlugin(mod.default, path), path, file, sha256 };
}

const requireModule = createRequire(import.meta.url);
/** Modules loaded synchronously in this process, by file: their hash (a changed file cannot be re-required). */
const loadedSync = new Map<string, LoadedPlugin>();

/** The file's bytes and SHA-256, or a one-line error naming the module. */
function readModule(path: string, file: string): { bytes: Buffer; sha256: string } {
  try {
    if (!statSync(file).isFile()) throw new UserError(`${where(path)}: not a file`);
    const bytes = readFileSync(file);
    return { bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
  } catch (e) {
    if (e instanceof UserError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new UserError(`${where(path)}: ${code === 'ENOENT' ? 'no such file' : `cannot read (${code ?? firstLine(e)})`}`);
  }
}

/**
 * `loadPlugin` without a Promise, for configs (parsed synchronously) and worker threads: the module
 * is loaded with require() of an ES module (Node >= 20.19), so it must not use top-level await.
 * A file that changed since this process loaded it is an error (its old code would run).
 */
export function loadPluginSync(path: string, baseDir = process.cwd()): LoadedPlugin {
  const file = resolve(baseDir, path);
  const { sha256 } = readModule(path, file);
  const known = loadedSync.get(file);
  if (known) {
    if (known.sha256 !== sha256) throw new UserError(`${where(path)}: the file changed while lshdp was running; run again`);
    return { ...known, path };
  }
  let mod: { default?: unknown };
  try {
    mod = requireModule(file) as { default?: unknown };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ERR_REQUIRE_ASYNC_MODULE' ? 'it (or a module it imports) uses top-level await, which plugins may not' : firstLine(e);
    throw new UserError(`${where(path)}: failed to load: ${why}`);
  }
  const loaded = { plugin: validatePlugin(mod.default, path), path, file, sha256 };
  loadedSync.set(file, loaded);
  return loaded;
}

/** A plugin a run uses: where its file is and the hash the config saw (workers check it). */
export interface PluginRef {
  name: string;
  file: string;
  sha256: string;
}
