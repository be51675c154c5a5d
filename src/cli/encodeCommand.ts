/**
 * What `lshdp encode` does once its flags are parsed (loaded on demand by encode.ts): every flag is
 * checked, then the release is built (src/encode/release.ts) and written.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseOptions } from './mechanismOptions.js';
import { UserError } from '../util/errors.js';
import { didYouMean } from '../util/didYouMean.js';
import { intArg } from './options.js';
import { writeFileAtomicSync } from '../util/atomic.js';
import type { Center, DatasetSpec } from '../data/spec.js';
import { formatUnit } from '../data/formats/index.js';
import { getFamily } from '../lsh/families/index.js';
import type { LshFamily } from '../lsh/families/types.js';
import { getMechanism } from '../mechanisms/registry.js';
import type { Mechanism } from '../mechanisms/types.js';
import { loadPlugin, pluginMechanism } from '../mechanisms/plugin.js';
import { ENCODE_MECHANISMS, builtInFacts } from '../mechanisms/catalog.js';
import { cannotBeReleased } from '../mechanisms/releasable.js';
import { ACCOUNTANT_NAMES } from '../privacy/accountants.js';
import { codesCsv, readHashingFile, type HashingFile } from '../encode/releaseFiles.js';
import { describeRelease } from '../lsh/releases.js';
import { buildRelease, type ReleasePlan } from '../encode/release.js';
import { readerSpec, requireInputFlags, type ReaderFlags } from './readerFlags.js';
import { rememberFolderOption } from '../util/folders.js';

/** The flags of `lshdp encode` (strings as typed; encodeCommand.ts checks them). */
export interface EncodeFlags extends ReaderFlags {
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
    const mech = pluginMechanism(loaded, family.disagreement);
    if (cannotBeReleased(mech)) throw new UserError(`--mechanism: ${name} draws its hash functions from the secret noise, so released codes could not be compared with later ones`);
    return { mech, module: { path: name, sha256: loaded.sha256 } };
  }
  if (cannotBeReleased(builtInFacts(name)))
    throw new UserError(`--mechanism: ${name} draws its Bloom hash functions from the secret noise, so released codes could not be compared with later ones; use ${ENCODE_MECHANISMS.join(', ')}`);
  if (!ENCODE_MECHANISMS.includes(name)) throw new UserError(`--mechanism: unknown mechanism "${name}" (known: ${ENCODE_MECHANISMS.join(', ')}, or a plugin module path like ./my-mechanism.mjs)`);
  return { mech: getMechanism(name) };
}

/** Checks every flag, then builds and writes the release (nothing is read or written before the checks). */
export async function encodeCommand(file: string | undefined, o: EncodeFlags): Promise<void> {
  const log = (s: string) => {
    if (!o.quiet) process.stderr.write(`${s}\n`);
  };
  if (!o.out) throw new UserError('encode: --out DIR is required');
  const outs = [join(o.out, 'codes.csv'), join(o.out, 'hashing.json')] as const;
  if (existsSync(o.out) && !statSync(o.out).isDirectory()) throw new UserError(`--out: ${o.out}: is a file, expected a folder`);
  rememberFolderOption(o.out, '--out'); // a full disk names it
  const taken = outs.filter((f) => existsSync(f));
  if (taken.length > 0 && !o.force) throw new UserError(`--out: ${taken[0]} already exists (use --force to overwrite)`);
  const noiseSeed = o.noiseSeed === undefined ? null : intArg('--noise-seed', 0)(o.noiseSeed);
  const release = o.query !== undefined ? queriedRelease(o, o.query) : null;
  const plan = await releasePlan(file, o, release, noiseSeed);
  const { hashing, codes, userIds } = await buildRelease({ ...plan, warn: (line) => process.stderr.write(`${line}\n`) });
  writeFileAtomicSync(outs[0], codesCsv(userIds, codes));
  writeFileAtomicSync(outs[1], JSON.stringify(hashing, null, 2) + '\n');
  const { mechanism: mech, xi } = plan;
  log(
    `lshdp: encoded ${hashing.users} users (${describeRelease(codes)}, ${plan.family.name} family, mechanism ${mech.name}${xi !== null && mech.usesXi ? `, xi ${xi}` : ''}) into ${outs[0]} and ${outs[1]}`,
  );
  if (hashing.items_source === 'data') log('lshdp: note: the item list was chosen from the data; the privacy guarantee does not cover it (see hashing.json items_note)');
}

/** `--query DIR`: the earlier release, whose flags may not be given again. */
function queriedRelease(o: EncodeFlags, query: string): HashingFile {
  for (const key of RELEASE_FLAGS) {
    if (o[key] !== undefined) throw new UserError(`${flagName(key)}: not allowed with --query (the release's hashing.json fixes it)`);
  }
  const hashingPath = existsSync(query) && statSync(query).isDirectory() ? join(query, 'hashing.json') : query;
  const release = readHashingFile(hashingPath);
  if (o.format !== undefined && o.format !== release.input.format) throw new UserError(`--format: the release was made from format ${release.input.format}; the --query file must be in that format`);
  return release;
}

/** What to encode and how: from the flags, or from the earlier release. */
async function releasePlan(file: string | undefined, o: EncodeFlags, release: HashingFile | null, noiseSeed: number | null): Promise<ReleasePlan> {
  const format = release ? release.input.format : o.format;
  if (format === undefined) throw new UserError('encode: --format is required');
  const generated = formatUnit(format, '--format').inputs.length === 0;
  if (!generated && !file) throw new UserError(`encode: a FILE is required for format ${format}`);
  if (generated && release) throw new UserError(`--query: a release of ${format} data has no new users to read; give a file in a real format`);
  const family = getFamily(release ? release.family : (o.metric ?? 'angular'), '--metric');
  const kappa = release ? release.kappa : intArg('--kappa', 1)(o.kappa ?? '20');
  const d = release ? release.privacy.d : number('--d', o.d ?? '0.1', (x) => x > 0 && x < 1, 'a number in (0, 1)');
  const delta = release ? release.privacy.delta : number('--delta', o.delta ?? '0.01', (x) => x > 0 && x < 1, 'a number in (0, 1)');
  const { mech, module } = await resolveMechanism(release ? (release.mechanism.module ?? release.mechanism.name) : (o.mechanism ?? 'lshrr'), family);
  if (release?.mechanism.module_sha256 && module && module.sha256 !== release.mechanism.module_sha256) {
    throw new UserError(`--query: mechanism module ${module.path} has changed since the release (SHA-256 differs)`);
  }
  if (!family.vectorMechanisms && mech.noisesVector) throw new UserError(`--mechanism: ${mech.name} adds noise to vectors and cannot run with --metric ${family.name}`);
  if (mech.metric !== undefined && mech.metric !== family.name) throw new UserError(`--mechanism: ${mech.name} runs with --metric ${mech.metric} only, not ${family.name}`);
  const options: Record<string, unknown> = release ? { ...release.mechanism.options } : mechanismOptions(o, mech);
  const xi = release ? release.privacy.xi : budget(o, mech);
  const seedText = release ? release.seed : o.seed;
  if (seedText === undefined || seedText === '') throw new UserError('encode: --seed is required (it fixes the public hash functions)');
  // an integer seed is the number a config's `seed:` gives, so the hash functions are the run's
  const seed: number | string = /^\d{1,15}$/.test(seedText) ? Number(seedText) : seedText;
  const listed = release ? release.items : o.items !== undefined ? readItemList(o.items) : null;
  if (!release && listed && o.dims !== undefined && intArg('--dims', 1)(o.dims) !== listed.length) {
    throw new UserError(`--dims: ${o.dims} differs from the ${listed.length} items of --items ${o.items}`);
  }
  const n = listed ? listed.length : intArg('--dims', 1)(o.dims ?? '100');
  // the data set, read as the experiments read it
  const dataset = release ? release.dataset : (o.name ?? (file ? basename(file) : `synthetic-${o.preset ?? 'small'}`));
  const spec = release ? releasedReader(release, dataset, file, o) : readerSpec(dataset, format, file, o, 'encode');
  if (family.name === 'jaccard' && o.center !== undefined && o.center !== 'none') throw new UserError(`--center: --metric jaccard reads the item sets before centring; drop --center ${o.center}`);
  return { file, family, kappa, d, delta, mechanism: mech, module, options, xi, seed, dataset, spec, listed, n, from: release, noiseSeed, skipBadRows: o.skipBadRows };
}

/** The reader of an earlier release, for a new file in its format. */
function releasedReader(release: HashingFile, dataset: string, file: string | undefined, o: EncodeFlags): DatasetSpec {
  const format = release.input.format;
  const spec = { ...(release.input.reader as Partial<DatasetSpec>), name: dataset, format, path: file, center: release.input.center as Center } as DatasetSpec;
  requireInputFlags(format, spec, 'encode', o);
  return spec;
}

/** `name` if the mechanism's accountants have it, else a one-line error with a did-you-mean (parseAccountant's wording). */
function ownAccountant(name: string, accountants: readonly string[]): string {
  if (accountants.includes(name)) return name;
  const guess = didYouMean(name, accountants, '"');
  throw new UserError(`--accountant: unknown accountant ${JSON.stringify(name)}${guess ? ` (did you mean ${guess}?)` : ''}; known: ${accountants.join(', ')}`);
}

/** The mechanism's options from --option and --accountant, each one it knows. */
function mechanismOptions(o: EncodeFlags, mech: Mechanism): Record<string, unknown> {
  const options = parseOptions(o.option);
  const accountants = mech.accountants ?? [];
  if (o.accountant !== undefined && accountants.length === 0) throw new UserError(`--accountant: mechanism ${mech.name} has no accountants (lshrr has: ${ACCOUNTANT_NAMES.join(', ')})`);
  // checked against the mechanism's own accountants (private MinHash has ldp, lshrr theorem and naive)
  if (accountants.length > 0) options.accountant = ownAccountant(o.accountant ?? accountants[0]!, accountants);
  for (const key of Object.keys(options)) {
    if (key !== 'accountant' && !(mech.optionKeys ?? []).includes(key)) {
      throw new UserError(`--option: mechanism ${mech.name} has no option "${key}"${mech.optionKeys?.length ? ` (known: ${mech.optionKeys.join(', ')})` : ''}`);
    }
  }
  return options;
}

/** --xi: required by a mechanism with a budget, refused by one without. */
function budget(o: EncodeFlags, mech: Mechanism): number | null {
  if (mech.usesXi) {
    if (o.xi === undefined) throw new UserError(`--xi: mechanism ${mech.name} needs a privacy budget`);
    return number('--xi', o.xi, (x) => x >= 0, 'a number >= 0');
  }
  if (o.xi !== undefined) throw new UserError(`--xi: mechanism ${mech.name} takes no privacy budget`);
  return null;
}
