/**
 * The engine task this process runs as (a Slurm array task, a Kubernetes Indexed Job pod), read
 * from the environment: for `--shard auto` (src/cluster/engineShard.ts) and for the folder lock,
 * which lets a requeued task take over the lock its earlier attempt left.
 */
import type { EngineTask } from './shards.js';
import { UserError } from '../util/errors.js';

const INDEX = /^\d+$/;

/** The engine's task, or null outside an engine. */
export function engineTask(env: NodeJS.ProcessEnv): EngineTask | null {
  const slurm = env.SLURM_ARRAY_TASK_ID;
  if (slurm !== undefined) {
    if (!INDEX.test(slurm.trim())) throw new UserError(`--shard auto: SLURM_ARRAY_TASK_ID is "${slurm}", not an array index`);
    const restart = env.SLURM_RESTART_COUNT;
    return {
      engine: 'slurm',
      variable: 'SLURM_ARRAY_TASK_ID',
      index: Number(slurm),
      job: env.SLURM_ARRAY_JOB_ID ?? env.SLURM_JOB_ID ?? null,
      restart: restart !== undefined && INDEX.test(restart) ? Number(restart) : 0,
    };
  }
  const k8s = env.JOB_COMPLETION_INDEX;
  if (k8s !== undefined) {
    if (!INDEX.test(k8s.trim())) throw new UserError(`--shard auto: JOB_COMPLETION_INDEX is "${k8s}", not a completion index`);
    return { engine: 'kubernetes', variable: 'JOB_COMPLETION_INDEX', index: Number(k8s), job: env.JOB_NAME ?? null, restart: null };
  }
  return null;
}
