// LSH + Optimized Unary Encoding (OUE): an lshdp mechanism plugin from the local differential
// privacy literature.
//
//   T. Wang, J. Blocki, N. Li, S. Jha. "Locally Differentially Private Protocols for Frequency
//   Estimation". USENIX Security 2017, Sect. 4.4 (OUE).
//
// Use it in a config:
//   mechanisms:
//     - { module: ./examples/mechanisms/lsh-oue.mjs, label: lsh-oue-4, block: 4 }
//
// Mechanism. The kappa LSH bits are cut into L = ceil(kappa / b) blocks of b bits (option `block`,
// default 4; the last block may be shorter). Each block's value v (0 .. 2^b - 1) is one-hot encoded
// into 2^b bits, and OUE randomizes the one-hot vector: the 1 stays 1 with probability 1/2, and
// every 0 becomes 1 with probability q = 1 / (e^eps + 1). The released code is the concatenation of
// the L randomized vectors (sum of 2^(block size) bits), compared by Hamming distance like any code.
//
// Privacy accounting.
// - One block: OUE is eps-LDP for the block value (Wang et al. Thm. 4.4: the worst ratio is
//   (1/2 · (1 - q)) / (q · 1/2) = e^eps). Equal block values give identical output distributions.
// - Two inputs x, x' at distance d: each LSH bit differs with probability p = disagreement(d)
//   (angular: d; Jaccard: d/2), independently over bits, so a block of b bits differs with
//   probability r = 1 - (1 - p)^b, independently over blocks (a shorter last block differs less
//   often; counting it with r only over-estimates the loss). The privacy loss is at most eps times
//   the number D of differing blocks, D ~ Binomial(L, r) or smaller.
// - As in the paper's tighter bound for LSHRR (Sect. 5), Pr[D >= L (r + alpha)] <= delta when
//   L · KL(r + alpha || r) = ln(1/delta). So with probability >= 1 - delta over the hash functions
//   the mechanism is xi-extended-DP at distance d with xi = eps · L · (r + alpha), i.e.
//   eps = xi / (L (r + alpha)). When no alpha exists (r^L >= delta) we fall back to the LDP bound
//   xi = L · eps (fallback = true). In every case it is (L · eps)-LDP (epsilon_ldp).
// - With block = 1 this is exactly the paper accountant of LSHRR (r = p, L = kappa), on a code of
//   2 kappa bits.
//
// The module imports nothing, so it can be copied anywhere (plugins are loaded synchronously and
// must not use top-level await).

/** KL divergence between Bernoulli(a) and Bernoulli(b), 0 ln 0 = 0. */
function klBernoulli(a, b) {
  const first = a === 0 ? 0 : a * Math.log(a / b);
  const second = a === 1 ? 0 : (1 - a) * Math.log((1 - a) / (1 - b));
  return first + second;
}

/** The alpha in (0, 1 - r) with L KL(r + alpha || r) = ln(1/delta), or null when none exists (r^L >= delta). */
function solveAlpha(L, r, delta) {
  const target = -Math.log(delta) / L;
  if (-Math.log(r) <= target) return null;
  let lo = 0;
  let hi = 1 - r;
  for (let i = 0; i < 200 && hi - lo > 1e-15; i++) {
    const mid = (lo + hi) / 2;
    if (klBernoulli(r + mid, r) < target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

const DEFAULT_BLOCK = 4;

function blockOption(options) {
  const b = options.block ?? DEFAULT_BLOCK;
  if (!Number.isInteger(b) || b < 1 || b > 8) throw new Error(`option block must be an integer in 1..8, got ${JSON.stringify(b)}`);
  return b;
}

/** Block sizes: L - 1 blocks of b bits and a last block of the rest. */
function blockSizes(kappa, b) {
  const sizes = [];
  for (let start = 0; start < kappa; start += b) sizes.push(Math.min(b, kappa - start));
  return sizes;
}

/** @type {import('lshdp').MechanismPlugin} */
export default {
  name: 'lsh-oue',
  description: 'LSH, then Optimized Unary Encoding of each b-bit block (Wang et al. 2017)',
  usesXi: true,
  optionKeys: ['block'],

  epsilon({ xi, kappa, d, delta, disagreement, options }) {
    const b = blockOption(options);
    const L = blockSizes(kappa, b).length;
    const p = disagreement(d);
    const r = 1 - (1 - p) ** b;
    const alpha = solveAlpha(L, r, delta);
    const eps = alpha === null ? xi / L : xi / (L * (r + alpha));
    return { epsilon_bit: eps, epsilon_ldp: L * eps, fallback: alpha === null, blocks: L, block_disagreement: r };
  },

  encode({ codes, users, kappa, eps, rng, options }) {
    const b = blockOption(options);
    const sizes = blockSizes(kappa, b);
    const bits = sizes.reduce((s, size) => s + 2 ** size, 0);
    const words = Math.ceil(bits / 32);
    const out = new Uint32Array(users * words);
    const e = eps.epsilon_bit;
    const q = e === Infinity ? 0 : 1 / (Math.exp(e) + 1);
    const setBit = (row, j) => {
      out[row + (j >>> 5)] |= 1 << (j & 31);
    };
    for (let i = 0; i < users; i++) {
      const row = i * words;
      let bit = 0; // position in the input code
      let pos = 0; // position in the output code
      for (const size of sizes) {
        let v = 0;
        for (let t = 0; t < size; t++, bit++) v |= ((codes.codes[i * codes.words + (bit >>> 5)] >>> (bit & 31)) & 1) << t;
        for (let u = 0; u < 2 ** size; u++) {
          if (u === v ? rng() < 0.5 : rng() < q) setBit(row, pos + u);
        }
        pos += 2 ** size;
      }
    }
    return { codes: out, bits, words };
  },
};
