/**
 * The generic view of an evaluation's file, on infer.csv's shape (baseline rows without κ or ξ
 * first): `lshdp table <name>` and the report's section show the same coordinate columns (k only
 * where it is an axis), numbers right-aligned in LaTeX, a column of numbers with empty cells stays
 * numeric in the section.
 */
import { describe, it, expect } from 'vitest';
import { evaluationCoordinates, evaluationTable } from '../../src/report/evaluationTable.js';
import { evaluationSections } from '../../src/report/evaluationSections.js';
import { INFER_FACTS } from '../../src/evaluations/infer/facts.js';
import type { ResultsFolder } from '../../src/report/read.js';

const at = { dataset: 'ml', n: 100, aux: 0.5, k: 10, prec10_mean: 0.5, prec10_se: 0.01, trials: 10, targets: 500 };
const ROWS = [
  { ...at, kappa: null, mechanism: 'prior', base: null, accountant: null, xi: null, auc_mean: 0.7, auc_se: 0.001 },
  { ...at, kappa: 20, mechanism: 'null', base: null, accountant: null, xi: null, auc_mean: 0.66, auc_se: 0.001 },
  { ...at, kappa: 20, mechanism: 'lshrr', base: 'lshrr', accountant: 'paper', xi: 5, auc_mean: 0.675, auc_se: 0.0008 },
];

describe('the generic evaluation view on infer.csv', () => {
  it("coordinates: k is infer's setting, not an axis, so neither view shows it; aux is", () => {
    expect(evaluationCoordinates(INFER_FACTS)).toEqual(['dataset', 'n', 'kappa', 'mechanism', 'xi', 'aux']);
    const md = evaluationTable(INFER_FACTS, ROWS, 'md').split('\n');
    expect(md[0]).toBe('| dataset | n | kappa | mechanism | xi | aux | AUC (mean ± se) | prec@10 (mean ± se) | trials |');
    expect(md[2]).toBe('| ml | 100 | – | prior | – | 0.5 | 0.7000 ± 0.0010 | 0.500 ± 0.010 | 10 |');
  });

  it('LaTeX: text columns left, numbers (xi and aux included) right', () => {
    expect(evaluationTable(INFER_FACTS, ROWS, 'latex')).toContain('\\begin{tabular}{lrrlrrrrr}');
  });

  it("the report's section has the table's columns; κ and ξ stay numeric though the first rows lack them", () => {
    const res = { infer: ROWS } as unknown as ResultsFolder;
    const html = evaluationSections(res, [], { singleFile: true }).join('\n');
    const heads = [...html.matchAll(/<th data-type="(\w+)"[^>]*><button[^>]*>([^<]+)<\/button>/g)].map((m) => `${m[2]}:${m[1]}`);
    expect(heads).toEqual(['dataset:text', 'n:num', 'kappa:num', 'mechanism:text', 'xi:num', 'aux:num', 'AUC (mean ± se):num', 'prec@10 (mean ± se):num']);
  });
});
