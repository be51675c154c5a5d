// A trivial lshdp mechanism plugin: vanilla LSH with a fixed share of the bits zeroed.
//
// Use it in a config:
//   mechanisms:
//     - { module: ./examples/mechanisms/zeroed-bits.mjs, label: lsh-zero-25, share: 0.25 }
//
// The first round(share * kappa) bits of every code are set to 0, so k-NN runs on the remaining
// bits only: a (non-private) baseline showing what a shorter hash costs. No privacy: usesXi is
// false, and the rows carry no xi and no epsilon. The contract is documented in
// src/mechanisms/plugin.ts (and the README section "Your own mechanism").

/** @type {import('lshdp').MechanismPlugin} */
export default {
  name: 'zeroed-bits',
  description: 'vanilla LSH with the first round(share * kappa) bits set to 0 (no privacy)',
  usesXi: false,
  optionKeys: ['share'],

  encode({ codes, users, kappa, options }) {
    const share = options.share ?? 0.25;
    if (typeof share !== 'number' || !(share >= 0 && share <= 1)) throw new Error(`option share must be a number in [0, 1], got ${JSON.stringify(share)}`);
    const zeroed = Math.round(share * kappa);
    // input.codes is already a copy: editing it in place and returning it is allowed
    const out = codes.codes;
    for (let i = 0; i < users; i++) {
      for (let j = 0; j < zeroed; j++) out[i * codes.words + (j >>> 5)] &= ~(1 << (j & 31));
    }
    return codes;
  },
};
