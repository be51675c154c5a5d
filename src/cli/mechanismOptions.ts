/** The `--option key=value` flags of the commands that take a mechanism's options (encode, table budgets). */
import { parse as parseYaml } from '../vendor/yaml.js';
import { UserError } from '../util/errors.js';

/** `--option key=value`: mechanism options, values read as YAML scalars (4 → number, true → boolean); `accountantFlag`: the command has --accountant for that key. */
export function parseOptions(words: readonly string[] | undefined, accountantFlag = true): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const w of words ?? []) {
    const m = /^([A-Za-z_][A-Za-z0-9_-]*)=(.*)$/.exec(w);
    if (!m) throw new UserError(`--option: expected KEY=VALUE, got "${w}"`);
    if (accountantFlag && m[1] === 'accountant') throw new UserError('--option: use --accountant to choose the accountant');
    if (m[1]! in out) throw new UserError(`--option: ${m[1]} given twice`);
    let v: unknown;
    try {
      v = parseYaml(m[2]!);
    } catch {
      throw new UserError(`--option: ${m[1]}: cannot read the value "${m[2]}"`);
    }
    out[m[1]!] = v;
  }
  return out;
}
