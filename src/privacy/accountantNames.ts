/** The LSHRR accountants' names, apart from their code: the CLI's help lists them without loading it. */
export const ACCOUNTANT_NAMES = ['paper', 'exact', 'theorem', 'naive'] as const;
export type AccountantName = (typeof ACCOUNTANT_NAMES)[number];
export const DEFAULT_ACCOUNTANT: AccountantName = 'paper';

/** The accountants of bucket MinHash (minhash-bucket; src/privacy/minhash.ts), the default first. */
export const MINHASH_BUCKET_ACCOUNTANTS = ['paper', 'exact', 'ldp'] as const;
export type MinHashBucketAccountant = (typeof MINHASH_BUCKET_ACCOUNTANTS)[number];
/** The accountants of noisy MinHash (minhash-noisy), the default first: no exact accountant of its Laplace loss. */
export const MINHASH_NOISY_ACCOUNTANTS = ['paper', 'ldp'] as const;
export type MinHashNoisyAccountant = (typeof MINHASH_NOISY_ACCOUNTANTS)[number];

/** The three guarantees of jl-gaussian's option `guarantee` (`expected` is the default): `expected`:
 *  δ over the hyperplanes and the noise (as the paper's LSHRR accountants); `every-w`: δ over the
 *  noise for every W and every pair at distance d; `ldp`: the same for any two unit vectors. */
export const JL_GAUSSIAN_GUARANTEES = ['expected', 'every-w', 'ldp'] as const;
export type JlGaussianGuarantee = (typeof JL_GAUSSIAN_GUARANTEES)[number];
