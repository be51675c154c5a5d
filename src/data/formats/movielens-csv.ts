/** `movielens-csv`: ratings.csv of MovieLens 20M, 25M and latest-small. */
import { unquote } from './shared.js';
import { movieLensUnit } from './movielens.js';

const HEADER = 'userId,movieId,rating,timestamp';

export const movielensCsv = movieLensUnit('movielens-csv', `ratings.csv: header ${HEADER}, comma-separated; repeated (user, movie): last row wins`, (line) =>
  line.split(',').map(unquote).join(',') === HEADER ? { format: 'movielens-csv', why: `header ${HEADER}` } : null,
);
