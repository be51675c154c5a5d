/**
 * What changed between the config that last ran in a results folder and this one, in one line:
 * `xi +[0.3]; kappa -[10]; seed 1 → 2`. Only for the user's eyes: what is reused is decided by
 * the results' hashes, never by this description.
 */
import { stableStringify } from '../util/hash.js';

type Doc = Record<string, unknown>;

function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function show(v: unknown): string {
  return typeof v === 'string' ? v : stableStringify(v);
}

/** `+[a, b] -[c]` for the values added to and removed from a list axis; '' when equal as sets. */
function listDiff(before: unknown[], after: unknown[]): string {
  const b = new Set(before.map(show));
  const a = new Set(after.map(show));
  const added = [...a].filter((x) => !b.has(x));
  const removed = [...b].filter((x) => !a.has(x));
  const parts: string[] = [];
  if (added.length > 0) parts.push(`+[${added.join(', ')}]`);
  if (removed.length > 0) parts.push(`-[${removed.join(', ')}]`);
  return parts.join(' ');
}

function labelOf(m: unknown): string {
  if (typeof m === 'string') return m;
  const o = m as Doc;
  return String(o.label ?? o.name);
}

/** The description, or null when nothing that matters changed. */
export function describeChanges(before: Doc, after: Doc): string | null {
  const parts: string[] = [];
  const axis = (name: string, b: unknown, a: unknown) => {
    const d = listDiff(list(b), list(a));
    if (d) parts.push(`${name} ${d}`);
  };
  const scalar = (name: string, b: unknown, a: unknown) => {
    if (show(b) !== show(a)) parts.push(`${name} ${show(b)} → ${show(a)}`);
  };
  const bp = (before.privacy ?? {}) as Doc;
  const ap = (after.privacy ?? {}) as Doc;
  axis(
    'datasets',
    list(before.datasets).map((d) => (d as Doc).name),
    list(after.datasets).map((d) => (d as Doc).name),
  );
  axis('dims', before.dims, after.dims);
  axis('kappa', before.kappa, after.kappa);
  axis('k', before.k, after.k);
  axis('xi', bp.xi, ap.xi);
  scalar('trials', before.trials, after.trials);
  axis('mechanisms', list(before.mechanisms).map(labelOf), list(after.mechanisms).map(labelOf));
  // an entry kept under its label but with other options
  const beforeByLabel = new Map(list(before.mechanisms).map((m) => [labelOf(m), show(m)]));
  for (const m of list(after.mechanisms)) {
    const prev = beforeByLabel.get(labelOf(m));
    if (prev !== undefined && prev !== show(m)) parts.push(`mechanism ${labelOf(m)} options changed`);
  }
  scalar('seed', before.seed, after.seed);
  scalar('queries', before.queries, after.queries);
  scalar('d', bp.d, ap.d);
  scalar('delta', bp.delta, ap.delta);
  const bd = new Map(list(before.datasets).map((d) => [(d as Doc).name, show(d)]));
  for (const d of list(after.datasets)) {
    const prev = bd.get((d as Doc).name);
    if (prev !== undefined && prev !== show(d)) parts.push(`data set ${String((d as Doc).name)} changed`);
  }
  return parts.length > 0 ? parts.join('; ') : null;
}
