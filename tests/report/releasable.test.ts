/**
 * The marker of what cannot be released (src/mechanisms/releasable.ts), from the `hashesFromNoise`
 * fact alone: the built-ins that declare it (rappor, rappor-vector), a plugin that declares it (read
 * from the module its manifest names), and nowhere else; shown in the tables, the frontier's legend
 * and the page, with its footnote, and nothing added where no mechanism carries it.
 */
import { describe, it, expect } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';
import { BUILT_IN_FACTS, ENCODE_MECHANISMS } from '../../src/mechanisms/catalog.js';
import { cannotBeReleased, UNRELEASABLE_MARK, UNRELEASABLE_NOTE } from '../../src/mechanisms/releasable.js';
import { unreleasableLabels, withReleaseMarks } from '../../src/report/releasable.js';
import { readResultsFolder } from '../../src/report/read.js';
import { figureEntries } from '../../src/report/index.js';
import { utilityTable } from '../../src/report/tables.js';
import { attackTable, attackWideTable } from '../../src/report/attackTable.js';
import { buildHtml } from '../../src/report/html.js';

const SMALL = join(ROOT, 'tests/fixtures/results/small');
const ATTACK = join(ROOT, 'tests/fixtures/results/attack');

/** A plugin module in `dir` declaring `hashesFromNoise` (or not). */
function plugin(dir: string, file: string, name: string, fromNoise: boolean | undefined): string {
  const fact = fromNoise === undefined ? '' : `hashesFromNoise: ${fromNoise}, `;
  writeFileSync(
    join(dir, file),
    `export default { name: '${name}', usesXi: false, ${fact}encode: ({ codes, users, kappa }) => ({ codes: codes.slice(), bits: kappa, words: Math.ceil(kappa / 32) }) };\n`,
  );
  return join(dir, file);
}

/** small/ with attack.csv, its lshrr-exact rows renamed rappor-vector (a built-in that cannot be released). */
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lshdp-releasable-'));
  cpSync(SMALL, dir, { recursive: true });
  const rename = (text: string) => text.replaceAll('lshrr-exact,lshrr', 'rappor-vector,rappor-vector');
  writeFileSync(join(dir, 'attack.csv'), rename(readFileSync(join(ATTACK, 'attack.csv'), 'utf8')));
  writeFileSync(join(dir, 'utility.csv'), rename(readFileSync(join(SMALL, 'utility.csv'), 'utf8')));
  return dir;
}

describe('the rule', () => {
  it('marks exactly the built-ins whose hash functions come from the noise, the ones encode refuses', () => {
    expect(BUILT_IN_FACTS.filter((f) => cannotBeReleased(f)).map((f) => f.name)).toEqual(['rappor', 'rappor-vector']);
    expect(ENCODE_MECHANISMS.some((m) => cannotBeReleased(BUILT_IN_FACTS.find((f) => f.name === m)))).toBe(false);
    expect([cannotBeReleased(undefined), cannotBeReleased({}), cannotBeReleased({ hashesFromNoise: false }), cannotBeReleased({ hashesFromNoise: true })]).toEqual([false, false, false, true]);
  });

  it("reads a plugin's declared fact from the module the config names; a module gone is not marked", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-releasable-plugins-'));
    const config = {
      mechanisms: [
        { name: 'lshrr' },
        { name: 'rappor', label: 'R' },
        { module: plugin(dir, 'noisy.mjs', 'noisy', true) },
        { module: plugin(dir, 'labelled.mjs', 'labelled', true), label: 'mine' },
        { module: plugin(dir, 'plain.mjs', 'plain', undefined) },
        { module: plugin(dir, 'stated.mjs', 'stated', false) },
        { module: join(dir, 'gone.mjs'), label: 'gone' },
      ],
    };
    const marks = await unreleasableLabels(config, [
      { mechanism: 'rv', base: 'rappor-vector' },
      { mechanism: 'lsh', base: 'lsh' },
    ]);
    expect([...marks].sort()).toEqual(['R', 'mine', 'noisy', 'rv']);
  });
});

describe('where it shows', () => {
  it('the utility and attack tables mark the label and say why under them, in md and LaTeX; csv and json keep the file', async () => {
    const res = await withReleaseMarks(readResultsFolder(folder()));
    const marks = res.unreleasable!;
    expect([...marks]).toEqual(['rappor-vector']);
    const md = attackTable(res.attack!, 'md', false, marks);
    expect(md).toContain(`| rappor-vector ${UNRELEASABLE_MARK} |`);
    expect(md).toContain(UNRELEASABLE_NOTE);
    expect(
      md
        .split('\n')
        .filter((l) => l.includes('| lshrr |'))
        .every((l) => !l.includes(UNRELEASABLE_MARK)),
    ).toBe(true);
    expect(attackTable(res.attack!, 'latex', false, marks)).toContain('rappor-vector$^\\dagger$');
    expect(attackTable(res.attack!, 'csv', false, marks)).toBe(attackTable(res.attack!, 'csv'));
    expect(
      attackWideTable(
        res.attack!.filter((r) => r.known === 0.5),
        false,
        marks,
      ),
    ).toContain(`rappor-vector ${UNRELEASABLE_MARK} ξ=`);
    const utility = utilityTable(res.utility!, 'md', marks);
    expect(utility).toContain(`| rappor-vector ${UNRELEASABLE_MARK} |`);
    expect(utility).toContain(UNRELEASABLE_NOTE);
    // no marked row: the table as it was, no footnote
    const others = res.utility!.filter((r) => r.mechanism !== 'rappor-vector');
    expect(utilityTable(others, 'md', marks)).toBe(utilityTable(others, 'md'));
    expect(utilityTable(others, 'md', marks)).not.toContain(UNRELEASABLE_MARK);
  });

  it("the frontier's legend and subtitle, and the report's attack table", async () => {
    const res = await withReleaseMarks(readResultsFolder(folder()));
    const frontier = figureEntries(res).find((f) => f.id.startsWith('frontier-'))!;
    const text = JSON.stringify(frontier.spec);
    expect(text).toContain(`"labelExpr":"indexof([\\"rappor-vector\\"], datum.label) >= 0 ? datum.label + ' ${UNRELEASABLE_MARK}' : datum.label"`);
    expect(text).toContain('cannot be released');
    const unmarked = JSON.stringify(figureEntries({ ...res, unreleasable: new Set() }).find((f) => f.id.startsWith('frontier-'))!.spec);
    expect(unmarked).not.toContain('labelExpr');
    const html = buildHtml(res, figureEntries(res));
    expect(html).toContain(`rappor-vector ${UNRELEASABLE_MARK}`);
    expect(html).toContain('cannot be released');
  });
});
