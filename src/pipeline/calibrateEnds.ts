/**
 * The end-of-run summary of `lshdp calibrate` (docs/ATTACKS.md "Calibrating ξ"): per (data set, n,
 * κ, entry) and target set, whether the crossing is bracketed (within 5% in ξ, or an end near T) and,
 * for each one that is not, why: none (even the smallest ξ exceeds T), no crossing (the noise-free
 * limit meets T, or flat, with the evidence), or the rounds ran out.
 */
import type { CrossingEnd } from './calibrate.js';

const num = (x: number): string => String(+x.toPrecision(3));

/** Whether the search of this crossing ended with it bracketed. */
export const isBracketed = (e: CrossingEnd): boolean => e.state === 'bracketed' || e.state === 'near' || e.state === 'resolution';

/** Why, in words, one crossing's search ended where it did. */
export function endReason(e: CrossingEnd): string {
  const b = e.bracket;
  const at = b === null ? '' : b[0] === b[1] ? `ξ* ${num(e.xi)} (the top)` : `ξ* ${num(e.xi)} in [${b[0]}, ${b[1]}]`;
  const { name, target } = e.binding;
  const ev = e.evidence;
  switch (e.state) {
    case 'bracketed':
      return `bracketed within 5%: ${at}`;
    case 'resolution':
      return `bracketed (no 6-digit ξ inside): ${at}`;
    case 'near':
      return `bracketed (an end within max(2 SE, 0.1 T) of T): ${at}`;
    case 'none':
      return `not bracketed: none (even the smallest ξ exceeds ${name} ≤ ${target})`;
    case 'ceiling':
      return `not bracketed: no crossing: the noise-free limit meets T (clean lsh's ${name} ${num(ev!.from)} ± ${num(ev!.se)} ≤ ${target}; the entry's success rises to it at most)`;
    case 'flat':
      return `not bracketed: flat below T (${name} ${num(ev!.from)} at ξ ${ev!.xiFrom} to ${num(ev!.to)} at ξ ${ev!.xiTo}, within 2 SE: ${num(ev!.se)})`;
    default:
      return `not bracketed: the rounds ran out (${at}${e.state === 'beyond' ? ', every ξ meets T: the crossing lies above' : ''})`;
  }
}

/** Per crossing a line, then one line of totals. */
export function endLines(ends: readonly CrossingEnd[]): string[] {
  const lines = ends.map((e) => `${e.dataset} n ${e.n} κ ${e.kappa} ${e.label} (${e.target}): ${endReason(e)}`);
  const count = (f: (e: CrossingEnd) => boolean) => ends.filter(f).length;
  const not = [
    [count((e) => e.state === 'none'), 'none'],
    [count((e) => e.state === 'ceiling'), 'noise-free limit meets T'],
    [count((e) => e.state === 'flat'), 'flat'],
    [count((e) => !isBracketed(e) && !['none', 'ceiling', 'flat'].includes(e.state)), 'rounds ran out'],
  ].filter(([c]) => (c as number) > 0);
  lines.push(
    `calibrate: ${count(isBracketed)} of ${ends.length} crossings bracketed (${count((e) => e.state !== 'near' && isBracketed(e))} within 5%, ${count((e) => e.state === 'near')} near T)` +
      (not.length > 0 ? `; not bracketed: ${not.map(([c, w]) => `${c} ${w}`).join(', ')}` : ''),
  );
  return lines;
}
