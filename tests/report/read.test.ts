import { describe, it, expect } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readBudgetsCsv, readDirectionalBudgetsCsv, readUtilityCsv, BUDGET_COLUMNS } from '../../src/report/read.js';
import { flipProbability } from '../../src/privacy/rr.js';

function file(name: string, lines: string[]): string {
  const p = join(mkdtempSync(join(tmpdir(), 'lshdp-read-')), name);
  writeFileSync(p, lines.join('\n') + '\n');
  return p;
}

describe('reading results files', () => {
  it('budgets.csv in the current vocabulary: every column, empty cells as null', () => {
    const rows = readBudgetsCsv(file('budgets.csv', [BUDGET_COLUMNS.join(','), 'paper,0.1,0.01,10,5,0.376605,1.04909,0.259418,10.4909,false,false,', 'exact,0.05,0.01,2,5,,,0,,false,true,0']));
    expect(rows[0]).toEqual({
      accountant: 'paper',
      d: 0.1,
      delta: 0.01,
      kappa: 10,
      xi: 5,
      alpha: 0.376605,
      epsilon_bit: 1.04909,
      flip: 0.259418,
      epsilon_ldp: 10.4909,
      fallback: false,
      unbounded: false,
      delta_hockey: null,
    });
    expect(rows[1]).toMatchObject({ accountant: 'exact', alpha: null, epsilon_bit: null, epsilon_ldp: null, unbounded: true, delta_hockey: 0 });
  });

  it("budgets.csv with directional rows: LSHRR's rows read as before, the directional ones apart; a file without them has none", () => {
    const head = `${BUDGET_COLUMNS.join(',')},mechanism,concentration,concentration_metric`;
    const f = file('budgets.csv', [
      head,
      'paper,0.1,0.01,10,5,0.376605,1.04909,0.259418,10.4909,false,false,,lshrr,,',
      ',0.1,0,10,5,,,,31.9622,,,,vmf,15.9811,euclidean',
      ',0.1,0,10,5,,,,50,,,,purkayastha,15.9155,angle',
    ]);
    expect(readBudgetsCsv(f).map((r) => r.accountant)).toEqual(['paper']);
    expect(readDirectionalBudgetsCsv(f)).toEqual([
      { mechanism: 'vmf', d: 0.1, delta: 0, kappa: 10, xi: 5, concentration: 15.9811, concentration_metric: 'euclidean', epsilon_ldp: 31.9622 },
      { mechanism: 'purkayastha', d: 0.1, delta: 0, kappa: 10, xi: 5, concentration: 15.9155, concentration_metric: 'angle', epsilon_ldp: 50 },
    ]);
    expect(readDirectionalBudgetsCsv(file('budgets.csv', [BUDGET_COLUMNS.join(','), 'paper,0.1,0.01,10,5,0.376605,1.04909,0.259418,10.4909,false,false,']))).toEqual([]);
    const bad = file('budgets.csv', [head, ',0.1,0,10,5,,,,31.9622,,,,vmf,15.9811,chordal']);
    expect(() => readDirectionalBudgetsCsv(bad)).toThrow(/budgets\.csv:2: column concentration_metric: "chordal"/);
  });

  it('a budgets.csv of an older lshdp (epsilon, ldp_budget) is mapped: paper accountant, flip from ε', () => {
    const [r] = readBudgetsCsv(file('budgets.csv', ['d,delta,kappa,xi,alpha,epsilon,ldp_budget,fallback', '0.1,0.01,10,5,0.376605,1.04909,10.4909,false']));
    expect(r).toEqual({
      accountant: 'paper',
      d: 0.1,
      delta: 0.01,
      kappa: 10,
      xi: 5,
      alpha: 0.376605,
      epsilon_bit: 1.04909,
      flip: flipProbability(1.04909),
      epsilon_ldp: 10.4909,
      fallback: false,
      unbounded: false,
      delta_hockey: null,
    });
    // the protocol's golden value: flip 0.21 is ε = ln(0.79/0.21)
    expect(flipProbability(Math.log(0.79 / 0.21))).toBeCloseTo(0.21, 12);
  });

  it('a header missing columns names them and where the columns are documented', () => {
    const p = file('utility.csv', ['dataset,n,kappa,k,mechanism', 'a,1,2,3,lsh']);
    expect(() => readUtilityCsv(p)).toThrow(/utility\.csv:1: missing column\(s\) base, accountant, xi, .* in the header \(docs\/OUTPUTS\.md lists the columns\)/);
  });
  it('an unbounded value, written `inf` by the writers, reads back as Infinity; other words are refused', () => {
    const header = 'dataset,n,kappa,k,mechanism,base,accountant,xi,epsilon_bit,epsilon_lap,epsilon_ldp,fallback,trials,queries,utility_loss_mean,utility_loss_se,recall_mean,recall_se';
    const rows = readUtilityCsv(file('utility.csv', [header, 'a,50,20,10,lsh,lsh,,,,,inf,,10,5,0.1,0.01,0.5,0.02']));
    expect(rows[0]!.epsilon_ldp).toBe(Infinity);
    const bad = file('utility.csv', [header, 'a,50,20,10,lsh,lsh,,,,,Infinity,,10,5,0.1,0.01,0.5,0.02']);
    expect(() => readUtilityCsv(bad)).toThrow(/utility\.csv:2: column epsilon_ldp: "Infinity" is not a number/);
  });
});
