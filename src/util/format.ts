/** 1,260: counts in messages (the same in every locale). */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}
