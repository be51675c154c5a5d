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
  // a key of spaces or punctuation is no typo of a word ("did you mean k?" for " " would mislead)
  if (!/[\p{L}\p{N}]/u.test(word)) return null;
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

/**
 * The paper's names for what a config spells otherwise: `n` is the vector length (`dims`), the
 * budget the paper writes ε or ξ is `privacy.xi`, δ and d_θ sit under `privacy`. Keyed by where
 * the unknown key is (`''` top level, `privacy`, `datasets`, `mechanisms`).
 */
export const PAPER_TERMS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  '': { n: 'dims', epsilon: 'privacy.xi', eps: 'privacy.xi', xi: 'privacy.xi', ε: 'privacy.xi', ξ: 'privacy.xi', delta: 'privacy.delta', d: 'privacy.d', d_theta: 'privacy.d', δ: 'privacy.delta' },
  privacy: { epsilon: 'xi', eps: 'xi', ε: 'xi', ξ: 'xi', δ: 'delta', d_theta: 'd', theta: 'd' },
  datasets: { n: 'dims (a top-level list)' },
  mechanisms: { epsilon: 'privacy.xi (top-level privacy block)', xi: 'privacy.xi (top-level privacy block)', kappa: 'kappa (a top-level list)' },
};

/** The key a config author most likely meant: the paper's term first, else the closest known key. */
export function suggestKey(key: string, path: readonly PropertyKey[], known: readonly string[]): string | null {
  const where = path.length === 0 ? '' : String(path[0]);
  return PAPER_TERMS[where]?.[key] ?? PAPER_TERMS[where]?.[key.toLowerCase()] ?? didYouMean(key, known);
}
