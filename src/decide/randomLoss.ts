/**
 * u_rand of a results folder for the matched tables, through the one reader of it
 * (`readRandomLoss`, src/machinery/readFolder.ts): per (data set, n, k), or null for a folder whose
 * exact cells hold none (computed by an older lshdp: retained then prints "n/a (no random baseline
 * in this folder)"; running the config again adds it).
 */
import { readRandomLoss } from '../machinery/readFolder.js';
import { UserError } from '../util/errors.js';

export type RandomLoss = (dataset: string, n: number, k: number) => number | null;

export function randomLossOf(dir: string, read?: Parameters<typeof readRandomLoss>[1]): RandomLoss {
  try {
    const { get } = readRandomLoss(dir, read);
    return (dataset, n, k) => get(dataset, n, k) ?? null;
  } catch (e) {
    if (e instanceof UserError) return () => null;
    throw e;
  }
}
