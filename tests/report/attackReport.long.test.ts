/**
 * `lshdp report` on a results folder with attack.csv and recommend.csv (tests/fixtures/results/small
 * plus tests/fixtures/results/attack): the attack figures are written as Vega-Lite, SVG and PNG,
 * and index.html has the linkage-attack section; a folder without attack.csv gets neither.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';
import { buildOutputs } from '../../src/report/index.js';

const SMALL = join(ROOT, 'tests/fixtures/results/small');
const ATTACK = join(ROOT, 'tests/fixtures/results/attack');

function folder(attack: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'lshdp-attack-report-'));
  cpSync(SMALL, dir, { recursive: true });
  if (attack) for (const f of ['attack.csv', 'recommend.csv']) cpSync(join(ATTACK, f), join(dir, f));
  return dir;
}

describe('files and the report', () => {
  let dir: string;
  beforeAll(async () => {
    dir = folder(true);
    await buildOutputs(dir, { quiet: true });
  }, 120_000);

  it('writes both figures as Vega-Lite, SVG and PNG', () => {
    for (const id of ['reid-ml-small', 'frontier-ml-small', 'reid-fsq-nyc', 'frontier-fsq-nyc']) {
      for (const ext of ['vl.json', 'svg', 'png']) expect(existsSync(join(dir, 'figures', `${id}.${ext}`)), `${id}.${ext}`).toBe(true);
    }
    const svg = readFileSync(join(dir, 'figures', 'frontier-ml-small.svg'), 'utf8');
    expect(svg).toContain('privacy–utility frontier');
    expect(svg).toContain('NDCG@10 (k = 10)');
    expect(
      readFileSync(join(dir, 'figures', 'frontier-ml-small.png'))
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
  });

  it('the report has a linkage-attack section with its figures and table; the figures section leaves them out', () => {
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    const attack = html.slice(html.indexOf('<section id="attack">'), html.indexOf('</section>', html.indexOf('<section id="attack">')));
    expect(attack).toContain('<h2>Linkage attack</h2>');
    expect(attack).toContain('id="reid-ml-small"');
    expect(attack).toContain('id="frontier-fsq-nyc"');
    expect(attack).toContain('id="attack-table"');
    expect(attack).toContain('a lower bound on what an adversary can do');
    const figures = html.slice(html.indexOf('<section id="figures">'), html.indexOf('</section>', html.indexOf('<section id="figures">')));
    expect(figures).toContain('id="fig2-ml-small"');
    expect(figures).not.toContain('id="reid-ml-small"');
  });

  it('a folder without attack.csv has no attack section and no attack figure', async () => {
    const plain = folder(false);
    await buildOutputs(plain, { quiet: true, png: false });
    expect(readdirSync(join(plain, 'figures')).filter((f) => /^(reid|frontier)-/.test(f))).toEqual([]);
    expect(readFileSync(join(plain, 'index.html'), 'utf8')).not.toContain('id="attack"');
  });
});
