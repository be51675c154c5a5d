/** A CSV field, quoted only when it must be (it holds a comma, a quote or a line break): names are
 *  restricted, but user ids are free text. */
export function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
