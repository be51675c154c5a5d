import { klBernoulli } from './kl.js';

/*
 * The privacy bounds of LSHRR with per-bit budget eps and kappa bits, for two inputs at angular
 * distance d (paper Sect. 5).
 */

/** xi_alpha = eps·kappa·(d + alpha) (Proposition "tighter bound"). */
export function xiAlpha(eps: number, kappa: number, d: number, alpha: number): number {
  return eps * kappa * (d + alpha);
}

/** delta_alpha = exp(-kappa·KL(d + alpha || d)) (Proposition "tighter bound"). */
export function deltaAlpha(kappa: number, d: number, alpha: number): number {
  return Math.exp(-kappa * klBernoulli(d + alpha, d));
}

/** xi = eps·kappa·d + eps·sqrt(-ln(delta)/2)·sqrt(kappa) (Theorem "PXDP/XDP of LSHRR"). */
export function xiGeneral(eps: number, kappa: number, d: number, delta: number): number {
  return eps * kappa * d + eps * Math.sqrt(-Math.log(delta) / 2) * Math.sqrt(kappa);
}

/** kappa·eps: LSHRR is kappa·eps-LDP whatever the inputs (Proposition "worst-case privacy"). */
export function worstCaseXi(eps: number, kappa: number): number {
  return kappa * eps;
}
