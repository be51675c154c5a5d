// Rewrites SET_KEYS in src/cli/configKeys.ts from the built config schema (`npm run config-keys`
// builds first): the keys `lshdp run --set` reaches, which the completion scripts offer without
// loading the schema. When the list changed it builds again, so dist/ (what `lshdp` and its
// completion run) holds the new keys at once, not after the next build.
import { spawnSync } from 'node:child_process';
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
const next = `${text.slice(0, start)}export const SET_KEYS: readonly string[] = [\n${list}];\n`;
if (next === text) {
  console.log('src/cli/configKeys.ts is current');
} else {
  writeFileSync(file, next);
  console.log('rewrote src/cli/configKeys.ts; building again so dist/ has the new keys');
  const r = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', cwd: fileURLToPath(new URL('..', import.meta.url)) });
  process.exit(r.status ?? 1);
}
