import { UserError } from '../util/errors.js';

/** Rejects option keys a mechanism does not know (one line, names the mechanism and the key). */
export function checkOptionKeys(mechanism: string, options: Record<string, unknown>, known: readonly string[]): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      const list = known.length ? `known: ${known.join(', ')}` : 'it takes no options';
      throw new UserError(`mechanism ${mechanism}: unknown option "${key}" (${list})`);
    }
  }
}
