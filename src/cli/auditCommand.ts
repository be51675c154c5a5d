/**
 * What `lshdp audit` does once its flags are parsed (loaded on demand by audit.ts): real user pairs
 * near d from the config's data sets, the audit of every mechanism (src/audit/run.ts), and its
 * files (audit.json, audit.csv, the loss-CDF figure, audit.html).
 */
import { join } from 'node:path';
import { loadConfig } from '../experiment/config.js';
import type { ExperimentConfig } from '../experiment/config/schema.js';
import { getFamily, loadFamilyData } from '../lsh/families/index.js';
import { ExitStatus, UserError } from '../util/errors.js';
import { intArg } from './options.js';
import { deriveSeed, makeRng } from '../random/rng.js';
import { getMechanism } from '../mechanisms/registry.js';
import { builtInFacts } from '../mechanisms/catalog.js';
import { naiveAccountantWarning, parseAccountant } from '../privacy/accountants.js';
import { EXIT_LAW_MISMATCH, EXIT_VIOLATED, FAMILY_ALPHA, POWER_TARGET } from '../audit/defaults.js';
import { runAudit, type AuditEntry } from '../audit/run.js';
import { findRealPairs, type AuditPair } from '../audit/pairs.js';
import { generatesData } from '../data/formats/index.js';
import { stringifyAudit, auditJson, type AuditMeta } from '../audit/output.js';
import { verdictSummary, writeAuditFiles } from '../report/audit.js';

/** The flags of `lshdp audit` (strings as typed; auditCommand.ts checks them). */
export interface AuditFlags {
  out?: string;
  pairs: string;
  samples: string;
  band: string;
  json?: boolean;
  quiet?: boolean;
}

/** Real pairs are searched among the first this-many users of a data set (all pairs: quadratic). */
export const MAX_SCAN_USERS = 2000;

export async function auditCommand(file: string, opts: AuditFlags): Promise<void> {
  const samples = intArg('--samples', 1)(opts.samples);
  const pairsWanted = intArg('--pairs', 0)(opts.pairs);
  const band = Number(opts.band);
  if (!(band > 0 && band < 0.5)) throw new UserError(`--band: must be a number in (0, 0.5), got "${opts.band}"`);
  const cfg = loadConfig(file);
  const entries: AuditEntry[] = cfg.mechanisms.map((m) => {
    // LSHRR's accountants (the config checks every unit's own list: private MinHash's too)
    if (m.options.accountant !== undefined && builtInFacts(m.name)?.budgetRows === 'accountant') parseAccountant(m.options.accountant, `${file}: mechanism ${m.label}: accountant`);
    return { label: m.label, name: m.name, options: m.options };
  });
  if (entries.some((e) => e.options.accountant === 'naive')) process.stderr.write(naiveAccountantWarning(file) + '\n');
  const say = (line: string) => (opts.json ? process.stderr : process.stdout).write(line + '\n');
  // -q keeps the verdicts (the result) and drops the informational lines
  const info = opts.quiet ? () => undefined : say;
  const n = cfg.dims[0];
  const wantsReal = entries.some((e) => getMechanism(e.name).epsilonKind === 'bit') && pairsWanted > 0;
  const { realPairs, datasets } = wantsReal ? await searchRealPairs(cfg, n, band, pairsWanted, info) : { realPairs: [], datasets: [] };
  const skipped = entries.filter((e) => getMechanism(e.name).kind !== 'code').map((e) => e.label);
  if (skipped.length) info(`not audited (no released code): ${skipped.join(', ')}`);
  const outcome = runAudit({
    seed: cfg.seed,
    d: cfg.privacy.d,
    delta: cfg.privacy.delta,
    kappa: cfg.kappa,
    xi: cfg.privacy.xi,
    n,
    entries,
    samples,
    realPairs,
    metric: cfg.metric,
  });
  const meta: AuditMeta = {
    config: { name: cfg.name, file },
    seed: cfg.seed,
    samples,
    selection_samples: Math.max(1, Math.floor(samples / 2)),
    band,
    family_alpha: FAMILY_ALPHA,
    rows_tested: outcome.results.filter((r) => r.verdict !== 'not-applicable').length,
    joint_confidence: 1 - FAMILY_ALPHA,
    power_target: POWER_TARGET,
    datasets,
  };
  const out = opts.out ?? join('results', `${cfg.name}-audit`);
  const written = await writeAuditFiles(out, outcome, meta);
  const violated = outcome.results.filter((r) => r.verdict === 'violated');
  const mismatched = outcome.results.filter((r) => r.verdict === 'law-mismatch');
  if (opts.json) process.stdout.write(stringifyAudit(auditJson(outcome, meta)));
  else {
    // the rows the summary counts and the lines below do not list are in audit.csv, each with its reason
    say(`${outcome.results.length} rows: ${verdictSummary({ results: outcome.results })} (every row with its verdict and reason: ${join(out, 'audit.csv')})`);
    for (const r of violated) say(`  violated: ${r.mechanism} κ=${r.kappa} ξ=${r.xi}: ${r.reason}`);
    for (const r of mismatched) say(`  law-mismatch (${r.law_direction}): ${r.mechanism} κ=${r.kappa} ξ=${r.xi}: ${r.reason}`);
    info(`wrote ${written.map((w) => join(out, w)).join(', ')}`);
  }
  if (violated.length) throw new ExitStatus(`audit: ${violated.length} of ${meta.rows_tested} tested row(s) violated (exit ${EXIT_VIOLATED})`, EXIT_VIOLATED);
  // a sampler that departs from its declared law without breaking the claim: a bug, its own status
  if (mismatched.length)
    throw new ExitStatus(
      `audit: ${mismatched.length} of ${meta.rows_tested} tested row(s) depart from their declared law (law-mismatch, exit ${EXIT_LAW_MISMATCH}); none is violated`,
      EXIT_LAW_MISMATCH,
    );
}

/** User pairs of each data set within ±band of d (among the first MAX_SCAN_USERS users), said as found. */
async function searchRealPairs(cfg: ExperimentConfig, n: number, band: number, wanted: number, say: (line: string) => void): Promise<{ realPairs: AuditPair[]; datasets: AuditMeta['datasets'] }> {
  const realPairs: AuditPair[] = [];
  const datasets: AuditMeta['datasets'] = [];
  const family = getFamily(cfg.metric ?? 'angular');
  for (const spec of cfg.datasets) {
    const ds = await loadFamilyData(family, spec, [n]);
    const vectors = ds.vectors.get(n)!;
    const distance = family.name === 'angular' ? undefined : (i: number, j: number) => family.distance(vectors, i, j);
    const search = findRealPairs(vectors, cfg.privacy.d, band, wanted, MAX_SCAN_USERS, makeRng(deriveSeed(cfg.seed, 'audit-pairs', spec.name, n)), distance);
    const synthetic = generatesData(spec.format);
    datasets.push({ name: spec.name, synthetic, n, users_scanned: search.usersScanned, pairs_found: search.found, duplicate_pairs: search.duplicates, band, pairs_used: search.pairs.length });
    const what = `${spec.name}${synthetic ? ' (a synthetic data set)' : ''} (n = ${n})`;
    if (search.found === 0) {
      say(`${what}: no user pair within ±${band} of d = ${cfg.privacy.d} among the first ${search.usersScanned} users; the audit uses the synthetic pairs (widen the band with --band)`);
    } else {
      const dup = search.duplicates ? ` (${search.duplicates} more repeat a pair's vectors)` : '';
      say(`${what}: ${search.found} distinct user pair(s) within ±${band} of d = ${cfg.privacy.d} among the first ${search.usersScanned} users${dup}; auditing ${search.pairs.length}`);
    }
    realPairs.push(...search.pairs);
  }
  return { realPairs, datasets };
}
