import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';
import type { Interactions } from '../../src/data/interactions.js';

/** Hand-written fixtures in the real formats. */
export const FIX = join(ROOT, 'tests', 'fixtures', 'data');

/** Interactions as {user: {item: value}} for readable expectations. */
export function asObject(inter: Interactions): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (let u = 0; u < inter.userIds.length; u++) {
    const row: Record<string, number> = {};
    for (let p = inter.userPtr[u]!; p < inter.userPtr[u + 1]!; p++) row[inter.itemIds[inter.itemIdx[p]!]!] = inter.values[p]!;
    out[inter.userIds[u]!] = row;
  }
  return out;
}
