/**
 * A plugin's options: the keys a config entry may give it (version 1: `optionKeys`; version 2: the
 * keys of its `optionSchema`, and `accountant` when it declares accountants), their values checked
 * against the schema as a built-in's are (type, range, choices, with a did-you-mean), and the
 * options its functions see (the schema's defaults filled in, lshdp's file hash left out).
 */
import { didYouMean } from '../util/didYouMean.js';
import type { OptionSpec } from './types.js';
import type { MechanismPlugin } from './pluginContract.js';
import { MODULE_HASH_OPTION } from './pluginChecks.js';

/** The option keys a config entry of `plugin` may carry. */
export function pluginOptionKeys(plugin: MechanismPlugin): string[] {
  if (plugin.apiVersion !== 2) return [...(plugin.optionKeys ?? [])];
  const keys = Object.keys(plugin.optionSchema ?? {});
  if ((plugin.accountants ?? []).length > 0 && !keys.includes('accountant')) keys.push('accountant');
  return keys;
}

/** What is wrong with one value under its spec (null: nothing). */
function valueProblem(spec: OptionSpec, v: unknown): string | null {
  const got = `got ${JSON.stringify(v)}`;
  switch (spec.type) {
    case 'choice': {
      if (typeof v === 'string' && spec.values.includes(v)) return null;
      const near = typeof v === 'string' ? didYouMean(v, spec.values, '"') : null;
      return `must be one of ${spec.values.join(', ')}, ${got}${near ? ` (did you mean ${near}?)` : ''}`;
    }
    case 'boolean':
      return typeof v === 'boolean' ? null : `must be true or false, ${got}`;
    case 'integer':
    case 'real': {
      const kind = spec.type === 'integer' ? 'an integer' : 'a number';
      const ok = typeof v === 'number' && Number.isFinite(v) && (spec.type === 'real' || Number.isInteger(v));
      if (!ok) return `must be ${kind} in [${spec.min}, ${spec.max}], ${got}`;
      return (v as number) < spec.min || (v as number) > spec.max ? `must be ${kind} in [${spec.min}, ${spec.max}], ${got}` : null;
    }
  }
}

/** The spec of a key: the schema's, or for `accountant` a choice among the declared accountants. */
function specOf(plugin: MechanismPlugin, key: string): OptionSpec | undefined {
  if (plugin.apiVersion !== 2) return undefined;
  const spec = plugin.optionSchema?.[key];
  if (spec) return spec;
  const accountants = plugin.accountants ?? [];
  if (key === 'accountant' && accountants.length > 0) return { type: 'choice', values: accountants as [string, ...string[]], default: accountants[0]!, noun: 'an accountant' };
  return undefined;
}

/** One problem of an entry's options: its key, and what is wrong (`has no option "x" …`, or
 *  `option x must be …`). */
export interface OptionProblem {
  key: string;
  unknown: boolean;
  text: string;
}

/** The problems of an entry's options: unknown keys (with a did-you-mean) and, for version 2, values
 *  their spec refuses. lshdp's own file-hash key is not the plugin's. */
export function pluginOptionProblems(plugin: MechanismPlugin, options: Record<string, unknown>): OptionProblem[] {
  const keys = pluginOptionKeys(plugin);
  const problems: OptionProblem[] = [];
  for (const [key, v] of Object.entries(options)) {
    if (key === MODULE_HASH_OPTION) continue;
    if (!keys.includes(key)) {
      const near = didYouMean(key, keys, '"');
      problems.push({ key, unknown: true, text: `has no option "${key}"${near ? ` (did you mean ${near}?)` : ''} (${keys.length ? `known: ${keys.join(', ')}` : 'it takes no options'})` });
      continue;
    }
    const spec = specOf(plugin, key);
    const bad = spec ? valueProblem(spec, v) : null;
    if (bad) problems.push({ key, unknown: false, text: `option ${key} ${bad}` });
  }
  return problems;
}

/** The entry's options as the plugin sees them: without lshdp's file hash, and for version 2 with
 *  every schema default (and the first accountant) filled in. */
export function optionsForPlugin(plugin: MechanismPlugin, options: Record<string, unknown>): Record<string, unknown> {
  const { [MODULE_HASH_OPTION]: _hash, ...rest } = options;
  if (plugin.apiVersion !== 2) return rest;
  const out: Record<string, unknown> = {};
  for (const key of pluginOptionKeys(plugin)) {
    const spec = specOf(plugin, key);
    if (spec) out[key] = spec.default;
  }
  return Object.assign(out, rest);
}

/** Checks an optionSchema a version-2 plugin declares: one line per problem. */
export function optionSchemaProblems(schema: unknown): string[] {
  if (schema === undefined) return [];
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return ['optionSchema must be an object of option specs'];
  const out: string[] = [];
  for (const [key, raw] of Object.entries(schema as Record<string, unknown>)) {
    const s = raw as Record<string, unknown> | null;
    const at = `optionSchema.${key}`;
    if (s === null || typeof s !== 'object') {
      out.push(`${at} must be an object { type, default, noun, ... }`);
      continue;
    }
    if (typeof s.noun !== 'string') out.push(`${at}.noun must be a string (how messages name the option)`);
    if (s.type === 'choice') {
      if (!(Array.isArray(s.values) && s.values.length > 0 && s.values.every((v) => typeof v === 'string'))) out.push(`${at}.values must be a non-empty array of strings`);
      else if (!(s.values as unknown[]).includes(s.default)) out.push(`${at}.default must be one of its values`);
    } else if (s.type === 'boolean') {
      if (typeof s.default !== 'boolean') out.push(`${at}.default must be true or false`);
    } else if (s.type === 'integer' || s.type === 'real') {
      const int = s.type === 'integer';
      const num = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && (!int || Number.isInteger(v));
      if (!num(s.min) || !num(s.max) || (s.min as number) > (s.max as number)) out.push(`${at}: min and max must be ${int ? 'integers' : 'finite numbers'} with min <= max`);
      else if (!num(s.default) || (s.default as number) < (s.min as number) || (s.default as number) > (s.max as number)) out.push(`${at}.default must lie in [min, max]`);
    } else out.push(`${at}.type must be choice, integer, real or boolean; got ${JSON.stringify(s.type)}`);
  }
  return out;
}
