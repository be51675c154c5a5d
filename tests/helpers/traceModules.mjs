// Preloaded with `node --import tests/helpers/traceModules.mjs …`: appends the URL of every module
// the process loads to the file named by $LSHDP_TRACE_MODULES, one a line: the ES modules as the
// loader loads them (traceModulesHooks.mjs), the CommonJS ones from require's cache at exit.
// tests/cli/startup.test.ts reads what a light command loads.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';

const file = process.env.LSHDP_TRACE_MODULES;
if (file) {
  register('./traceModulesHooks.mjs', { parentURL: import.meta.url, data: { file } });
  const require = createRequire(import.meta.url);
  process.on('exit', () => {
    const urls = Object.keys(require.cache).map((f) => pathToFileURL(f).href);
    appendFileSync(file, urls.map((u) => `${u}\n`).join(''));
  });
}
