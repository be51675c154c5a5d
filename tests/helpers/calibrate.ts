/** A small real grid for lshdp calibrate's tests (synthetic data, run in this thread), and calibrate run quietly. */
import { calibrateExperiment } from '../../src/pipeline/calibrate.js';

/** lshrr and laplsh cross reid@1 0.01 inside [5, 20]; the grid leaves both brackets coarse */
export const CALIBRATE_GRID = `name: cal
seed: 5
datasets:
  - { name: a, format: synthetic, preset: small }
dims: [30]
queries: 0
k: [10]
kappa: [8]
trials: 10
privacy: { d: 0.1, delta: 0.01, xi: [0, 1, 2, 5, 10, 20] }
mechanisms: [exact, lsh, lshrr, laplsh]
attack: { known: [0.5], targets: 500 }
`;

/** calibrate without a report, a cache, worker threads or log lines */
export const calibrateQuiet = (config: string, out: string, reid1: number) =>
  calibrateExperiment({ config, out, report: false, quiet: true, cacheDir: null, workerUrl: null, log: () => undefined, targets: { reid1 } });
