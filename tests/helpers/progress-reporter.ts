import { relative } from 'node:path';
import type { Reporter, TestModule, TestSpecification, Vitest } from 'vitest/node';

/**
 * One line per test file as it finishes: `tests: [12/150] ✓ tests/cli/run.test.ts (8.1 s; 64 s in)`,
 * so a suite on a loaded machine never looks hung (vitest's own reporter, in a log or under a
 * pipe, says nothing until the end; in a terminal its lines go above vitest's live status).
 */
export default class ProgressReporter implements Reporter {
  private total = 0;
  private done = 0;
  private started = Date.now();
  private log: (line: string) => void = (line) => process.stderr.write(`${line}\n`);

  onInit(vitest: Vitest): void {
    this.log = (line) => vitest.logger.log(line);
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.total = specifications.length;
    this.done = 0;
    this.started = Date.now();
  }

  onTestModuleEnd(module: TestModule): void {
    this.done++;
    const mark = module.state() === 'failed' ? '✗' : module.state() === 'skipped' ? '-' : '✓';
    const took = (module.diagnostic().duration / 1000).toFixed(1);
    const since = Math.round((Date.now() - this.started) / 1000);
    this.log(`tests: [${this.done}/${this.total}] ${mark} ${relative(process.cwd(), module.moduleId)} (${took} s; ${since} s in)`);
  }
}
