/** `movielens-1m`: ratings.dat of MovieLens 1M (also the layout of 10M, which detection cannot tell apart). */
import { DEC, NUM } from './shared.js';
import { movieLensUnit } from './movielens.js';

export const movielens1m = movieLensUnit('movielens-1m', "ratings.dat: UserID::MovieID::Rating::Timestamp, '::'-separated, no header; last row wins", (line) => {
  const colons = line.split('::');
  const numbers = colons.length === 4 && NUM.test(colons[0]!) && NUM.test(colons[1]!) && DEC.test(colons[2]!) && NUM.test(colons[3]!);
  return numbers ? { format: 'movielens-1m', why: "four '::'-separated numbers (movielens-1m; movielens-10m has the same layout)" } : null;
});
