/**
 * The column lists of utility.csv and nn_distances.csv, apart from their writer
 * (src/experiment/aggregate.ts) so that readers and tables load them without the writer's imports.
 */

/** utility.csv's columns, in file order (the report reads them by these names: src/report/read.ts). */
export const UTILITY_COLUMNS = [
  'dataset',
  'n',
  'kappa',
  'k',
  'mechanism',
  'base',
  'accountant',
  'xi',
  'epsilon_bit',
  'epsilon_lap',
  'epsilon_ldp',
  'fallback',
  'trials',
  'queries',
  'utility_loss_mean',
  'utility_loss_se',
  'recall_mean',
  'recall_se',
] as const;
export const UTILITY_HEADER = UTILITY_COLUMNS.join(',');
/** Appended to utility.csv when the config has a directional mechanism (vmf, purkayastha): its
 *  concentration c and the distance it is private for (euclidean: vmf, angle: purkayastha). Files
 *  without them read as before; other configs' files keep their bytes. */
export const CONCENTRATION_COLUMNS = ['concentration', 'concentration_metric'] as const;
export const NN_COLUMNS = ['dataset', 'n', 'user', 'nn1_distance'] as const;
export const NN_HEADER = NN_COLUMNS.join(',');
/** recommend.csv's columns, in file order (config `recommend`; docs/OUTPUTS.md); the
 *  CONCENTRATION_COLUMNS follow where the config has a directional mechanism, as in utility.csv. */
export const RECOMMEND_COLUMNS = [
  'dataset',
  'n',
  'kappa',
  'k',
  'mechanism',
  'base',
  'accountant',
  'xi',
  'top',
  'hr_mean',
  'hr_se',
  'ndcg_mean',
  'ndcg_se',
  'item_recall_mean',
  'item_recall_se',
  'trials',
  'queries',
] as const;
export const RECOMMEND_HEADER = RECOMMEND_COLUMNS.join(',');
