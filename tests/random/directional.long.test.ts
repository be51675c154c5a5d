import { describe, expect, it } from 'vitest';
import { makeRng } from '../../src/random/rng.js';
import { ks, ksCritical, quadrature, within } from '../helpers/distributions.js';
import { purkayasthaAngleSource, vmfCosineSource } from '../../src/random/directional.js';

const N = 50_000;
const logSin = (phi: number) => Math.log(Math.sin(phi));

// the long tier: the samplers at n = 1000 (the size of the paper's vectors), larger samples
describe('directional samplers at n = 1000', () => {
  for (const c of [1, 100, 500, 5000]) {
    it(`von Mises–Fisher, c = ${c}`, () => {
      const q = quadrature((phi) => c * (Math.cos(phi) - 1) + 998 * logSin(phi));
      const draw = vmfCosineSource(makeRng(`vmf-1000-${c}`), 1000, c);
      const w = Float64Array.from({ length: N }, draw);
      const ew = q.expect(Math.cos);
      within(w.reduce((a, b) => a + b, 0) / N, ew, Math.sqrt((q.expect((p) => Math.cos(p) ** 2) - ew * ew) / N), 'E[w]');
      expect(ks(w.map(Math.acos), q.cdfAt)).toBeLessThan(ksCritical(N));
    });
    it(`Purkayastha, c = ${c}`, () => {
      const q = quadrature((t) => -c * t + 998 * logSin(t));
      const draw = purkayasthaAngleSource(makeRng(`purk-1000-${c}`), 1000, c);
      const th = Float64Array.from({ length: N }, draw);
      const et = q.expect((t) => t);
      within(th.reduce((a, b) => a + b, 0) / N, et, Math.sqrt((q.expect((t) => t * t) - et * et) / N), 'E[θ]');
      expect(ks(th, q.cdfAt)).toBeLessThan(ksCritical(N));
    });
  }
});
