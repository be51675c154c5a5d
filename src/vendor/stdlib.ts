/**
 * The @stdlib special functions lshdp uses (no hand-written special functions), from the build's
 * one-file bundle where there is one, else from their packages: the same code, hence the same
 * doubles. Their packages are about 330 CommonJS files that take some 80 ms to resolve and load
 * (a run loads them for its claims while its workers compute on the same cores); the bundle loads
 * in about 15. Each function loads at its first call: a command that computes none loads nothing.
 */
import { loadBundle, requirePackage } from './bundle.js';

interface Special {
  betaQuantile: (p: number, alpha: number, beta: number) => number;
  binomialCdf: (x: number, n: number, p: number) => number;
  chisquareCdf: (x: number, k: number) => number;
  chisquareLogpdf: (x: number, k: number) => number;
  chisquareQuantile: (p: number, k: number) => number;
  erfcinv: (x: number) => number;
  normalCdf: (x: number, mu: number, sigma: number) => number;
  normalLogcdf: (x: number, mu: number, sigma: number) => number;
  tCdf: (x: number, v: number) => number;
  tQuantile: (p: number, v: number) => number;
}

/** Each function's package (the bundle's entry, scripts/bundle.mjs, lists the same). */
export const STDLIB_PACKAGES: Readonly<Record<keyof Special, string>> = {
  betaQuantile: '@stdlib/stats-base-dists-beta-quantile',
  binomialCdf: '@stdlib/stats-base-dists-binomial-cdf',
  chisquareCdf: '@stdlib/stats-base-dists-chisquare-cdf',
  chisquareLogpdf: '@stdlib/stats-base-dists-chisquare-logpdf',
  chisquareQuantile: '@stdlib/stats-base-dists-chisquare-quantile',
  erfcinv: '@stdlib/math-base-special-erfcinv',
  normalCdf: '@stdlib/stats-base-dists-normal-cdf',
  normalLogcdf: '@stdlib/stats-base-dists-normal-logcdf',
  tCdf: '@stdlib/stats-base-dists-t-cdf',
  tQuantile: '@stdlib/stats-base-dists-t-quantile',
};

let bundle: Special | null | undefined;

function load<K extends keyof Special>(name: K): Special[K] {
  if (bundle === undefined) bundle = loadBundle<Special>('stdlib');
  return bundle ? bundle[name] : requirePackage<Special[K]>(STDLIB_PACKAGES[name]);
}

/**
 * Loads the bundle now where there is one (without it, nothing: the packages load at each first
 * call), so that a first call does not wait for it: a run does this while its workers compute.
 */
export function preloadStdlib(): void {
  if (bundle === undefined) bundle = loadBundle<Special>('stdlib');
}

const fns: Partial<Special> = {};
const fn = <K extends keyof Special>(name: K): Special[K] => (fns[name] ??= load(name));

export const betaQuantile = (p: number, alpha: number, beta: number): number => fn('betaQuantile')(p, alpha, beta);
export const binomialCdf = (x: number, n: number, p: number): number => fn('binomialCdf')(x, n, p);
export const chisquareCdf = (x: number, k: number): number => fn('chisquareCdf')(x, k);
export const chisquareLogpdf = (x: number, k: number): number => fn('chisquareLogpdf')(x, k);
export const chisquareQuantile = (p: number, k: number): number => fn('chisquareQuantile')(p, k);
export const erfcinv = (x: number): number => fn('erfcinv')(x);
export const normalCdf = (x: number, mu: number, sigma: number): number => fn('normalCdf')(x, mu, sigma);
export const normalLogcdf = (x: number, mu: number, sigma: number): number => fn('normalLogcdf')(x, mu, sigma);
export const tCdf = (x: number, v: number): number => fn('tCdf')(x, v);
export const tQuantile = (p: number, v: number): number => fn('tQuantile')(p, v);
