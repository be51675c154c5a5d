// The long tier (npm run test:full): the shipped audit config end to end.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';
import { lshdpIn } from '../helpers/inproc.js';
import type { AuditFile } from '../helpers/audit.js';
import { exactTail } from '../../src/privacy/exactLoss.js';
import { realizedPerBitEpsilon } from '../../src/privacy/rr.js';

describe('lshdp audit configs/audit.yaml (long tier)', () => {
  it('exits 3; every naive row is violated; every tested row has ε_lb, confidence, ceiling; LSHRR rows agree with their exact tails', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-audit-shipped-'));
    const r = await lshdpIn(['audit', join(ROOT, 'configs/audit.yaml'), '--out', dir]);
    expect(r.status, r.stderr).toBe(3);
    expect(r.stderr).toMatch(/^lshdp: warning: .*audit\.yaml uses the naive accountant/);
    expect(r.stdout).not.toMatch(/\bsound\b|inconclusive/);
    const json = JSON.parse(readFileSync(join(dir, 'audit.json'), 'utf8')) as AuditFile;
    // LSH; LSHRR ×4, LapLSH, RAPPOR, VMF, Purkayastha; jl-gaussian ×3 (its guarantees), at 3 κ and 5 ξ
    expect(json.results).toHaveLength(3 + 3 * 5 * 11);
    const naive = json.results.filter((x) => x.accountant === 'naive');
    expect(naive).toHaveLength(15);
    for (const row of naive) expect(row.verdict, `κ=${row.kappa} ξ=${row.xi}`).toBe('violated');
    for (const row of json.results.filter((x) => x.verdict !== 'not-applicable')) {
      expect(row.confidence!).toBeGreaterThan(0.95);
      expect(row).toHaveProperty('detectable_inflation');
      if (row.base === 'jl-gaussian') {
        // a release of reals: tested on its declared Gaussian law, no black box
        expect(row.tests).toEqual(['declared-tail', 'gaussian-scale', 'gaussian-law']);
        expect(row.epsilon_lb).toBeNull();
        expect(row.realized_lb!).toBeLessThanOrEqual(row.allowed as number);
        expect(row.exact_tail!).toBeLessThanOrEqual(0.01 * (1 + 1e-9));
        expect(row.detectable_by).toBe('gaussian-scale');
        continue;
      }
      expect(row.epsilon_lb, row.mechanism).not.toBeNull();
      expect(row.epsilon_ceiling!).toBeGreaterThan(0);
    }
    // an LSHRR row is violated exactly when its exact tail exceeds δ, or a sampling test rejected (named in its reason)
    for (const row of json.results.filter((x) => x.epsilon_bit !== null && x.base !== 'jl-gaussian')) {
      const tail = typeof row.epsilon_bit !== 'number' ? row.exact_tail! : exactTail(row.kappa, 0.1, realizedPerBitEpsilon(row.epsilon_bit), row.xi);
      if (tail > 0.01) expect(row.verdict, `${row.mechanism} κ=${row.kappa} ξ=${row.xi}`).toBe('violated');
      else if (row.verdict === 'violated') expect(row.reason).toMatch(/flip rate|black-box/);
    }
    // no silent untestable row: a row that can detect nothing up to ×100 says so, with a number of samples
    for (const row of json.results) {
      if (row.verdict === 'no-violation-found') expect(row.detectable_inflation!, `${row.mechanism} κ=${row.kappa} ξ=${row.xi}`).toBeLessThanOrEqual(100);
      if (row.verdict === 'not-testable') expect(['number', 'string'], `${row.mechanism} κ=${row.kappa} ξ=${row.xi}`).toContain(typeof row.samples_needed);
    }
    // the correct mechanisms: nothing violated and no law-mismatch
    for (const row of json.results.filter((x) => x.accountant !== 'naive'))
      expect(['no-violation-found', 'not-testable', 'not-applicable'], `${row.mechanism} κ=${row.kappa} ξ=${row.xi}`).toContain(row.verdict);
  }, 900_000);
});
