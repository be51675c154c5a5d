/** `movielens-10m`: ratings.dat of MovieLens 10M (detected as movielens-1m: the same layout). */
import { movieLensUnit } from './movielens.js';

export const movielens10m = movieLensUnit('movielens-10m', "ratings.dat: as movielens-1m ('::'-separated, no header); last row wins");
