export { klBernoulli, solveAlpha, checkPrivacyParams, checkKappa } from './kl.js';
export { xiAlpha, deltaAlpha, xiGeneral, worstCaseXi } from './bounds.js';
export { keepProbability, flipProbability } from './rr.js';
export { euclideanFromAngular, angularFromEuclidean } from './distance.js';
export { lshrrEpsilon, laplshEpsilon } from './epsilon.js';
export { budgetTable, type BudgetRow } from './budget.js';
