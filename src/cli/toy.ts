import type { Command } from 'commander';
import { UserError } from '../util/errors.js';
import type { analyzeToy, Point2 } from '../privacy/toy.js';
import { purpose } from './commands.js';

export function registerToy(program: Command): void {
  program
    .command('toy')
    .description(purpose('toy'))
    .option('--points <list>', '2-D input points "x,y;x,y;..." (default: the paper\'s "0,1;1,0;1,1")')
    .option('--json', 'print the analysis as JSON')
    .action(async (opts: { points?: string; json?: boolean }) => {
      const { analyzeToy, formatToy, parsePoints, PAPER_POINTS } = await import('../privacy/toy.js');
      let points: Point2[] = PAPER_POINTS;
      if (opts.points !== undefined) {
        try {
          points = parsePoints(opts.points);
        } catch (e) {
          throw new UserError(`--points: ${(e as Error).message}`);
        }
      }
      let result: ReturnType<typeof analyzeToy>;
      try {
        result = analyzeToy(points);
      } catch (e) {
        throw new UserError(`--points: ${(e as Error).message}`);
      }
      process.stdout.write(opts.json ? JSON.stringify(result, null, 2) + '\n' : formatToy(result));
    });
}
