import { parseDocument } from '../../vendor/yaml.js';
import { UserError } from '../../util/errors.js';

/**
 * `--set privacy.xi=[1,5]`: the value is YAML, the key a dotted path into the config; applied to
 * the document before validation, so an override is checked exactly like the file.
 */
export function applyOverride(root: Record<string, unknown>, text: string): void {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new UserError(`--set ${text}: expected KEY=VALUE, e.g. --set kappa=[20,50] or --set privacy.xi=[1,5]`);
  const key = text.slice(0, eq).trim();
  const path = key.split('.');
  if (path.some((p) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(p))) throw new UserError(`--set ${key}: the key must be a dotted config path such as privacy.xi`);
  const doc = parseDocument(text.slice(eq + 1), { schema: 'core', customTags: [], uniqueKeys: true, strict: true });
  if (doc.errors.length > 0) throw new UserError(`--set ${key}: not a YAML value: ${doc.errors[0].message.split('\n')[0]}`);
  const value = doc.toJS({ maxAliasCount: 50 }) as unknown;
  let at: Record<string, unknown> = root;
  for (const p of path.slice(0, -1)) {
    const next = at[p];
    if (next === undefined) at[p] = {};
    else if (next === null || typeof next !== 'object' || Array.isArray(next)) throw new UserError(`--set ${key}: ${p} is not a mapping in the config`);
    at = at[p] as Record<string, unknown>;
  }
  at[path[path.length - 1]] = value;
}
