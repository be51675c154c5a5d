/**
 * lshdp as a library: `import { … } from 'lshdp'`.
 *
 * What a researcher scripts with, in the order of the paper's pipeline:
 * - data: `loadDataset` (top-n user vectors; with `recommend`, the training vectors of a split),
 *   `loadFamilyData` (the data as an LSH family reads it), `splitInteractions`/`recommendData`
 *   (the recommendation split, docs/RECOMMEND.md);
 * - exact neighbours: `exactKnn` (angular), `jaccardKnn`;
 * - hashing: `drawHyperplanes`, `projectAll`, `packSigns`, the families `angularFamily`,
 *   `jaccardFamily`; Hamming k-NN: `hammingKnn`, `tieSeed`;
 * - mechanisms: `getMechanism(name).epsilon(…)` / `.encode(…)`, the built-in mechanism objects,
 *   `registerMechanism`, and plugins (`loadPlugin`, `pluginMechanism`, the `MechanismPlugin` type of
 *   either contract version, `PluginView`: what a version-2 plugin's encode reads);
 * - privacy: the accountants (`accountEpsilon`, `lshrrEpsilon`, `solveAlpha`, `exactEpsilon`, …);
 * - evaluation: `evaluateAnswers`, `utilityLoss`, `recallAtK`, `sampleQueries`;
 * - experiments: `runExperiment` (what `lshdp run` does), `loadConfig`;
 * - releasing codes: `encodeUsers` (what `lshdp encode` does, without files);
 * - reports: `readResultsFolder`, `utilityTable`, `budgetsTable`, `fig1Spec`, `fig2Spec`,
 *   `renderSvg`, `svgToPng`, `buildOutputs`.
 *
 * Errors a caller can fix are `UserError`s (one-line messages).
 */

// errors
export { UserError, isUserError } from './util/errors.js';

// seeds and random sources
export { deriveSeed, makeRng, type Rng } from './random/rng.js';

// data
export { loadDataset, readInteractions, type LoadOptions } from './data/load.js';
export type { DatasetSpec, Format, Center } from './data/spec.js';
export { FORMATS } from './data/formats/index.js';
export type { UserVectors, LoadedDataset, DatasetSummary, RecommendSplit, RecommendData, RecommendSummary, RecommendDimSummary, GroupExtras, ItemSets } from './data/types.js';
export { splitInteractions, recommendData, type SplitInteractions } from './data/split.js';

// exact k-NN and distances
export { exactKnn, angularDistance, angularDistanceFrom, type ExactKnn } from './knn/angular.js';
export { jaccardKnn, jaccardDistance } from './knn/jaccard.js';

// hashing and Hamming k-NN
export { drawHyperplanes, projectAll } from './lsh/hyperplanes.js';
export { packSigns, getBit, hammingDistance, emptyCodes, codeCount, wordsFor } from './lsh/codes.js';
export { hammingKnn, type HammingOptions } from './lsh/hammingKnn.js';
export { releaseKnn, releaseKind, releaseRows, packSymbols, unpackSymbols, bitsOf, type ReleaseKind, type ReleaseSet, type SymbolSet, type RealSet } from './lsh/releases.js';
export { tieSeed } from './lsh/tieKey.js';
export {
  angularFamily,
  jaccardFamily,
  getFamily,
  minHashTables,
  minHashCodes,
  itemSetVectors,
  FAMILIES,
  METRICS,
  type LshFamily,
  type MetricName,
  type QueryDistance,
} from './lsh/families/index.js';
export { loadFamilyData } from './lsh/families/load.js';

// mechanisms
export type { Mechanism, MechanismContext } from './mechanisms/types.js';
export type { CodeSet } from './lsh/codes.js';
export type { TrialHashing } from './lsh/hyperplanes.js';
export type { EpsilonInfo, PrivacyParams } from './privacy/types.js';
export { getMechanism, listMechanisms, registerMechanism, unregisterMechanism } from './mechanisms/registry.js';
export { lshMechanism } from './mechanisms/lsh/mechanism.js';
export { lshrrMechanism } from './mechanisms/lshrr/mechanism.js';
export { laplshMechanism } from './mechanisms/laplsh/mechanism.js';
export { rapporMechanism, rapporVectorMechanism } from './mechanisms/rappor/mechanism.js';
export { flipBits, flipBitsOnGrid, copyCodes } from './mechanisms/flips.js';
export {
  loadPlugin,
  pluginMechanism,
  validatePlugin,
  PLUGIN_API_VERSION,
  PLUGIN_API_VERSIONS,
  PLUGIN_INTERNAL_FIELDS,
  type MechanismPlugin,
  type MechanismPluginV1,
  type MechanismPluginV2,
  type PluginEpsilon,
  type PluginEpsilonInput,
  type PluginEncodeInput,
  type PluginHashing,
  type PluginLawInput,
  type PluginPrivacy,
  type PluginRelease,
  type PluginView,
  type LoadedPlugin,
} from './mechanisms/plugin.js';
export type { OptionSpec, OwnBudgetRow } from './mechanisms/types.js';
export type { ReleaseLaw, ReleaseNoise, ReleaseClaim } from './mechanisms/releaseLaw.js';

// privacy accounting
export {
  klBernoulli,
  solveAlpha,
  xiAlpha,
  deltaAlpha,
  xiGeneral,
  worstCaseXi,
  keepProbability,
  flipProbability,
  realizedFlipProbability,
  realizedPerBitEpsilon,
  euclideanFromAngular,
  angularFromEuclidean,
  lshrrEpsilon,
  laplshEpsilon,
  budgetRows,
  directionalBudgetRows,
  vmfConcentration,
  purkayasthaConcentration,
  exactEpsilon,
  hockeyStickDelta,
  // what the rivals rewritten as plugins account with (tests/fixtures/plugins/*-v2.mjs)
  jlGaussianSigma,
  jlGaussianAccount,
  spectralNorm,
  minhashBucketEpsilon,
  bucketDisagreement,
  realizedOtherProbability,
  MINHASH_BUCKET_ACCOUNTANTS,
} from './privacy/index.js';
export { accountEpsilon, ACCOUNTANT_NAMES, DEFAULT_ACCOUNTANT, type AccountantName, type Account, type AccountArgs } from './privacy/accountants.js';

// evaluation and experiments
export { evaluateAnswers, utilityLoss, recallAtK, type UtilityMeans } from './experiment/utility.js';
export { sampleQueries } from './experiment/queries.js';
export { loadConfig } from './experiment/config.js';
export type { ExperimentConfig } from './experiment/config/schema.js';
export { runExperiment, type RunOptions, type RunResult } from './pipeline/run.js';

// releasing codes
export { encodeUsers, type EncodeRequest, type EncodedUsers } from './encode/encode.js';
export { cryptoRng } from './encode/noise.js';

// reports
export {
  readResultsFolder,
  utilityTable,
  budgetsTable,
  fig1Spec,
  fig2Spec,
  renderSvg,
  svgToPng,
  buildOutputs,
  writeFigures,
  writeTables,
  type ResultsFolder,
  type TableFormat,
} from './report/index.js';
