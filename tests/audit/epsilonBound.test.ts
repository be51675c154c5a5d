import { describe, expect, it } from 'vitest';
import { chooseThreshold, countsAt, epsilonLbPValue, epsilonLowerBound } from '../../src/audit/epsilonBound.js';
import { clopperPearson } from '../../src/stats/binomial.js';

describe('black-box epsilon lower bound', () => {
  it('is ln((TPR_low − delta) / FPR_high) and 0 without evidence', () => {
    const c = { truePositives: 900, positives: 1000, falsePositives: 10, negatives: 1000 };
    const want = Math.log((clopperPearson(900, 1000)[0] - 0.01) / clopperPearson(10, 1000)[1]);
    expect(epsilonLowerBound(c, 0.01)).toBeCloseTo(want, 12);
    expect(epsilonLowerBound({ truePositives: 5, positives: 1000, falsePositives: 5, negatives: 1000 }, 0.01)).toBe(0);
  });

  it('its p-value is the smallest alpha at which eps_lb exceeds xi', () => {
    const c = { truePositives: 900, positives: 1000, falsePositives: 10, negatives: 1000 };
    const xi = 3;
    const p = epsilonLbPValue(c, 0, xi);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(0.05);
    expect(epsilonLowerBound(c, 0, p * 1.01)).toBeGreaterThan(xi);
    expect(epsilonLowerBound(c, 0, p * 0.99)).toBeLessThanOrEqual(xi);
    expect(epsilonLbPValue(c, 0, 10)).toBe(1);
  });

  it('chooses the threshold maximizing eps_lb on the selection samples', () => {
    const pos = [3, 3, 3, 3, 2, 2, 1, 0];
    const neg = [0, 0, 0, 1, 1, 0, -1, 2];
    const t = chooseThreshold(pos, neg, 0);
    const best = Math.max(...[-1, 0, 1, 2, 3].map((x) => epsilonLowerBound(countsAt(pos, neg, x), 0)));
    expect(epsilonLowerBound(countsAt(pos, neg, t), 0)).toBe(best);
  });
});
