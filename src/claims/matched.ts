/**
 * lshdp's own claims at matched attack success (issue 51, stage 4; rules in docs/RESULTS.md): the
 * twins of the equal-ξ comparisons (lshrr-beats-laplsh, -directional, -jl-gaussian,
 * -minhash-bucket). Equal ξ is not equal protection (the project's own attacks re-identify more
 * under some mechanisms than others at the same ξ), so each entry is read at its ξ*, where its
 * attack success meets a target of the config's decide: block, and the claim compares the utility
 * loss there, u*. One cell per (n, κ, target) and pair of entries where both cross the target
 * inside their ξ grids (an `all` u* is only a bound, a `none` has none); the paired one-sided test
 * over the bootstrap resamples `lshdp choose` draws for that cell; Holm over the cells, as every
 * claim. These claims alone read the entries' own ξ lists (calibrated values included).
 */
import type { DecideSettings } from '../experiment/config/decide.js';
import { MATCHED_CAVEAT } from '../decide/choose.js';
import { BOOTSTRAP_B } from '../decide/resample.js';
import { ATTACK_FACTS } from '../evaluations/attack/facts.js';
import { INFER_FACTS } from '../evaluations/infer/facts.js';
import { isGaussianExpected, isLaplsh, isLshrr, isLshrrPaper, isPurkayastha, isVmf, optionOf, playingRole } from './grid.js';
import { decide, notTested, type ClaimDefinition, type DatasetContext, type Outcome } from './family.js';
import type { CellTest } from './rule.js';
import { matchedAt, matchedEntries, pairedBootstrapCell, type MatchedEntryAt, type MatchedOn } from './matchedCells.js';
import type { ClaimId } from './types.js';
import { DEFAULT_ACCOUNTANT } from '../privacy/accountantNames.js';

type Pick1 = (e: Pick<MatchedEntryAt, 'base' | 'accountant'>) => boolean;

/** A twin: who is compared with whom, where, and how it is worded. */
interface Twin {
  /** the equal-ξ claim it is the twin of */
  of: string;
  /** the LSHRR side */
  a: Pick1;
  aWords: string;
  /** the rivals: one role each, all needed in a cell (the directional pair needs both) */
  rivals: { pick: (ctx: DatasetContext, e: MatchedEntryAt) => boolean; words: string; needs: string }[];
  /** an a entry and a rival entry may form a cell (bucket MinHash: the same accountant) */
  pairs?: (a: MatchedEntryAt, b: MatchedEntryAt) => boolean;
  /** the n a cell may have (lshrr-beats-laplsh: n ≥ 100, as its equal-ξ twin) */
  n?: { ok: (n: number) => boolean; words: string };
  /** always name the entries in a cell (bucket MinHash: b differs between them) */
  named?: boolean;
  angular: boolean;
}

const isBucketMinhash = playingRole('bucket-minhash');
const accountantOf = (e: Pick<MatchedEntryAt, 'accountant'>) => e.accountant ?? DEFAULT_ACCOUNTANT;

/** The twins, in report order (each equal-ξ claim's id names it; mechanisms are picked by role, never by name). */
const TWINS: readonly Twin[] = [
  {
    of: 'lshrr-beats-laplsh',
    a: isLshrrPaper,
    aWords: 'LSHRR (paper accountant)',
    rivals: [{ pick: (_, e) => isLaplsh(e), words: 'LapLSH', needs: 'a laplsh entry' }],
    n: { ok: (n) => n >= 100, words: 'n ≥ 100' },
    angular: true,
  },
  {
    of: 'lshrr-beats-directional',
    a: isLshrr,
    aWords: 'LSHRR (each accountant in the grid)',
    rivals: [
      { pick: (_, e) => isVmf(e), words: 'von Mises–Fisher', needs: 'a vmf entry' },
      { pick: (_, e) => isPurkayastha(e), words: 'Purkayastha', needs: 'a purkayastha entry' },
    ],
    angular: true,
  },
  {
    of: 'lshrr-beats-jl-gaussian',
    a: isLshrr,
    aWords: 'LSHRR (each accountant in the grid)',
    rivals: [{ pick: (_, e) => isGaussianExpected(e), words: 'JL + Gaussian noise at its default guarantee', needs: 'a jl-gaussian entry at its default guarantee' }],
    angular: true,
  },
  {
    of: 'lshrr-beats-minhash-bucket',
    a: isLshrr,
    aWords: 'LSHRR on 1-bit MinHash',
    rivals: [
      {
        pick: (ctx, e) => isBucketMinhash(e) && Number(optionOf(ctx.config, { base: e.base, mechanism: e.label }, 'buckets')) > 2,
        words: 'bucket MinHash with b > 2 buckets and the same accountant',
        needs: 'a minhash-bucket entry with more than 2 buckets',
      },
    ],
    pairs: (a, b) => accountantOf(a) === accountantOf(b),
    named: true,
    angular: false,
  },
];

const ATTACK_WORDS: Record<MatchedOn, { success: string; share: string; target: string; block: keyof DecideSettings; evaluation: string }> = {
  reid: { success: 'reid@1 of the linkage attack', share: 'known share', target: 'reid@1', block: 'reid1', evaluation: ATTACK_FACTS.name },
  auc: {
    success: 'auc advantage over null of attribute inference',
    share: 'auxiliary share',
    target: 'auc advantage',
    block: 'auc_adv',
    evaluation: INFER_FACTS.name,
  },
};

const NOT_APPLICABLE = 'not applicable: the config has no decide: block (the targets of utility at matched attack success, docs/ATTACKS.md)';

const fmt = (x: number) => String(Number(x.toPrecision(3)));

/** Per entry label, how often it was none / all / interior over the cells looked at: what kept cells out. */
function flagNote(flags: Map<string, Record<string, number>>): string {
  const parts = [...flags].map(
    ([label, c]) =>
      `${label} ${['interior', 'all', 'none']
        .filter((f) => c[f])
        .map((f) => `${f} ${c[f]}`)
        .join(', ')}`,
  );
  return `crossings (per entry and (n, κ, target): interior, all = every ξ meets T, none = no ξ does): ${parts.join('; ')}`;
}

function evaluateTwin(ctx: DatasetContext, twin: Twin, on: MatchedOn): Outcome {
  const s = ctx.config.decide;
  const words = ATTACK_WORDS[on];
  if (!s) return notTested(NOT_APPLICABLE);
  const targets = on === 'reid' ? s.reid1 : s.auc_adv;
  if (targets.length === 0) return notTested(`not applicable: the decide: block names no ${words.block} target`);
  const { entries, skipped } = matchedEntries(ctx, on, s);
  const as = entries.filter(twin.a);
  const rivals = twin.rivals.map((r) => entries.filter((e) => r.pick(ctx, e)));
  const missing = [
    ...(as.length ? [] : ['an lshrr entry' + (twin.a === isLshrrPaper ? ' with the paper accountant' : '')]),
    ...twin.rivals.filter((_, i) => rivals[i]!.length === 0).map((r) => r.needs),
  ];
  if (missing.length) return notTested(`needs ${missing.join(' and ')} with ${words.success} (at the decide: block's ${words.share}) and utility values at k = ${s.k}`);
  const labelled = twin.named || new Set(as.map((e) => e.label)).size > 1 || rivals.some((r) => new Set(r.map((e) => e.label)).size > 1);
  const flags = new Map<string, Record<string, number>>();
  const count = (label: string, flag: string) => {
    const c = flags.get(label) ?? {};
    flags.set(label, c);
    c[flag] = (c[flag] ?? 0) + 1;
  };
  const cells: (CellTest | null)[] = [];
  const places = [...new Map(as.map((e) => [`${e.n}\u0000${e.kappa}`, e])).values()].filter((e) => !twin.n || twin.n.ok(e.n));
  for (const place of places) {
    const here = (e: MatchedEntryAt) => e.n === place.n && e.kappa === place.kappa;
    const aHere = as.filter(here);
    const rHere = rivals.map((r) => r.filter(here));
    if (rHere.some((r) => r.length === 0)) continue;
    const involved = [...new Set([...aHere, ...rHere.flat()])];
    for (const target of targets) {
      const cell = matchedAt(ctx.dataset, involved, target, s, ctx.config.trials, ctx.alpha);
      const flagOf = (e: MatchedEntryAt) => cell.entries[involved.indexOf(e)]!.flag;
      for (const e of involved) count(e.label, flagOf(e));
      // every combination of one entry per role (usually one each)
      const combos = rHere.reduce<MatchedEntryAt[][]>((acc, r) => acc.flatMap((c) => r.map((e) => [...c, e])), [[]]);
      for (const a of aHere) {
        for (const combo of combos) {
          if (twin.pairs && !combo.every((b) => twin.pairs!(a, b))) continue;
          if (![a, ...combo].every((e) => flagOf(e) === 'interior')) continue;
          const where = `n=${place.n} κ=${place.kappa} k=${s.k} ${words.target}≤${target}${labelled ? ` [${[a, ...combo].map((e) => e.label).join(' vs ')}]` : ''}`;
          const tests = combo.map((b) => pairedBootstrapCell(where, cell, involved.indexOf(a), involved.indexOf(b)));
          if (tests.some((t) => t === null)) {
            cells.push(null);
            continue;
          }
          const ts = tests as CellTest[];
          // several rivals: lower than each (the largest p for), higher than any (the smallest p against, Bonferroni over them)
          cells.push({
            ...ts[0]!,
            pFor: Math.max(...ts.map((t) => t.pFor)),
            pAgainst: Math.min(1, ts.length * Math.min(...ts.map((t) => t.pAgainst))),
            zeroVariance: ts.every((t) => t.zeroVariance),
            minPFor: Math.max(...ts.map((t) => t.minPFor ?? 0)),
            diff: Math.max(...ts.map((t) => t.diff)),
          });
        }
      }
    }
  }
  const at = `${words.success} at ${words.share} ${on === 'reid' ? s.known : s.aux}`;
  const notes = [
    `axes: u* = utility loss at k = ${s.k} at each entry's ξ*, where its mean ${at} (pooled non-decreasing in ξ) reaches T ∈ {${targets.map(fmt).join(', ')}}; Δ = u* of LSHRR minus the rival's${twin.rivals.length > 1 ? ' (the larger of the two)' : ''}`,
    flagNote(flags),
    ...(skipped.length ? [`left out for a missing trial or value: ${skipped.join(', ')}`] : []),
  ];
  const scope = twin.n ? ` at ${twin.n.words}` : '';
  return decide(
    cells,
    ctx,
    {
      forWord: `LSHRR lower${twin.rivals.length > 1 ? ' than both' : ''}`,
      againstWord: `higher${twin.rivals.length > 1 ? ' than either' : ''}`,
      tests: `one-sided t tests on m − 1 df of the paired Δu*, its SE from the ${BOOTSTRAP_B} bootstrap resamples of the trials that lshdp choose draws for the cell`,
    },
    flags.size === 0
      ? `needs ${twin.aWords} and ${twin.rivals.map((r) => r.words).join(' and ')} at the same n and κ${twin.n ? `, ${twin.n.words}` : ''}`
      : `no (n, κ, target)${scope} where ${twin.rivals.length > 1 ? 'every entry crosses' : 'both entries cross'} T inside its ξ grid; ${notes.slice(1).join('; ')}`,
    'directional',
    notes,
  );
}

/** The statement: what the twin claims, in words that depend on no block of the config. */
function statementOf(twin: Twin, on: MatchedOn): string {
  const w = ATTACK_WORDS[on];
  const rivals = twin.rivals.map((r) => r.words).join(' and ');
  const both = twin.rivals.length > 1 ? 'every one crosses' : 'both cross';
  return `lshdp's own, the twin of ${twin.of} at matched attack success (${w.target}): with each entry at its ξ*, where its mean ${w.success} (at the decide: block's ${w.share}, pooled non-decreasing in ξ) reaches a target T of the block's ${w.block}, ${twin.aWords} has lower utility loss (at the block's k) than ${rivals}${twin.n ? ` for ${twin.n.words}` : ''}, in every (n, κ, T) where ${both} T inside its ξ grid. ${MATCHED_CAVEAT}`;
}

function matchedClaim(twin: Twin, on: MatchedOn): ClaimDefinition {
  return {
    id: `${twin.of}-at-matched-${on}` as ClaimId,
    statement: statementOf(twin, on),
    evaluation: ATTACK_WORDS[on].evaluation,
    angular: twin.angular,
    evaluate: (ctx) => evaluateTwin(ctx, twin, on),
  };
}

/** The matched claims, in report order (`MATCHED_CLAIM_IDS`): the reid@1 twins, then the auc twins. */
export const MATCHED_CLAIMS: readonly ClaimDefinition[] = (['reid', 'auc'] as const).flatMap((on) => TWINS.map((twin) => matchedClaim(twin, on)));
