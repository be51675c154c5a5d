/** Edit distance (insert, delete, substitute, adjacent swap), small strings only: config keys. */
export function editDistance(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  const d: number[][] = Array.from({ length: m + 1 }, (_, i) => Array.from({ length: n + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= m; i++) {
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[m][n];
}

/** The closest known word when it is close enough to be a plausible typo (at most a third of it changed). */
export function didYouMean(word: string, known: readonly string[]): string | null {
  let best: string | null = null;
  let bestD = Infinity;
  for (const k of known) {
    const dist = editDistance(word.toLowerCase(), k.toLowerCase());
    if (dist < bestD) {
      bestD = dist;
      best = k;
    }
  }
  if (best === null) return null;
  return bestD <= Math.max(1, Math.floor(Math.max(word.length, best.length) / 3)) ? best : null;
}
