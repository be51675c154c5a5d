/** Distinct values in first-seen order (files are written in config order, which we keep). */
export function uniqueInOrder<T>(xs: Iterable<T>): T[] {
  return [...new Set(xs)];
}
