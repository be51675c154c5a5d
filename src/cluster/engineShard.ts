/**
 * `lshdp run CONFIG --shard auto --shards N [--shard-base B]`: the shard of a task of an existing
 * engine, from the index the engine gives it: `SLURM_ARRAY_TASK_ID` (Slurm job arrays) or
 * `JOB_COMPLETION_INDEX` (Kubernetes Indexed Jobs). Shard i = (index − B) + 1 of N; N always comes
 * from the flag (or LSHDP_SHARDS), never from the engine's task count, so a task resubmitted alone
 * (`sbatch --array=2 …`) still computes only its own share. The engine, its index and the job's
 * identity go into the shard's manifest.
 */
import type { EngineTask, ShardSpec } from '../machinery/shards.js';
import { engineTask } from '../machinery/engineTask.js';

export type { EngineTask };
export { engineTask };
import { UserError } from '../util/errors.js';

export interface AutoShard extends ShardSpec {
  task: EngineTask;
}

const INDEX = /^\d+$/;

/** The shard count: --shards, else LSHDP_SHARDS. */
export function shardCount(flag: string | undefined, env: NodeJS.ProcessEnv): number {
  const text = flag ?? env.LSHDP_SHARDS;
  if (text === undefined) throw new UserError("--shard auto: give the number of shards with --shards N (or LSHDP_SHARDS); the engine's task count is not used");
  if (!INDEX.test(text.trim()) || Number(text) < 1) throw new UserError(`--shards: expected a positive integer, got "${text}"`);
  return Number(text);
}

/** `--shard auto`: shard (index − base) + 1 of `count`, with the task that said so. */
export function autoShard(opts: { shards?: string; base?: string; env?: NodeJS.ProcessEnv }): AutoShard {
  const env = opts.env ?? process.env;
  const count = shardCount(opts.shards, env);
  const baseText = opts.base ?? '0';
  if (!INDEX.test(baseText.trim())) throw new UserError(`--shard-base: expected an integer >= 0, got "${baseText}"`);
  const base = Number(baseText);
  const task = engineTask(env);
  if (!task) throw new UserError('--shard auto: no engine index in the environment (SLURM_ARRAY_TASK_ID of a Slurm array task, JOB_COMPLETION_INDEX of a Kubernetes Indexed Job); give --shard i/N');
  const index = task.index - base + 1;
  if (index < 1 || index > count) {
    throw new UserError(`--shard auto: ${task.variable}=${task.index} with --shard-base ${base} gives shard ${index}, outside 1..${count} (--shards ${count})`);
  }
  return { index, count, task };
}
