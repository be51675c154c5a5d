// The long tier (npm run test:full): the shipped audit config's verdicts, a large Monte Carlo check.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';
import { lshdpIn } from '../helpers/inproc.js';
import type { AuditFile } from '../helpers/audit.js';

describe('lshdp audit (long tier)', () => {
  it('configs/audit.yaml: naive violated at kappa 20, xi 5; paper, exact, theorem sound everywhere', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-audit-shipped-'));
    const r = await lshdpIn(['audit', join(ROOT, 'configs/audit.yaml'), '--out', dir]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^lshdp: warning: .*audit\.yaml uses the naive accountant/);
    const json = JSON.parse(readFileSync(join(dir, 'audit.json'), 'utf8')) as AuditFile;
    const at = (m: string, kappa: number, xi: number) => json.results.find((x) => x.mechanism === m && x.kappa === kappa && x.xi === xi)!;
    expect(at('lshrr-naive', 20, 5).verdict).toBe('violated');
    for (const row of json.results.filter((x) => ['paper', 'exact', 'theorem'].includes(x.accountant ?? ''))) {
      expect(row.verdict, `${row.mechanism} κ=${row.kappa} ξ=${row.xi}`).toBe('sound');
    }
    for (const row of json.results.filter((x) => x.mechanism === 'laplsh' || x.mechanism === 'rappor')) expect(row.verdict).toBe('sound');
  });
});
