/*
 * Angular distance d in [0, 1] (angle / π) and Euclidean distance in [0, 2] between two unit
 * vectors: d_euc = sqrt(2 - 2 cos(π d)) (paper Sect. 6), computed as the equal 2·sin(π d / 2),
 * which keeps full relative accuracy at small d.
 */

export function euclideanFromAngular(d: number): number {
  return 2 * Math.sin((Math.PI * d) / 2);
}

/** Inverse of euclideanFromAngular on [0, 2]: d = 2·asin(e / 2) / π. */
export function angularFromEuclidean(e: number): number {
  const half = e / 2;
  // the same clamp as distanceFromDot
  return (2 * Math.asin(half > 1 ? 1 : half < 0 ? 0 : half)) / Math.PI;
}
