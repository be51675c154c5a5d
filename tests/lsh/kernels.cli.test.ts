import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_CONFIG, runIn, scratch } from '../helpers/experiment.js';

describe('Hamming kernels end to end', () => {
  it('give byte-identical utility.csv with the WebAssembly and the forced JS kernel', async () => {
    // kappa 16 and 40: the <= 32-bit and the 64-bit lanes of the WebAssembly kernel
    const { dir, config } = scratch(CLI_CONFIG.replace('kappa: [8, 16]', 'kappa: [16, 40]').replace('dims: [40, 80]', 'dims: [80]').replace('trials: 3', 'trials: 2'));
    const args = (out: string) => ['run', config, '--out', out, '--threads', '1', '--no-report', '--no-cache', '--quiet'];
    const wasm = runIn(dir, args('wasm'));
    expect(wasm.status, wasm.stderr).toBe(0);
    // a child process of its own: the kernel is chosen once per process
    const js = runIn(dir, args('js'), undefined, { LSHDP_KERNEL: 'js' });
    expect(js.status, js.stderr).toBe(0);
    const kernel = (out: string) => JSON.parse(readFileSync(join(dir, out, 'manifest.json'), 'utf8')).kernel as string;
    expect(kernel('js')).toMatch(/js/i);
    expect(kernel('wasm')).not.toBe(kernel('js'));
    for (const f of ['utility.csv', 'nn_distances.csv']) {
      expect(readFileSync(join(dir, 'js', f), 'utf8'), f).toBe(readFileSync(join(dir, 'wasm', f), 'utf8'));
    }
  });
});
