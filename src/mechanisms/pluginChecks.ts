/**
 * The checks of what a plugin's functions return, and the one-line errors that name its module.
 */
import type { CodeSet } from '../lsh/codes.js';
import { UserError } from '../util/errors.js';
import { lastWordMask, wordsFor } from '../lsh/codes.js';
import { packSymbols, type ReleaseSet } from '../lsh/releases.js';
import type { MechanismPlugin, PluginEpsilon, PluginReals, PluginSymbols } from './pluginContract.js';

/** The one-line error prefix naming a module. */
export function where(path: string): string {
  return `mechanism module ${path}`;
}

/** First line of an error's message (plugin errors may be multi-line). */
export function firstLine(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return m.split('\n')[0]!.trim() || (e instanceof Error ? e.name : 'error');
}

/** Checks what a plugin's encode returned against its declared release kind; returns the release. */
export function checkPluginRelease(out: unknown, users: number, path: string, kind: MechanismPlugin['release'] = 'bits'): ReleaseSet {
  if (kind === 'bits') return checkPluginCodes(out, users, path);
  const w = `${where(path)}: encode returned`;
  const shape = kind === 'symbols' ? '{ alphabet, symbols: Uint8Array }' : '{ reals: Float64Array }';
  if (out === null || typeof out !== 'object') throw new UserError(`${w} ${out === undefined ? 'nothing' : typeof out}, expected ${shape} (it declares release: ${kind})`);
  if (kind === 'symbols') {
    const { alphabet, symbols } = out as Partial<PluginSymbols>;
    if (!Number.isInteger(alphabet) || alphabet! < 2 || alphabet! > 256) throw new UserError(`${w} alphabet = ${JSON.stringify(alphabet)}, expected an integer from 2 to 256`);
    if (!(symbols instanceof Uint8Array)) throw new UserError(`${w} symbols that are not a Uint8Array`);
    if (users === 0 || symbols.length % users !== 0 || symbols.length === 0) throw new UserError(`${w} ${symbols.length} symbols, expected users * positions (${users} users)`);
    const bad = symbols.findIndex((v) => v >= alphabet!);
    if (bad >= 0) throw new UserError(`${w} symbol ${symbols[bad]} (user ${Math.floor(bad / (symbols.length / users))}), not below the alphabet's ${alphabet}`);
    return packSymbols(symbols, users, symbols.length / users, alphabet!);
  }
  const { reals } = out as Partial<PluginReals>;
  if (!(reals instanceof Float64Array)) throw new UserError(`${w} reals that are not a Float64Array`);
  if (users === 0 || reals.length % users !== 0 || reals.length === 0) throw new UserError(`${w} ${reals.length} reals, expected users * dims (${users} users)`);
  const bad = reals.findIndex((v) => !Number.isFinite(v));
  if (bad >= 0) throw new UserError(`${w} a value that is not finite (${reals[bad]}, user ${Math.floor(bad / (reals.length / users))})`);
  return { kind: 'reals', dims: reals.length / users, values: reals.slice() };
}

/** Checks the codes a plugin returned (shape, rows, unused bits). */
export function checkPluginCodes(out: unknown, users: number, path: string): CodeSet {
  const w = `${where(path)}: encode returned`;
  if (out === null || typeof out !== 'object') throw new UserError(`${w} ${out === undefined ? 'nothing' : typeof out}, expected { codes: Uint32Array, bits, words }`);
  const c = out as Partial<CodeSet>;
  if (!(c.codes instanceof Uint32Array)) throw new UserError(`${w} codes that are not a Uint32Array`);
  if (!Number.isInteger(c.bits) || c.bits! < 1) throw new UserError(`${w} bits = ${JSON.stringify(c.bits)}, expected a positive integer`);
  if (c.words !== wordsFor(c.bits!)) throw new UserError(`${w} words = ${JSON.stringify(c.words)}, expected ceil(bits / 32) = ${wordsFor(c.bits!)}`);
  if (c.codes.length !== users * c.words) throw new UserError(`${w} ${c.codes.length} words, expected users * words = ${users} * ${c.words}`);
  const mask = lastWordMask(c.bits!);
  if (mask !== 0xffffffff) {
    for (let i = 0; i < users; i++) {
      if ((c.codes[i * c.words + c.words - 1]! & ~mask) !== 0) throw new UserError(`${w} a code with bits set beyond bit ${c.bits} (user ${i})`);
    }
  }
  return { codes: c.codes, bits: c.bits!, words: c.words };
}

export function checkEpsilon(e: unknown, path: string): PluginEpsilon {
  const w = `${where(path)}: epsilon returned`;
  if (e === null || typeof e !== 'object') throw new UserError(`${w} ${typeof e}, expected an object like { epsilon_bit, epsilon_ldp }`);
  const r = e as PluginEpsilon;
  for (const key of ['epsilon_bit', 'epsilon_ldp'] as const) {
    const v = r[key];
    if (v !== undefined && v !== null && !(typeof v === 'number' && v >= 0)) throw new UserError(`${w} ${key} = ${JSON.stringify(v)}, expected a number >= 0 or null`);
  }
  if (r.fallback !== undefined && typeof r.fallback !== 'boolean') throw new UserError(`${w} fallback = ${JSON.stringify(r.fallback)}, expected true or false`);
  return r;
}

/** Runs plugin code; its exceptions become one-line errors naming the module and the call. */
export function call<T>(path: string, what: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw new UserError(`${where(path)}: ${what} failed: ${firstLine(e)}`);
  }
}

/** The option key that carries a plugin's file hash in config entries (part of result identities). */
export const MODULE_HASH_OPTION = 'module_sha256';
