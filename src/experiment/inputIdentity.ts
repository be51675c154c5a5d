/**
 * What identifies a data set's input in every hash of its cells (src/experiment/grid.ts
 * exactHash, resultHash). Apart from grid.ts so that the trial cells' threads, which read the grid
 * through the evaluations' list, do not load the data formats' readers.
 */
import type { DatasetSummary } from '../data/types.js';
import { withoutInputs } from '../data/formats/index.js';
import type { ExperimentConfig } from './config/schema.js';

/** What identifies a data set's input: its spec (less where its files are), its files' hashes and how leniently it was read. */
export function inputIdentity(cfg: ExperimentConfig, dataset: string, summary: DatasetSummary, skipBadRows: boolean) {
  const found = cfg.datasets.find((d) => d.name === dataset);
  // the files' bytes identify them: moving a file or running from another folder is no change
  const spec = found ? withoutInputs(found) : undefined;
  // the metric changes the data (jaccard: item sets before centring) and every distance
  const metric = cfg.metric && cfg.metric !== 'angular' ? { metric: cfg.metric } : {};
  // a recommendation split changes the vectors (training interactions only) and the queries
  const recommend = cfg.recommend ? { recommend: { split: cfg.recommend.split, holdout: cfg.recommend.holdout } } : {};
  return { spec, inputs: summary.inputs.map((i) => ({ sha256: i.sha256, bytes: i.bytes })), skipBadRows, rowsSkipped: summary.rowsSkipped, ...metric, ...recommend };
}
