import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../util/errors.js';
import { writeFileAtomicSync } from '../util/atomic.js';
import { makeFolderSync } from '../util/folders.js';
import { sha256Hex, stableStringify } from '../util/hash.js';
import type { Progress } from '../util/progress.js';
import { PRESETS, type SynthFile, type SynthKind, type SynthOptions } from './presets.js';
import { generateRatings } from './synthRatings.js';
import { generateCheckins } from './synthCheckins.js';
import { generateCheckinTable } from './checkinTable.js';

/**
 * Synthetic data in the real file formats, so the real readers ingest it.
 * Model (both kinds): users belong to one of G latent taste groups; an item's chance to be chosen
 * is a Zipf-like popularity times a group affinity; user activity is lognormal (heavy tail) with a
 * minimum, scaled to the exact total. Ratings add a group taste per item, so users of a group have
 * correlated centred ratings and their nearest neighbours are closer than random pairs.
 * Check-ins: groups are New York neighbourhoods (affinity falls with distance from the group's
 * centre), repeat visits follow a Pólya urn (revisit a past check-in's POI with prob. 0.5).
 */
export const SYNTH_VERSION = 1;

export { PRESETS, type SynthFile, type SynthKind, type SynthOptions };
export { kthSmallest } from './synthDraws.js';

export interface SynthResult {
  options: SynthOptions;
  kind: SynthKind;
  /** the reader that ingests the files */
  format: 'movielens-csv' | 'foursquare-www19' | 'foursquare-tsmc';
  files: SynthFile[];
}

export function resolveSynthOptions(o: { preset?: string; users?: number; items?: number; ratings?: number; seed?: number }): SynthOptions {
  const name = o.preset ?? 'small';
  const p = PRESETS[name];
  if (!p) throw new UserError(`unknown synthetic preset "${name}" (expected one of: ${Object.keys(PRESETS).join(', ')})`);
  const opts: SynthOptions = { preset: name, users: o.users ?? p.users, items: o.items ?? p.items, ratings: o.ratings ?? p.ratings, seed: o.seed ?? 1 };
  for (const k of ['users', 'items', 'ratings'] as const) {
    if (!Number.isInteger(opts[k]) || opts[k] < 1) throw new UserError(`synthetic ${k} must be a positive integer, got ${opts[k]}`);
  }
  if (!Number.isInteger(opts.seed)) throw new UserError(`synthetic seed must be an integer, got ${opts.seed}`);
  if (opts.ratings < opts.users * p.minPerUser) throw new UserError(`synthetic preset ${name}: ratings (${opts.ratings}) must be at least users × ${p.minPerUser} (${opts.users * p.minPerUser})`);
  if (p.kind === 'ratings' && opts.ratings > Math.floor(opts.items * 0.5) * opts.users) throw new UserError(`synthetic preset ${name}: ratings (${opts.ratings}) exceed users × items / 2`);
  if (opts.items < 10) throw new UserError(`synthetic items must be at least 10, got ${opts.items}`);
  return opts;
}

/** Folder name for the generated files: a hash of the resolved generator options. */
export function synthFolderName(opts: SynthOptions): string {
  return `${opts.preset}-${sha256Hex(stableStringify({ v: SYNTH_VERSION, ...opts })).slice(0, 16)}`;
}

/** Generate the preset's files into `outDir` (created). Deterministic given the options. */
export function generateSynthetic(opts: SynthOptions, outDir: string, progress?: Progress): SynthResult {
  const kind = PRESETS[opts.preset]!.kind;
  makeFolderSync(outDir, 'synthetic data folder');
  if (kind === 'checkin-table') return { options: opts, kind, format: 'foursquare-tsmc', files: generateCheckinTable(opts, outDir, progress) };
  const files = kind === 'ratings' ? generateRatings(opts, outDir, progress) : generateCheckins(opts, outDir, progress);
  const result: SynthResult = { options: opts, kind, format: kind === 'ratings' ? 'movielens-csv' : 'foursquare-www19', files };
  return result;
}

/**
 * The generated files for `opts` under `synthDir/<preset>-<hash>/`, generating them when the
 * folder has no `synth.json` marker (written last, so an interrupted generation is redone).
 */
export function ensureSynthetic(opts: SynthOptions, synthDir: string, progress?: Progress): SynthResult {
  const dir = join(synthDir, synthFolderName(opts));
  const marker = join(dir, 'synth.json');
  if (existsSync(marker)) {
    try {
      const r = JSON.parse(readFileSync(marker, 'utf8')) as SynthResult;
      // paths relative to where the folder is now (the marker may have been written from elsewhere)
      for (const f of r.files) f.path = join(dir, f.name);
      if (r.files.every((f) => existsSync(f.path) && statSync(f.path).size === f.bytes)) return r;
    } catch {
      // regenerate below
    }
  }
  const r = generateSynthetic(opts, dir, progress);
  writeFileAtomicSync(marker, JSON.stringify(r, null, 2) + '\n');
  return r;
}
