/** `movielens-100k`: u.data of MovieLens 100K. */
import { DEC, NUM } from './shared.js';
import { movieLensUnit } from './movielens.js';

export const movielens100k = movieLensUnit('movielens-100k', 'u.data: user item rating timestamp, tab-separated, no header; last row wins', (line) => {
  const tab = line.split('\t');
  const numbers = tab.length === 4 && NUM.test(tab[0]!) && NUM.test(tab[1]!) && DEC.test(tab[2]!) && NUM.test(tab[3]!);
  return numbers ? { format: 'movielens-100k', why: 'four tab-separated numbers (user item rating timestamp, like u.data)' } : null;
});
