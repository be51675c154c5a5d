/**
 * A release of privatized LSH codes (`lshdp encode`), built from a plan whose flags the CLI has
 * checked: the data read as the experiments read it, hashed with the public seed, the mechanism's
 * noise from node:crypto (or, for tests only, a seed), and hashing.json with the privacy statement.
 */
import type { DatasetSpec } from '../data/spec.js';
import { planRead, readInteractions } from '../data/load.js';
import { formatUnits, readerKeys as formatReaderKeys } from '../data/formats/index.js';
import type { ReleaseSet } from '../lsh/releases.js';
import type { LshFamily } from '../lsh/families/types.js';
import type { Mechanism, OwnBudgetRow } from '../mechanisms/types.js';
import { realizedFlipProbability } from '../privacy/rr.js';
import { deriveSeed, makeRng } from '../random/rng.js';
import { UserError } from '../util/errors.js';
import { LSHDP_VERSION } from '../experiment/version.js';
import { encodeUsers, releaseHashSeed } from './encode.js';
import { topItems, vectorsForItems } from './items.js';
import { cryptoRng } from './noise.js';
import { HASHING_FORMAT, releaseFields, type HashingFile } from './releaseFiles.js';

/** Everything a release is made from (the CLI builds it from the flags, or from an earlier release). */
export interface ReleasePlan {
  /** the input file (none for synthetic data) */
  file: string | undefined;
  family: LshFamily;
  kappa: number;
  d: number;
  delta: number;
  mechanism: Mechanism;
  /** a plugin mechanism's module and its SHA-256 */
  module?: { path: string; sha256: string };
  options: Record<string, unknown>;
  xi: number | null;
  seed: number | string;
  dataset: string;
  /** the reader spec (before the family's view of it) */
  spec: DatasetSpec;
  /** the public item list (--items, or the earlier release's), else null: the n most popular items */
  listed: string[] | null;
  n: number;
  /** the earlier release (`--query`), whose hash functions, items and budget are reused */
  from: HashingFile | null;
  /** tests only: reproducible noise */
  noiseSeed: number | null;
  skipBadRows?: boolean;
  /** where the warning about --noise-seed goes (the CLI: stderr) */
  warn?: (line: string) => void;
}

export interface Release {
  hashing: HashingFile;
  codes: ReleaseSet;
  userIds: string[];
}

/** Reads the data, encodes every user and describes the release. */
export async function buildRelease(plan: ReleasePlan): Promise<Release> {
  const { family, kappa, d, delta, mechanism: mech, options, xi, dataset, from: release } = plan;
  const famSpec = family.dataSpec(plan.spec);
  const read = planRead(famSpec, { skipBadRows: plan.skipBadRows });
  if (release && read.center === 'global') throw new UserError('--query: the release centres by the global mean of its data, which a new user cannot reproduce; release with --center user or none');
  const inter = await readInteractions(famSpec, { skipBadRows: plan.skipBadRows });
  const items = plan.listed ?? topItems(inter, plan.n, dataset);
  const data = family.prepare(vectorsForItems(inter, items, read.center, dataset));
  const users = data.userIds.length;
  if (users === 0) throw new UserError(`${plan.file ?? dataset}: no user has a non-zero value on any of the ${items.length} items`);
  // the noise: cryptographic unless a test asks for reproducible noise
  if (plan.noiseSeed !== null) plan.warn?.('lshdp: warning: --noise-seed makes the noise reproducible by anyone who knows the seed; for tests only, never publish these codes');
  const rng = plan.noiseSeed !== null ? makeRng(deriveSeed(plan.noiseSeed, 'encode-noise')) : cryptoRng();
  const hashSeed = release ? release.hash_seed : releaseHashSeed(plan.seed, dataset, items.length, kappa);
  const { codes, eps } = encodeUsers({ data, family, kappa, hashSeed, mechanism: mech, options, xi, privacy: { d, delta }, rng });
  // the disagreement the mechanism's accountant took (bucket MinHash: d(1 − 1/b)), else the family's
  const p = mech.positionDisagreement ? mech.positionDisagreement(d, options) : family.disagreement(d);
  // a mechanism with a parameter of its own states it (jl-gaussian: σ; private MinHash: ε per position)
  const own = mech.budgetRow && mech.usesXi ? mech.budgetRow(xi ?? 0, kappa, mech.budgetDistance === 'family' ? { d, delta } : { d: family.disagreement(d), delta }, options) : null;
  const itemsSource = release ? release.items_source : plan.listed ? 'list' : 'data';
  const budgeted = mech.usesXi ? xi : null;
  const hashing: HashingFile = {
    format: HASHING_FORMAT,
    lshdp_version: LSHDP_VERSION,
    family: family.name,
    hash_rule: mech.releaseRule ? `${HASH_RULES[family.name]}; ${mech.releaseRule}` : HASH_RULES[family.name],
    seed: String(plan.seed),
    dataset,
    hash_seed: hashSeed,
    seed_derivation:
      "hash_seed = first 32 hex digits of SHA-256(JSON [seed, 'planes', dataset, n, kappa, 0]) (seed as a JSON number when it is an integer): the hashing of trial 0 of an lshdp experiment with run seed `seed` and this data set name",
    kappa,
    n: items.length,
    input: { format: plan.spec.format, center: read.center, reader: readerKeys(famSpec) },
    items,
    items_source: itemsSource,
    items_note: ITEMS_NOTES[itemsSource],
    mechanism: { name: mech.name, options, ...(plan.module ? { module: plan.module.path, module_sha256: plan.module.sha256 } : {}) },
    privacy: {
      metric: family.name,
      xi: budgeted,
      d,
      delta,
      disagreement: p,
      accountant: typeof options.accountant === 'string' ? options.accountant : null,
      // jl-gaussian's epsilon is its noise's precision, not an ε: it states σ below instead
      epsilon_bit: own && mech.epsilonKind !== 'bit' ? null : jsonNumber(eps.epsilon),
      epsilon_ldp: jsonNumber(eps.ldpEpsilon),
      fallback: mech.usesXi ? eps.fallback : null,
      // the flip probability the bits realize (1/(1+e^eps) rounded up to the 2^-32 grid with a margin)
      flip: mech.flipsBits && eps.epsilon !== null ? realizedFlipProbability(eps.epsilon) : null,
      ...(own ? { parameter: own.parameter, value: jsonNumber(own.value), ldp_delta: own.ldp_delta } : {}),
      statement: statement(family.name, mech, budgeted, d, delta, p, eps.ldpEpsilon, mech.usesXi ? eps.fallback : null, own),
    },
    noise: plan.noiseSeed !== null ? 'TEST ONLY: seeded pseudo-random noise (--noise-seed); do not publish' : 'node:crypto (operating system CSPRNG); not recorded',
    users,
    ...releaseFields(codes),
  };
  return { hashing, codes, userIds: data.userIds };
}

const HASH_RULES: Record<HashingFile['family'], string> = {
  angular: "bit j = [r_j · x >= 0], r_j = row j of lshdp's drawHyperplanes(makeRng(hash_seed), kappa, n) (N(0, I_n) normals from seedrandom xor4096)",
  jaccard: "bit j = coin_j(argmin over the user's items c of rank_j(c)); rank and coin from AES-128-CTR keyed by SHA-256(JSON ['lshdp-minhash-v1', hash_seed, j]), block c (lshdp's minHashTables)",
};

const ITEMS_NOTES: Record<HashingFile['items_source'], string> = {
  data: "The item list (the n most popular items) was chosen from the users' data; publishing it reveals aggregate information that the privacy guarantee does NOT cover. Pass a public list with --items to avoid this.",
  list: 'The item list was given from outside the data (--items) and is public; the guarantee covers the codes only.',
};

/** JSON has no Infinity: an unbounded epsilon (exact accountant: no noise needed) is written "Infinity". */
function jsonNumber(x: number | null): number | string | null {
  return x === null || Number.isFinite(x) ? x : String(x);
}

/**
 * The reader keys of a spec (no name, no paths): what --query needs to read a new file alike. The
 * keys of every format that reads files (src/data/formats), so that generated data records those
 * of the format it was written in (bbox, max_users).
 */
function readerKeys(spec: DatasetSpec): Record<string, unknown> {
  const fileFormats = formatUnits().filter((u) => u.inputs.length > 0);
  const keys = [...new Set(fileFormats.flatMap((u) => formatReaderKeys(u.name))), 'skip_bad_rows'] as (keyof DatasetSpec)[];
  const out: Record<string, unknown> = {};
  for (const k of keys) if (spec[k] !== undefined) out[k] = spec[k];
  return out;
}

/** The guarantee in words, for hashing.json. */
function statement(metric: string, mech: Mechanism, xi: number | null, d: number, delta: number, p: number, epsLdp: number | null, fallback: boolean | null, own: OwnBudgetRow | null = null): string {
  if (!mech.usesXi || xi === null) return `no privacy: mechanism ${mech.name} releases the LSH codes without noise (anyone holding hashing.json can test guesses of a user's data against them)`;
  if (epsLdp === Infinity)
    return `The accountant finds that xi = ${xi} at ${metric} distance d = ${d} holds with probability at least 1 - ${delta} without any noise, so the codes are the clean LSH codes; between users far apart there is NO bound. The item list is not covered (see items_note).`;
  const over = own?.over ?? 'the public hash functions';
  // the disagreement the accountant took, for releases of positions (a real projection has none)
  const unit = mech.positionDisagreement ? 'position' : (mech.release ?? 'bits') === 'bits' ? 'bit' : null;
  const disagreeing = unit ? ` (per-${unit} disagreement probability ${p})` : '';
  const ldp =
    epsLdp === null
      ? ''
      : own && own.ldp_delta !== null && own.ldp_delta > 0
        ? ` Between ANY two users the loss is at most ${epsLdp} with probability at least 1 - ${own.ldp_delta} over ${over} (an LDP equivalent with a failure probability, not pure LDP).`
        : ` Between ANY two users the loss is at most ${epsLdp} (LDP-equivalent budget).`;
  const fb = fallback ? ' (no tighter bound exists at this d, so xi is the pure LDP bound)' : '';
  return `With probability at least 1 - ${delta} over ${over}, the privacy loss between two users whose data are at ${metric} distance d = ${d}${disagreeing} is at most xi = ${xi}${fb}; it grows with the distance (extended DP, paper Sect. 5).${ldp} The item list is not covered (see items_note).`;
}
