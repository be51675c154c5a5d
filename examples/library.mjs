// Using lshdp as a library: hash a data set, privatize the codes, and measure k-NN utility.
// Run from the project folder: node examples/library.mjs
import {
  loadDataset, sampleQueries, exactKnn, angularFamily, getMechanism,
  hammingKnn, tieSeed, evaluateAnswers, deriveSeed, makeRng,
} from 'lshdp';

const spec = { name: 'demo', format: 'synthetic', preset: 'small' }; // or { format: 'movielens-csv', path: 'ratings.csv', ... }
const n = 100;
const kappa = 20;
const k = 10;
const seed = 1;

const { vectors } = await loadDataset(spec, [n]);
const data = vectors.get(n); // top-n user vectors (CSR, unit rows)
const queries = sampleQueries(data.userIds.length, 200, seed, spec.name, n);
const truth = exactKnn(data, queries, k); // true angular neighbours

// the public hash functions of trial 0 (the experiments' seed derivation)
const hashing = angularFamily.hash(data, kappa, deriveSeed(seed, 'planes', spec.name, n, kappa, 0));

for (const [name, xi] of [['lsh', null], ['lshrr', 50], ['lshrr', 5]]) {
  const mechanism = getMechanism(name);
  const eps = mechanism.epsilon(xi ?? 0, kappa, { d: 0.1, delta: 0.01 }, { accountant: 'paper' });
  const rng = makeRng(deriveSeed(seed, 'noise', name, xi ?? 'none'));
  const codes = mechanism.encode({ vectors: data, hashing, rng, options: name === 'lshrr' ? { accountant: 'paper' } : {} }, eps);
  const answers = hammingKnn(codes, queries, k, tieSeed(seed, spec.name, n, kappa, 0));
  const { loss, recall } = evaluateAnswers(data, queries, truth, answers, k, [k]);
  console.log(`${name} xi=${xi ?? '-'} epsilon_bit=${eps.epsilon ?? '-'} utility_loss=${loss[0].toFixed(4)} recall=${recall[0].toFixed(3)}`);
}
