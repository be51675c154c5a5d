/** Pieces several format units use: the first line's shapes, schemas of common values, a required file. */
import { UserError } from '../../util/errors.js';
import type { DatasetSpec } from '../spec.js';
import type { InputKey, Zod } from './unit.js';

/** A whole number / a decimal number, as a field of a first line. */
export const NUM = /^\d+$/;
export const DEC = /^-?\d+(\.\d+)?$/;
/** A comma-separated field without its surrounding quotes. */
export const unquote = (s: string): string => s.trim().replace(/^"(.*)"$/, '$1');

/** Schemas of common values, made with the config schema's zod (unit.ts KeySchema). */
export const finite = (z: Zod) => z.number().refine(Number.isFinite, 'must be a finite number');
export const posInt = (z: Zod) => z.number().int().min(1);

/** An input key's file: present and non-empty, else an error naming the data set and the key. */
export function requirePath(spec: DatasetSpec, key: InputKey): string {
  const p = spec[key];
  if (typeof p !== 'string' || p === '') throw new UserError(`dataset ${spec.name}: ${key} is required for format ${spec.format}`);
  return p;
}
