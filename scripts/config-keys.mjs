// Rewrites SET_KEYS in src/cli/configKeys.ts from the built config schema (run `npm run build` first):
// the keys `lshdp run --set` reaches, which the completion scripts offer without loading the schema.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { knownKeys } from '../dist/experiment/config/schema.js';
import { setKeysOf } from '../dist/cli/configKeys.js';

const file = fileURLToPath(new URL('../src/cli/configKeys.ts', import.meta.url));
const text = readFileSync(file, 'utf8');
const start = text.indexOf('export const SET_KEYS');
const list = setKeysOf(knownKeys())
  .map((k) => `  '${k}',\n`)
  .join('');
writeFileSync(file, `${text.slice(0, start)}export const SET_KEYS: readonly string[] = [\n${list}];\n`);
