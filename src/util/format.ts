/**
 * `1260` → `1,260`: counts in messages, rounded to an integer, always with en-US grouping whatever
 * the locale, so logs compare across machines. Written out rather than with Intl.NumberFormat,
 * whose first use costs a command ~20 ms of start-up.
 */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return n.toLocaleString('en-US');
  // halves away from zero, as Intl rounds
  const r = Math.sign(n) * Math.round(Math.abs(n));
  const digits = String(Math.abs(r)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return r < 0 || Object.is(r, -0) ? `-${digits}` : digits;
}
