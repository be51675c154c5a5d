/**
 * The paper's worked examples of its accountant (Sect. 6.3 and the appendix), each a value the
 * accountant computes against the paper's rounded one. They read no evaluation's values and are
 * listed with the utility claims, in every run.
 */
import { accountEpsilon } from '../privacy/accountants.js';
import type { ClaimDefinition, Outcome } from './family.js';

/** Sect. 6.3: 20-bit hash, ξ = 5 at d = 0.05 flips each bit with probability ≈ 0.27 (δ = 0.01). */
export const PAPER_FLIP = { kappa: 20, xi: 5, d: 0.05, delta: 0.01, flip: 0.27 };
/** Sect. 6.3 and the appendix: κ = 50, ξ = 20 is an LDP budget of ≈ 120 (d = 0.05) and ≈ 80 (d = 0.1). */
export const PAPER_LDP = {
  kappa: 50,
  xi: 20,
  delta: 0.01,
  cases: [
    { d: 0.05, ldp: 120 },
    { d: 0.1, ldp: 80 },
  ],
};

/** A value computed from the accountant, against the paper's rounded one. */
function valueCells(checks: { label: string; value: number; paper: number }[], statistic: string): Outcome {
  const decimals = (x: number) => (String(x).split('.')[1] ?? '').length;
  const agree = checks.map((c) => Number(c.value.toFixed(decimals(c.paper))) === c.paper);
  const ok = agree.filter(Boolean).length;
  return {
    verdict: ok === checks.length ? 'supported' : 'contradicted',
    cells_tested: checks.length,
    cells_for: ok,
    cells_against: checks.length - ok,
    detail: `${statistic}: ` + checks.map((c, i) => `${c.label}: ${Number(c.value.toPrecision(6))} (paper ≈ ${c.paper}${agree[i] ? '' : ', does not round to it'})`).join('; '),
  };
}

export const flipExample: ClaimDefinition = {
  id: 'flip-probability-example',
  statement: 'Sect. 6.3: a 20-bit hash with ξ = 5 at d = 0.05 (δ = 0.01) flips each bit with probability ≈ 0.27.',
  evaluation: 'utility',
  angular: false,
  evaluate() {
    const { kappa, xi, d, delta, flip } = PAPER_FLIP;
    // angular LSH: a bit differs with probability d, so p = d
    const acc = accountEpsilon('paper', { xi, kappa, p: d, delta });
    return valueCells([{ label: `flip probability 1/(1+e^ε), ε = ${Number(acc.epsilonBit.toPrecision(6))}`, value: acc.flip, paper: flip }], 'paper accountant (ε = ξ/(κ(d+α)))');
  },
};

export const ldpEquivalent: ClaimDefinition = {
  id: 'ldp-equivalent',
  statement: 'Sect. 6.3 and the appendix: κ = 50 and ξ = 20 (δ = 0.01) is an LDP budget κε of ≈ 120 at d = 0.05 and ≈ 80 at d = 0.1.',
  evaluation: 'utility',
  angular: false,
  evaluate() {
    const { kappa, xi, delta, cases } = PAPER_LDP;
    return valueCells(
      cases.map((c) => ({ label: `d = ${c.d}`, value: accountEpsilon('paper', { xi, kappa, p: c.d, delta }).epsilonLdp, paper: c.ldp })),
      'LDP budget κε from the paper accountant',
    );
  },
};
