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

/** How many leading characters two words share (case-insensitive). */
function sharedPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i].toLowerCase() === b[i].toLowerCase()) i++;
  return i;
}

/**
 * The known words a typo most likely meant, best first: those at the smallest edit distance that
 * are close enough to be a plausible typo (at most a third of the longer word changed). Words at
 * that same distance are ranked by how long a prefix they share with `word` (a typo keeps the
 * start of a word: `lshr` is `lshrr` before `lsh`), then in `known`'s order; at most `max` of them.
 */
export function closestWords(word: string, known: readonly string[], max = 3): string[] {
  // a key of spaces or punctuation is no typo of a word ("did you mean k?" for " " would mislead)
  if (!/[\p{L}\p{N}]/u.test(word)) return [];
  const all = known.map((k, i) => ({ k, i, dist: editDistance(word.toLowerCase(), k.toLowerCase()), prefix: sharedPrefix(word, k) }));
  const best = Math.min(...all.map((c) => c.dist));
  return all
    .filter((c) => c.dist === best && c.dist <= Math.max(1, Math.floor(Math.max(word.length, c.k.length) / 3)))
    .sort((a, b) => b.prefix - a.prefix || a.i - b.i)
    .slice(0, max)
    .map((c) => c.k);
}

/**
 * The "did you mean" words for a typo, as a message says them: every closest word (closestWords),
 * each wrapped in `quote`, joined with "or" (`"lshrr" or "lsh"`); null when none is close.
 * Messages write `(did you mean ${hint}?)`.
 */
export function didYouMean(word: string, known: readonly string[], quote = ''): string | null {
  const words = closestWords(word, known).map((w) => `${quote}${w}${quote}`);
  if (words.length === 0) return null;
  return words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
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

/**
 * The key a config author most likely meant, quoted as a message says it (`"dims"`, `"lshrr" or
 * "lsh"`): the paper's term first, else the closest known keys (didYouMean).
 */
export function suggestKey(key: string, path: readonly PropertyKey[], known: readonly string[]): string | null {
  const where = path.length === 0 ? '' : String(path[0]);
  const term = PAPER_TERMS[where]?.[key] ?? PAPER_TERMS[where]?.[key.toLowerCase()];
  return term !== undefined ? `"${term}"` : didYouMean(key, known, '"');
}
