/**
 * `lshdp encode`: release privatized LSH codes of real users, outside any experiment.
 *
 *   lshdp encode --format F FILE --dims 100 --kappa 20 --mechanism lshrr --xi 5 --seed S --out DIR
 *   lshdp encode --query DIR NEWUSERS --out DIR2      (new users, same items, seeds and budget)
 *
 * Writes DIR/codes.csv (user, code as hex) and DIR/hashing.json (public hash seed, family, n, item
 * list, privacy statement). `--seed` fixes only the public hash functions; the noise comes from
 * node:crypto and is never recorded (`--noise-seed` exists for tests, with a warning). Every flag
 * is checked before anything is read or written; a misuse is one line and exit 2.
 */
import type { Command } from 'commander';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { UserError } from '../util/errors.js';
import { intArg } from './options.js';
import { writeFileAtomicSync } from '../util/atomic.js';
import { FORMATS, type Center, type Combine, type DatasetSpec } from '../data/spec.js';
import { planRead, readInteractions } from '../data/load.js';
import { getFamily, METRICS } from '../lsh/families/index.js';
import type { LshFamily } from '../lsh/families/types.js';
import { getMechanism, listMechanisms } from '../mechanisms/registry.js';
import type { Mechanism } from '../mechanisms/types.js';
import { loadPlugin, pluginMechanism } from '../mechanisms/plugin.js';
import { ACCOUNTANT_NAMES, DEFAULT_ACCOUNTANT, parseAccountant } from '../privacy/accountants.js';
import { flipProbability } from '../privacy/rr.js';
import { deriveSeed, makeRng } from '../random/rng.js';
import { encodeUsers, releaseHashSeed } from '../encode/encode.js';
import { cryptoRng } from '../encode/noise.js';
import { topItems, vectorsForItems } from '../encode/items.js';
import { codesCsv, HASHING_FORMAT, readHashingFile, type HashingFile } from '../encode/release.js';
import { LSHDP_VERSION } from '../experiment/version.js';

interface EncodeFlags {
  format?: string;
  dims?: string;
  kappa?: string;
  metric?: string;
  mechanism?: string;
  option?: string[];
  xi?: string;
  accountant?: string;
  d?: string;
  delta?: string;
  seed?: string;
  name?: string;
  out?: string;
  items?: string;
  query?: string;
  noiseSeed?: string;
  force?: boolean;
  poi?: string;
  maxUsers?: string;
  delimiter?: string;
  user?: string;
  item?: string;
  value?: string;
  combine?: string;
  center?: string;
  preset?: string;
  skipBadRows?: boolean;
  quiet?: boolean;
}

/** Flags a release fixes: with --query they come from hashing.json and may not be given. */
const RELEASE_FLAGS = [
  'dims',
  'kappa',
  'metric',
  'mechanism',
  'option',
  'xi',
  'accountant',
  'd',
  'delta',
  'seed',
  'name',
  'items',
  'delimiter',
  'user',
  'item',
  'value',
  'combine',
  'center',
  'preset',
  'maxUsers',
] as const;

const flagName = (key: string) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

function number(flag: string, v: string, check: (x: number) => boolean, what: string): number {
  const x = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(v.trim()) ? Number(v) : Number.NaN;
  if (!Number.isFinite(x) || !check(x)) throw new UserError(`${flag}: expected ${what}, got "${v}"`);
  return x;
}

/** `--option key=value`: mechanism options, values read as YAML scalars (4 → number, true → boolean). */
function parseOptions(words: readonly string[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const w of words ?? []) {
    const m = /^([A-Za-z_][A-Za-z0-9_-]*)=(.*)$/.exec(w);
    if (!m) throw new UserError(`--option: expected KEY=VALUE, got "${w}"`);
    if (m[1] === 'accountant') throw new UserError('--option: use --accountant to choose the accountant');
    if (m[1]! in out) throw new UserError(`--option: ${m[1]} given twice`);
    let v: unknown;
    try {
      v = parseYaml(m[2]!);
    } catch {
      throw new UserError(`--option: ${m[1]}: cannot read the value "${m[2]}"`);
    }
    out[m[1]!] = v;
  }
  return out;
}

/** A public item list: one id per line, blank lines ignored. */
function readItemList(file: string): string[] {
  let text: string;
  try {
    if (statSync(file).isDirectory()) throw new UserError(`--items: ${file}: is a folder, expected a file with one item id per line`);
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if (e instanceof UserError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new UserError(`--items: ${file}: ${code === 'ENOENT' ? 'no such file' : `cannot read (${code})`}`);
  }
  const items: string[] = [];
  const seen = new Map<string, number>();
  text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .forEach((line, i) => {
      const id = line.trim();
      if (id === '') return;
      if (seen.has(id)) throw new UserError(`--items: ${file}:${i + 1}: item "${id}" already listed on line ${seen.get(id)}`);
      seen.set(id, i + 1);
      items.push(id);
    });
  if (items.length === 0) throw new UserError(`--items: ${file}: lists no item`);
  return items;
}

/** Built-in code mechanism or plugin module (a path: contains a slash or ends in .js/.mjs). */
async function resolveMechanism(name: string, family: LshFamily): Promise<{ mech: Mechanism; module?: { path: string; sha256: string } }> {
  if (name.includes('/') || /\.(m?js)$/.test(name)) {
    const loaded = await loadPlugin(name);
    return { mech: pluginMechanism(loaded, family.disagreement), module: { path: name, sha256: loaded.sha256 } };
  }
  const codeMechs = listMechanisms()
    .filter((m) => m.kind === 'code')
    .map((m) => m.name);
  if (!codeMechs.includes(name)) throw new UserError(`--mechanism: unknown mechanism "${name}" (known: ${codeMechs.join(', ')}, or a plugin module path like ./my-mechanism.mjs)`);
  if (name.startsWith('rappor'))
    throw new UserError(`--mechanism: ${name} draws its Bloom hash functions from the secret noise, so released codes could not be compared with later ones; use lsh, lshrr or laplsh`);
  return { mech: getMechanism(name) };
}

/** The guarantee in words, for hashing.json. */
function statement(metric: string, mech: Mechanism, xi: number | null, d: number, delta: number, p: number, epsLdp: number | null, fallback: boolean | null): string {
  if (!mech.usesXi || xi === null) return `no privacy: mechanism ${mech.name} releases the LSH codes without noise (anyone holding hashing.json can test guesses of a user's data against them)`;
  if (epsLdp === Infinity)
    return `The accountant finds that xi = ${xi} at ${metric} distance d = ${d} holds with probability at least 1 - ${delta} without any noise, so the codes are the clean LSH codes; between users far apart there is NO bound. The item list is not covered (see items_note).`;
  const ldp = epsLdp === null ? '' : ` Between ANY two users the loss is at most ${epsLdp} (LDP-equivalent budget).`;
  const fb = fallback ? ' (no tighter bound exists at this d, so xi is the pure LDP bound)' : '';
  return `With probability at least 1 - ${delta} over the public hash functions, the privacy loss between two users whose data are at ${metric} distance d = ${d} (per-bit disagreement probability ${p}) is at most xi = ${xi}${fb}; it grows with the distance (extended DP, paper Sect. 5).${ldp} The item list is not covered (see items_note).`;
}

export function registerEncode(program: Command): void {
  program
    .command('encode')
    .description('release privatized LSH codes of the users of a data file (codes.csv, hashing.json); --query encodes new users against an earlier release')
    .argument('[file]', 'ratings / check-ins file (not needed for --format synthetic)')
    .option('--format <format>', `one of: ${FORMATS.join(', ')}`)
    .option('--dims <n>', 'vector length n: the n most popular items (default 100; with --items: the list length)')
    .option('--kappa <k>', 'hash length in bits (default 20)')
    .option('--metric <m>', `LSH family: ${METRICS.join(' or ')} (default angular)`)
    .option('--mechanism <m>', 'lsh, lshrr, laplsh, or a plugin module path such as ./my-mechanism.mjs (default lshrr)')
    .option('--option <key=value...>', 'mechanism options (e.g. --option block=4 for a plugin)')
    .option('--xi <xi>', 'total privacy budget at distance d (mechanisms with a budget)')
    .option('--accountant <a>', `lshrr: ${ACCOUNTANT_NAMES.join(', ')} (default ${DEFAULT_ACCOUNTANT})`)
    .option('--d <d>', 'the distance the budget is stated at, in the metric (default 0.1)')
    .option('--delta <delta>', 'failure probability of the guarantee (default 0.01)')
    .option('--seed <s>', 'public seed of the hash functions (required; see hashing.json seed_derivation)')
    .option('--name <dataset>', 'data set name in the seed derivation (default: the file name)')
    .option('-o, --out <dir>', 'output folder for codes.csv and hashing.json (required)')
    .option('--items <file>', 'public item list, one id per line (instead of the most popular items of the data)')
    .option('--query <release>', 'encode the users of FILE against an earlier release (its folder or hashing.json)')
    .option('--noise-seed <n>', 'TESTS ONLY: reproducible noise (prints a warning; never publish such codes)')
    .option('-f, --force', 'overwrite codes.csv / hashing.json in --out')
    .option('--poi <file>', 'foursquare-www19: the raw POI file')
    .option('--max-users <n>', 'foursquare-www19: keep the users with the most check-ins in the box')
    .option('--delimiter <d>', 'interactions: field delimiter (default ",", "\\t" for tab)')
    .option('--user <col>', 'interactions: user id column')
    .option('--item <col>', 'interactions: item id column')
    .option('--value <col>', 'interactions: value column')
    .option('--combine <how>', 'interactions: last, sum or count')
    .option('--center <how>', 'user, global or none (default by format; jaccard reads values before centring)')
    .option('--preset <name>', 'synthetic: preset')
    .option('--skip-bad-rows', 'skip malformed rows instead of failing')
    .option('-q, --quiet', 'no informational lines')
    .action(async (file: string | undefined, o: EncodeFlags) => {
      await encodeCommand(file, o);
    });
}

async function encodeCommand(file: string | undefined, o: EncodeFlags): Promise<void> {
  const log = (s: string) => {
    if (!o.quiet) process.stderr.write(`${s}\n`);
  };
  if (!o.out) throw new UserError('encode: --out DIR is required');
  const outs = [join(o.out, 'codes.csv'), join(o.out, 'hashing.json')];
  if (existsSync(o.out) && !statSync(o.out).isDirectory()) throw new UserError(`--out: ${o.out}: is a file, expected a folder`);
  const taken = outs.filter((f) => existsSync(f));
  if (taken.length > 0 && !o.force) throw new UserError(`--out: ${taken[0]} already exists (use --force to overwrite)`);
  const noiseSeed = o.noiseSeed === undefined ? null : intArg('--noise-seed', 0)(o.noiseSeed);

  let release: HashingFile | null = null;
  if (o.query !== undefined) {
    for (const key of RELEASE_FLAGS) {
      if (o[key] !== undefined) throw new UserError(`${flagName(key)}: not allowed with --query (the release's hashing.json fixes it)`);
    }
    const hashingPath = existsSync(o.query) && statSync(o.query).isDirectory() ? join(o.query, 'hashing.json') : o.query;
    release = readHashingFile(hashingPath);
    if (o.format !== undefined && o.format !== release.input.format) throw new UserError(`--format: the release was made from format ${release.input.format}; the --query file must be in that format`);
  }

  // what to encode and how: from the flags, or from the release
  const format = release ? release.input.format : o.format;
  if (format === undefined) throw new UserError('encode: --format is required');
  if (!(FORMATS as readonly string[]).includes(format)) throw new UserError(`--format: unknown format "${format}" (expected one of: ${FORMATS.join(', ')})`);
  if (format !== 'synthetic' && !file) throw new UserError(`encode: a FILE is required for format ${format}`);
  if (format === 'synthetic' && release) throw new UserError('--query: a release of synthetic data has no new users to read; give a file in a real format');

  const family = getFamily(release ? release.family : (o.metric ?? 'angular'), '--metric');
  const kappa = release ? release.kappa : intArg('--kappa', 1)(o.kappa ?? '20');
  const d = release ? release.privacy.d : number('--d', o.d ?? '0.1', (x) => x > 0 && x < 1, 'a number in (0, 1)');
  const delta = release ? release.privacy.delta : number('--delta', o.delta ?? '0.01', (x) => x > 0 && x < 1, 'a number in (0, 1)');
  const mechName = release ? (release.mechanism.module ?? release.mechanism.name) : (o.mechanism ?? 'lshrr');
  const { mech, module } = await resolveMechanism(mechName, family);
  if (release?.mechanism.module_sha256 && module && module.sha256 !== release.mechanism.module_sha256) {
    throw new UserError(`--query: mechanism module ${module.path} has changed since the release (SHA-256 differs)`);
  }
  if (!family.vectorMechanisms && mech.name === 'laplsh') throw new UserError(`--mechanism: laplsh adds noise to vectors and cannot run with --metric ${family.name}`);
  const options: Record<string, unknown> = release ? { ...release.mechanism.options } : parseOptions(o.option);
  let xi: number | null = null;
  if (release) xi = release.privacy.xi;
  else if (mech.usesXi) {
    if (o.xi === undefined) throw new UserError(`--xi: mechanism ${mech.name} needs a privacy budget`);
    xi = number('--xi', o.xi, (x) => x >= 0, 'a number >= 0');
  } else if (o.xi !== undefined) throw new UserError(`--xi: mechanism ${mech.name} takes no privacy budget`);
  if (!release) {
    const accountants = mech.accountants ?? [];
    if (o.accountant !== undefined && accountants.length === 0) throw new UserError(`--accountant: mechanism ${mech.name} has no accountants (lshrr has: ${ACCOUNTANT_NAMES.join(', ')})`);
    if (accountants.length > 0) options.accountant = parseAccountant(o.accountant ?? accountants[0], '--accountant');
    for (const key of Object.keys(options)) {
      if (key !== 'accountant' && !(mech.optionKeys ?? []).includes(key)) {
        throw new UserError(`--option: mechanism ${mech.name} has no option "${key}"${mech.optionKeys?.length ? ` (known: ${mech.optionKeys.join(', ')})` : ''}`);
      }
    }
  }
  const seedText = release ? release.seed : o.seed;
  if (seedText === undefined || seedText === '') throw new UserError('encode: --seed is required (it fixes the public hash functions)');
  // an integer seed is the number a config's `seed:` gives, so the hash functions are the run's
  const seed: number | string = /^\d{1,15}$/.test(seedText) ? Number(seedText) : seedText;
  const listed = release ? release.items : o.items !== undefined ? readItemList(o.items) : null;
  if (!release && listed && o.dims !== undefined && intArg('--dims', 1)(o.dims) !== listed.length) {
    throw new UserError(`--dims: ${o.dims} differs from the ${listed.length} items of --items ${o.items}`);
  }
  const nAsked = listed ? listed.length : intArg('--dims', 1)(o.dims ?? '100');

  // the data set, read as the experiments read it
  const dataset = release ? release.dataset : (o.name ?? (file ? basename(file) : `synthetic-${o.preset ?? 'small'}`));
  const spec: DatasetSpec = release
    ? ({ ...(release.input.reader as Partial<DatasetSpec>), name: dataset, format: format as DatasetSpec['format'], path: file, center: release.input.center as Center } as DatasetSpec)
    : readerSpec(dataset, format as DatasetSpec['format'], file, o);
  if (o.poi) spec.poi_path = o.poi;
  if (format === 'foursquare-www19' && !o.poi) throw new UserError('encode: format foursquare-www19 needs --poi FILE (the raw POI file)');
  if (family.name === 'jaccard' && o.center !== undefined && o.center !== 'none') throw new UserError(`--center: --metric jaccard reads the item sets before centring; drop --center ${o.center}`);
  const famSpec = family.dataSpec(spec);
  const plan = planRead(famSpec, { skipBadRows: o.skipBadRows });
  if (release && plan.center === 'global') throw new UserError('--query: the release centres by the global mean of its data, which a new user cannot reproduce; release with --center user or none');
  const inter = await readInteractions(famSpec, { skipBadRows: o.skipBadRows });
  const items = listed ?? topItems(inter, nAsked, dataset);
  const data = family.prepare(vectorsForItems(inter, items, plan.center, dataset));
  const users = data.userIds.length;
  if (users === 0) throw new UserError(`${file ?? dataset}: no user has a non-zero value on any of the ${items.length} items`);

  // the noise: cryptographic unless a test asks for reproducible noise
  if (noiseSeed !== null) process.stderr.write('lshdp: warning: --noise-seed makes the noise reproducible by anyone who knows the seed; for tests only, never publish these codes\n');
  const rng = noiseSeed !== null ? makeRng(deriveSeed(noiseSeed, 'encode-noise')) : cryptoRng();
  const hashSeed = release ? release.hash_seed : releaseHashSeed(seed, dataset, items.length, kappa);
  const { codes, eps } = encodeUsers({ data, family, kappa, hashSeed, mechanism: mech, options, xi, privacy: { d, delta }, rng });

  const p = family.disagreement(d);
  const hashing: HashingFile = {
    format: HASHING_FORMAT,
    lshdp_version: LSHDP_VERSION,
    family: family.name,
    hash_rule:
      family.name === 'angular'
        ? "bit j = [r_j · x >= 0], r_j = row j of lshdp's drawHyperplanes(makeRng(hash_seed), kappa, n) (N(0, I_n) normals from seedrandom xor4096)"
        : "bit j = coin_j(argmin over the user's items c of rank_j(c)); rank and coin from AES-128-CTR keyed by SHA-256(JSON ['lshdp-minhash-v1', hash_seed, j]), block c (lshdp's minHashTables)",
    seed: String(seed),
    dataset,
    hash_seed: hashSeed,
    seed_derivation:
      "hash_seed = first 32 hex digits of SHA-256(JSON [seed, 'planes', dataset, n, kappa, 0]) (seed as a JSON number when it is an integer): the hashing of trial 0 of an lshdp experiment with run seed `seed` and this data set name",
    kappa,
    n: items.length,
    input: { format, center: plan.center, reader: readerKeys(famSpec) },
    items,
    items_source: listed && !release ? 'list' : release ? release.items_source : 'data',
    items_note:
      (release ? release.items_source : listed ? 'list' : 'data') === 'data'
        ? "The item list (the n most popular items) was chosen from the users' data; publishing it reveals aggregate information that the privacy guarantee does NOT cover. Pass a public list with --items to avoid this."
        : 'The item list was given from outside the data (--items) and is public; the guarantee covers the codes only.',
    mechanism: { name: mech.name, options, ...(module ? { module: module.path, module_sha256: module.sha256 } : {}) },
    privacy: {
      metric: family.name,
      xi: mech.usesXi ? xi : null,
      d,
      delta,
      disagreement: p,
      accountant: typeof options.accountant === 'string' ? options.accountant : null,
      epsilon_bit: jsonNumber(eps.epsilon),
      epsilon_ldp: jsonNumber(eps.ldpEpsilon),
      fallback: mech.usesXi ? eps.fallback : null,
      flip: mech.name === 'lshrr' && eps.epsilon !== null ? flipProbability(eps.epsilon) : null,
      statement: statement(family.name, mech, mech.usesXi ? xi : null, d, delta, p, eps.ldpEpsilon, mech.usesXi ? eps.fallback : null),
    },
    noise: noiseSeed !== null ? 'TEST ONLY: seeded pseudo-random noise (--noise-seed); do not publish' : 'node:crypto (operating system CSPRNG); not recorded',
    users,
    code_bits: codes.bits,
    code_encoding: 'codes.csv `code`: ceil(code_bits/4) hex digits of the number sum_j bit_j * 2^j (bit 0 is the lowest bit of the last digit)',
  };
  writeFileAtomicSync(outs[0]!, codesCsv(data.userIds, codes));
  writeFileAtomicSync(outs[1]!, JSON.stringify(hashing, null, 2) + '\n');
  log(`lshdp: encoded ${users} users (${codes.bits}-bit codes, ${family.name} family, mechanism ${mech.name}${xi !== null && mech.usesXi ? `, xi ${xi}` : ''}) into ${outs[0]} and ${outs[1]}`);
  if (hashing.items_source === 'data') log('lshdp: note: the item list was chosen from the data; the privacy guarantee does not cover it (see hashing.json items_note)');
}

/** JSON has no Infinity: an unbounded epsilon (exact accountant: no noise needed) is written "Infinity". */
function jsonNumber(x: number | null): number | string | null {
  return x === null || Number.isFinite(x) ? x : String(x);
}

/** The data set spec from the reader flags (as `lshdp data inspect` builds it). */
function readerSpec(name: string, format: DatasetSpec['format'], file: string | undefined, o: EncodeFlags): DatasetSpec {
  const spec: DatasetSpec = { name, format, path: file };
  if (o.maxUsers !== undefined) spec.max_users = intArg('--max-users', 1)(o.maxUsers);
  if (o.delimiter !== undefined) spec.delimiter = o.delimiter === '\\t' || o.delimiter === 'tab' ? '\t' : o.delimiter;
  if (o.user) spec.user = o.user;
  if (o.item) spec.item = o.item;
  if (o.value) spec.value = o.value;
  if (o.combine) spec.combine = o.combine as Combine;
  if (o.center) {
    if (!['user', 'global', 'none'].includes(o.center)) throw new UserError(`--center: unknown value "${o.center}" (expected one of: user, global, none)`);
    spec.center = o.center as Center;
  }
  if (o.preset) spec.preset = o.preset;
  return spec;
}

/** The reader keys of a spec (no name, no paths): what --query needs to read a new file alike. */
function readerKeys(spec: DatasetSpec): Record<string, unknown> {
  const keys = ['delimiter', 'user', 'item', 'value', 'combine', 'bbox', 'max_users', 'skip_bad_rows'] as const;
  const out: Record<string, unknown> = {};
  for (const k of keys) if (spec[k] !== undefined) out[k] = spec[k];
  return out;
}
