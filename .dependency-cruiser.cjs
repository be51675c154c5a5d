/**
 * The layers of src/, bottom to top (docs/ARCHITECTURE.md has the table): a module may import its
 * own layer and the layers below it, never above. Type-only and dynamic imports count as imports.
 * `npm run lint` checks this; tests/layers.test.ts plants a violation and sees it fail.
 */
const LAYERS = [
  ['util', 'vendor', 'random', 'stats', 'kernels'],
  // privacy/ is arithmetic on probabilities (accountants, budgets): it imports only util/
  ['data', 'privacy'],
  ['knn'],
  ['lsh'],
  ['mechanisms'],
  // the science of a run: the grid, its cells and records (experiment/), and one folder per
  // evaluation (evaluations/: utility loss, recommendations, the linkage attack)
  ['experiment', 'evaluations'],
  ['machinery'],
  // decide: utility at matched attack success, read from a folder through the machinery (lshdp choose)
  ['claims', 'audit', 'encode', 'cluster', 'decide'],
  ['report'],
  ['pipeline'],
  ['cli', 'index.ts'],
];

const folderRe = (f) => (f.endsWith('.ts') ? `^src/${f.replace('.', '\\.')}$` : `^src/${f}/`);
const forbidden = [
  {
    name: 'no-circular',
    comment: 'import circles (type-only and dynamic imports included) make the layers meaningless',
    severity: 'error',
    from: { path: '^src/' },
    to: { circular: true },
  },
];
LAYERS.forEach((layer, i) => {
  const above = LAYERS.slice(i + 1).flat();
  if (above.length === 0) return;
  for (const f of layer) {
    forbidden.push({
      name: `layer-${f.replace(/[/.]/g, '-')}`,
      comment: `src/${f} (layer ${i}) imports only from its own layer and below: not from ${above.join(', ')}`,
      severity: 'error',
      from: { path: folderRe(f) },
      to: { path: above.map(folderRe) },
    });
  }
});

module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
