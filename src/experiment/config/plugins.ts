/**
 * Mechanism entries of a config: built-ins get their label and default accountant; plugin entries
 * (`module:`) are loaded synchronously, checked and registered, so every later step (and every
 * worker thread) sees them under their name.
 */
import { UserError } from '../../util/errors.js';
import { getMechanism, listMechanisms } from '../../mechanisms/registry.js';
import { loadPluginSync, registerPlugins, MODULE_HASH_OPTION } from '../../mechanisms/plugin.js';
import { getFamily } from '../../lsh/families/index.js';
import { pluginOptionKeys, pluginOptionProblems } from '../../mechanisms/pluginOptions.js';
import type { MechanismEntry, XiAt } from './schema.js';

/** The keys of a mechanism entry that no plugin option may take: `xi` lists the entry's own ξ values. */
export const RESERVED_ENTRY_KEYS: readonly string[] = ['name', 'module', 'label', 'xi'];

/** Plugin entries: each module loaded (sync), checked and registered; problems as config lines. */
export function pluginEntries(cfg: { mechanisms: unknown[]; metric?: 'angular' | 'jaccard' }, base: string): { entries: Map<number, MechanismEntry>; problems: string[] } {
  const entries = new Map<number, MechanismEntry>();
  const problems: string[] = [];
  const byName = new Map<string, string>();
  cfg.mechanisms.forEach((raw, i) => {
    if (raw === null || typeof raw !== 'object' || !('module' in raw)) return;
    const { module, label, xi, ...options } = raw as { module: string; label?: string; xi?: EntryXiInput } & Record<string, unknown>;
    if ('name' in options) {
      problems.push(`mechanisms[${i}]: give either name (a built-in mechanism) or module (a plugin), not both`);
      return;
    }
    try {
      const loaded = loadPluginSync(module, base);
      const { name } = loaded.plugin;
      // the keys every entry has are never a plugin's options (`xi`: the entry's own ξ values)
      const reserved = pluginOptionKeys(loaded.plugin).find((k) => RESERVED_ENTRY_KEYS.includes(k));
      if (reserved !== undefined)
        problems.push(`mechanisms[${i}].module: plugin ${name} (${module}) declares an option "${reserved}", a key of every entry (${RESERVED_ENTRY_KEYS.join(', ')}); rename the option`);
      // unknown keys with a did-you-mean, and (apiVersion 2) values against the plugin's optionSchema
      for (const p of pluginOptionProblems(loaded.plugin, options)) problems.push(`mechanisms[${i}].${p.key}: plugin ${name} (${module})${p.unknown ? ' ' : ': '}${p.text}`);
      if (listMechanisms().some((x) => x.name === name)) problems.push(`mechanisms[${i}].module: plugin ${module} is named "${name}", a built-in mechanism; rename the plugin`);
      else if (byName.has(name) && byName.get(name) !== loaded.sha256) problems.push(`mechanisms[${i}].module: two different modules are named "${name}"`);
      byName.set(name, loaded.sha256);
      if (xi !== undefined && !loaded.plugin.usesXi) problems.push(`mechanisms[${i}].xi: plugin ${name} has no privacy budget (usesXi false)`);
      entries.set(i, { name, label: label ?? name, options: { ...options, [MODULE_HASH_OPTION]: loaded.sha256 }, module: loaded.file, ...xiOf(xi) });
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      problems.push(`mechanisms[${i}].module: ${e.message}`);
    }
  });
  if (problems.length === 0) {
    const refs = [...entries.values()].map((m) => ({ name: m.name, file: m.module!, sha256: m.options[MODULE_HASH_OPTION] as string }));
    registerPlugins(refs, getFamily(cfg.metric ?? 'angular').disagreement);
  }
  return { entries, problems };
}

/** The parsed entry: label defaulted, accountant defaulted for mechanisms that have accountants. */
export function normalizeEntry(m: { name: string; label?: string; xi?: EntryXiInput } & Record<string, unknown>): MechanismEntry {
  const { name, label, xi, ...options } = m;
  if ((getMechanism(name).accountants ?? []).length > 0 && options.accountant === undefined) options.accountant = 'paper';
  return { name, label: label ?? name, options, ...xiOf(xi) };
}

/** An entry's `xi:` as the schema accepts it: a list, or values for every cell and per cell. */
type EntryXiInput = readonly number[] | { values?: readonly number[]; at: readonly XiAt[] };

const ascending = (xs: readonly number[]): number[] => [...xs].sort((a, b) => a - b);

/** An entry's own ξ values, ascending (absent: none): the list for every cell, and the per-cell items (each list ascending). */
export function xiOf(xi: EntryXiInput | undefined): { xi?: number[]; xiAt?: XiAt[] } {
  if (xi === undefined) return {};
  if (Array.isArray(xi)) return { xi: ascending(xi as readonly number[]) };
  const o = xi as { values?: readonly number[]; at: readonly XiAt[] };
  return { ...(o.values ? { xi: ascending(o.values) } : {}), xiAt: o.at.map((a) => ({ ...a, xi: ascending(a.xi) })) };
}

/** The inverse of xiOf: an entry's `xi:` as a config file writes it (a list, or the object form when it has per-cell values); undefined without. */
export function xiDocument(m: Pick<MechanismEntry, 'xi' | 'xiAt'>): number[] | { values?: number[]; at: XiAt[] } | undefined {
  if (!m.xiAt) return m.xi;
  return { ...(m.xi ? { values: m.xi } : {}), at: m.xiAt };
}
