/**
 * `synthetic`: generated data, no input file. A preset (src/data/presets.ts) and optional sizes
 * and seed fix the generated files, written once under the cache (src/data/synth.ts) in a real
 * format (movielens-csv ratings, or foursquare-www19 check-ins with their POIs), which that
 * format's reader then reads.
 */
import { basename, dirname } from 'node:path';
import { PRESETS } from '../presets.js';
import { NYC_BBOX } from '../spec.js';
import { posInt } from './shared.js';
import type { FormatUnit } from './unit.js';

declare module '../spec.js' {
  interface DatasetSpec {
    /** a preset of src/data/presets.ts, and what to change of it */
    preset?: string;
    users?: number;
    items?: number;
    ratings?: number;
    seed?: number;
  }
}

const known = () => Object.keys(PRESETS).join(', ');

export const synthetic: FormatUnit = {
  name: 'synthetic',
  description: `generated data, no file: preset (${known()}), optional users, items, ratings, seed`,
  keys: {
    preset: (z) => z.string().min(1).optional(),
    users: (z) => posInt(z).optional(),
    items: (z) => posInt(z).optional(),
    ratings: (z) => posInt(z).optional(),
    seed: (z) => z.number().int().min(0).optional(),
  },
  inputs: [],
  flags: [{ flag: '--preset <name>', key: 'preset', help: 'preset', values: Object.keys(PRESETS) }],
  check: (d, at) => {
    const problems: string[] = [];
    if (d.path !== undefined) problems.push(`${at}.path: a synthetic data set has no input file (use preset)`);
    if (d.preset === undefined) problems.push(`${at}.preset: missing (required for format synthetic; known: ${known()})`);
    else if (!(d.preset in PRESETS)) problems.push(`${at}.preset: unknown synthetic preset "${d.preset}" (known: ${known()})`);
    return problems;
  },
  fromFlags: (spec, o) => {
    if (o.preset) spec.preset = o.preset as string;
  },
  plan: (spec, ctx) => {
    if (!ctx.generator) throw new Error('planRead: a synthetic data set needs the generator in its plan context (src/data/load.ts hands it in)');
    const so = ctx.generator.resolveSynthOptions(spec);
    if (ctx.synthDir === null) throw new Error('planRead: a synthetic data set without a cache needs opts.synthDir (loadDataset and readInteractions give a temporary one)');
    const r = ctx.generator.ensureSynthetic(so, ctx.synthDir, ctx.progress);
    const main = r.files[0]!.path;
    const center = spec.center ?? (PRESETS[so.preset]!.kind === 'ratings' ? 'user' : 'none');
    const planned = { format: r.format, files: [main], center, reader: { format: r.format } as Record<string, unknown>, synthetic: basename(dirname(main)) };
    // generated check-ins come with their POI table and are read as foursquare-www19 (bbox, max_users apply)
    if (r.format === 'foursquare-www19') {
      planned.files.push(r.files[1]!.path);
      planned.reader = { format: r.format, bbox: spec.bbox ?? NYC_BBOX, max_users: spec.max_users ?? null };
    }
    return planned;
  },
  read: () => Promise.reject(new Error('synthetic: its plan names the format of the generated files, whose reader reads them')),
};
