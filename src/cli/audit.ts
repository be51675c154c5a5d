import type { Command } from 'commander';
import { join } from 'node:path';
import { loadConfig } from '../experiment/config.js';
import { getFamily, loadFamilyData } from '../lsh/families/index.js';
import { UserError } from '../util/errors.js';
import { intArg } from './options.js';
import { deriveSeed, makeRng } from '../random/rng.js';
import { getMechanism } from '../mechanisms/registry.js';
import { naiveAccountantWarning, parseAccountant } from '../privacy/accountants.js';
import { DEFAULT_SAMPLES, FAMILY_ALPHA, SOUND_FACTOR, runAudit, type AuditEntry } from '../audit/run.js';
import { findRealPairs, type AuditPair } from '../audit/pairs.js';
import { stringifyAudit, auditJson, type AuditMeta } from '../audit/output.js';
import { writeAuditFiles } from '../report/audit.js';
import { verdictSummary } from '../report/audit.js';

export const DEFAULT_PAIRS = 3;
export const DEFAULT_BAND = 0.005;
/** Real pairs are searched among the first this-many users of a data set (all pairs: quadratic). */
export const MAX_SCAN_USERS = 2000;

export function registerAudit(program: Command): void {
  program
    .command('audit')
    .description('empirical privacy audit of every mechanism of a config (tail of the privacy loss, black-box ε lower bound, verdicts)')
    .argument('<config>', 'experiment config (YAML)')
    .option('-o, --out <dir>', 'output folder (default: results/<config name>-audit)')
    .option('--pairs <n>', 'real user pairs per data set within ±band of d', String(DEFAULT_PAIRS))
    .option('--samples <m>', 'samples per (mechanism, κ, ξ) and per real pair', String(DEFAULT_SAMPLES))
    .option('--band <b>', 'half-width of the distance band for real pairs', String(DEFAULT_BAND))
    .option('--json', 'print audit.json to stdout instead of the summary')
    .action(async (file: string, opts: { out?: string; pairs: string; samples: string; band: string; json?: boolean }) => {
      const samples = intArg('--samples', 1)(opts.samples);
      const pairsWanted = intArg('--pairs', 0)(opts.pairs);
      const band = Number(opts.band);
      if (!(band > 0 && band < 0.5)) throw new UserError(`--band: must be a number in (0, 0.5), got "${opts.band}"`);
      const cfg = loadConfig(file);
      const entries: AuditEntry[] = cfg.mechanisms.map((m) => {
        if (m.options.accountant !== undefined) parseAccountant(m.options.accountant, `${file}: mechanism ${m.label}: accountant`);
        return { label: m.label, name: m.name, options: m.options };
      });
      if (entries.some((e) => e.options.accountant === 'naive')) process.stderr.write(naiveAccountantWarning(file) + '\n');
      const say = (line: string) => (opts.json ? process.stderr : process.stdout).write(line + '\n');
      const n = cfg.dims[0];
      const realPairs: AuditPair[] = [];
      const datasets: AuditMeta['datasets'] = [];
      const wantsReal = entries.some((e) => e.name === 'lshrr') && pairsWanted > 0;
      if (wantsReal) {
        const family = getFamily(cfg.metric ?? 'angular');
        for (const spec of cfg.datasets) {
          const ds = await loadFamilyData(family, spec, [n]);
          const vectors = ds.vectors.get(n)!;
          const distance = family.name === 'angular' ? undefined : (i: number, j: number) => family.distance(vectors, i, j);
          const search = findRealPairs(vectors, cfg.privacy.d, band, pairsWanted, MAX_SCAN_USERS, makeRng(deriveSeed(cfg.seed, 'audit-pairs', spec.name, n)), distance);
          datasets.push({ name: spec.name, n, users_scanned: search.usersScanned, pairs_found: search.found, band, pairs_used: search.pairs.length });
          if (search.found === 0) {
            say(
              `${spec.name} (n = ${n}): no user pair within ±${band} of d = ${cfg.privacy.d} among the first ${search.usersScanned} users; the audit uses the synthetic pairs (widen the band with --band)`,
            );
          } else {
            say(`${spec.name} (n = ${n}): ${search.found} user pair(s) within ±${band} of d = ${cfg.privacy.d} among the first ${search.usersScanned} users; auditing ${search.pairs.length}`);
          }
          realPairs.push(...search.pairs);
        }
      }
      const skipped = entries.filter((e) => getMechanism(e.name).kind !== 'code').map((e) => e.label);
      if (skipped.length) say(`not audited (no released code): ${skipped.join(', ')}`);
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
        sound_factor: SOUND_FACTOR,
        datasets,
      };
      const out = opts.out ?? join('results', `${cfg.name}-audit`);
      const written = await writeAuditFiles(out, outcome, meta);
      if (opts.json) {
        process.stdout.write(stringifyAudit(auditJson(outcome, meta)));
        return;
      }
      const violated = outcome.results.filter((r) => r.verdict === 'violated');
      say(`${outcome.results.length} verdicts: ${verdictSummary({ results: outcome.results })}`);
      for (const r of violated) {
        say(`  violated: ${r.mechanism} κ=${r.kappa} ξ=${r.xi}: tail ${r.tail ?? 'n/a'} (δ = ${r.delta}), ε_lb ${r.epsilon_lb.toFixed(3)}`);
      }
      say(`wrote ${written.map((w) => join(out, w)).join(', ')}`);
    });
}
