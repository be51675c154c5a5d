import { describe, expect, it } from 'vitest';
import { budgetRows } from '../../src/privacy/index.js';
import { budgetFigureSpec, lossCdfSpec, privacyFigureEntries } from '../../src/report/privacyFigures.js';
import { renderSvg } from '../../src/report/render.js';
import { auditSection } from '../../src/report/audit.js';
import { runAudit } from '../../src/audit/run.js';

const rows = budgetRows({ accountants: ['paper', 'exact', 'theorem', 'naive'], d: [0.1], kappa: [10, 20, 50], xi: [0.5, 1, 2, 5, 10, 20], delta: 0.01 });

describe('privacy figures', () => {
  it('per-bit eps and flip probability against xi: one line per accountant, one panel per kappa, renders', async () => {
    for (const metric of ['epsilon', 'flip'] as const) {
      const spec = budgetFigureSpec(rows, metric);
      const values = (spec.data as { values: { accountant: string; kappa: string; value: number }[] }).values;
      expect(values).toHaveLength(72);
      expect(new Set(values.map((v) => v.kappa))).toEqual(new Set(['κ = 10', 'κ = 20', 'κ = 50']));
      const exact = values.find((v) => v.accountant === 'exact' && v.kappa === 'κ = 20' && (v as unknown as { xi: number }).xi === 5)!;
      expect(exact.value).toBeCloseTo(metric === 'epsilon' ? 1.0834 : 1 / (1 + Math.exp(1.0834139903)), 4);
      const svg = await renderSvg(spec);
      expect(svg).toContain('<svg');
      expect(svg).toContain('theorem');
    }
  });

  it('the audit figure and HTML section render; data strings are escaped', async () => {
    const out = runAudit({
      seed: 1,
      d: 0.1,
      delta: 0.01,
      kappa: [10],
      xi: [5],
      n: 4,
      samples: 200,
      realPairs: [],
      entries: [
        { label: '<b>x</b>', name: 'lshrr', options: { accountant: 'exact' } },
        { label: 'naive', name: 'lshrr', options: { accountant: 'naive' } },
      ],
    });
    expect(out.cdf.length).toBe(2 * 2 * 21);
    // the exact CDF ends at 1 and never decreases
    const exact = out.cdf.filter((p) => p.source === 'exact' && p.panel === out.cdf[0].panel).map((p) => p.cdf);
    expect(exact[exact.length - 1]).toBeCloseTo(1, 12);
    for (let i = 1; i < exact.length; i++) expect(exact[i]).toBeGreaterThanOrEqual(exact[i - 1] - 1e-15);
    const svg = await renderSvg(lossCdfSpec(out.cdf, out.cdfXi));
    expect(svg).toContain('<svg');
    const html = auditSection({ results: out.results, samples: 200 }, null);
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(html).not.toContain('<b>x</b>');
    // the verdicts, coloured by class, and a legend that says what each means; no certifying word
    expect(html).toContain('<tr class="verdict-violated"><td>naive</td>');
    expect(html).toContain('<tr class="verdict-no-violation-found"><td>&lt;b&gt;x&lt;/b&gt;</td>');
    for (const v of ['violated', 'law-mismatch', 'no-violation-found', 'not-testable', 'not-applicable']) expect(html).toContain(`<li><i>${v}</i>: `);
    expect(html).toContain('violated 1, law-mismatch 0, no-violation-found 1, not-testable 0, not-applicable 0');
    expect(html).not.toMatch(/\bsound\b|inconclusive/);
  });
});

describe('privacy figure entries for the report', () => {
  it('two entries (eps, flip) when budgets exist, none otherwise', () => {
    const entries = privacyFigureEntries(rows, 0.1);
    expect(entries.map((e) => e.id)).toEqual(['privacy-epsilon', 'privacy-flip']);
    expect(entries[0].caption).toContain('paper, exact, theorem, naive');
    expect(privacyFigureEntries(null)).toEqual([]);
  });
});
