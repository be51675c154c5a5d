export { klBernoulli, solveAlpha, checkPrivacyParams, checkKappa } from './kl.js';
export { xiAlpha, deltaAlpha, xiGeneral, worstCaseXi } from './bounds.js';
export { keepProbability, flipProbability, realizedFlipProbability, realizedPerBitEpsilon } from './rr.js';
export { euclideanFromAngular, angularFromEuclidean } from './distance.js';
export { lshrrEpsilon, laplshEpsilon, vmfConcentration, purkayasthaConcentration } from './epsilon.js';
export {
  budgetRows,
  budgetRecord,
  type BudgetRecord,
  BUDGET_RECORD_COLUMNS,
  directionalBudgetRows,
  directionalBudgetRecord,
  type DirectionalBudgetRecord,
  DIRECTIONAL_BUDGET_COLUMNS,
} from './budget.js';
export {
  ACCOUNTANT_NAMES,
  DEFAULT_ACCOUNTANT,
  accountEpsilon,
  parseAccountant,
  naiveAccountantWarning,
  usesNaiveAccountant,
  type AccountantName,
  type Account,
  type AccountArgs,
} from './accountants.js';
export { exactEpsilon, exactTail, hockeyStickDelta, tailLimit } from './exactLoss.js';
export {
  JL_GAUSSIAN_GUARANTEES,
  type JlGaussianGuarantee,
  type JlGaussianAccount,
  jlGaussianTail,
  jlGaussianSigma,
  jlGaussianLdpEpsilon,
  jlGaussianAccount,
  gaussianSigmaForSensitivity,
  gaussianXiForSensitivity,
  spectralNorm,
} from './gaussian.js';
export {
  bucketKeepProbability,
  bucketOtherProbability,
  realizedOtherCount,
  realizedOtherProbability,
  realizedBucketEpsilon,
  bucketExactTail,
  bucketExactEpsilon,
} from './bucketRr.js';
export {
  MINHASH_BUCKET_ACCOUNTANTS,
  MINHASH_NOISY_ACCOUNTANTS,
  DEFAULT_BUCKETS,
  minhashBucketEpsilon,
  minhashNoisyEpsilon,
  bucketDisagreement,
  noisyDisagreement,
  type MinHashPrivacy,
} from './minhash.js';
