/** `lshdp cluster slurm | k8s`: scripts for a sharded run on an existing engine. */
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { UserError } from '../util/errors.js';
import { cliIo } from './io.js';
import { intArg, quietOption } from './options.js';
import { purpose } from './commands.js';

interface SlurmFlags {
  shards: number;
  out?: string;
  partition?: string;
  time?: string;
  cpusPerTask?: number;
  mem?: string;
  sbatchArg?: string[];
  submit?: boolean;
  wait?: boolean;
  quiet?: boolean;
}

interface K8sFlags {
  shards: number;
  image: string;
  out?: string;
  claim: string;
  cpus: number;
  quiet?: boolean;
}

const collect = (v: string, prev: string[] | undefined) => [...(prev ?? []), v];

export function registerCluster(program: Command): void {
  const cluster = program.command('cluster').description(purpose('cluster'));
  cluster
    .command('slurm')
    .description('write array.sbatch (one task per shard) and merge.sbatch into DIR/cluster; --submit submits both, --wait waits for the merge')
    .argument('<config>', 'experiment config (YAML)')
    .requiredOption('--shards <n>', 'number of shards (array tasks)', intArg('--shards', 1))
    .option('-o, --out <dir>', 'results folder (default: results/<config name>); scripts in DIR/cluster, shards in DIR/shards')
    .option('--partition <p>', 'sbatch --partition')
    .option('--time <t>', 'sbatch --time, per task')
    .option('--cpus-per-task <c>', 'sbatch --cpus-per-task (the threads of each task)', intArg('--cpus-per-task', 1))
    .option('--mem <m>', 'sbatch --mem, per task')
    .option('--sbatch-arg <arg>', 'another #SBATCH line, e.g. --sbatch-arg=--account=abc (repeatable)', collect)
    .option('--submit', 'submit the array and the merge (afterok dependency) with sbatch')
    .option('--wait', 'with --submit: wait until the merge has ended; exit 0 only when DIR holds the merged results')
    .addOption(quietOption('no informational lines (what was written, how to submit, the job ids)'))
    .action(async (config: string, o: SlurmFlags) => {
      if (o.wait && !o.submit) throw new UserError('--wait: only with --submit');
      const [{ loadConfig }, slurm] = await Promise.all([import('../experiment/config.js'), import('../cluster/slurm.js')]);
      const cfg = loadConfig(config);
      const out = resolve(o.out ?? `results/${cfg.name}`);
      const record = slurm.writeSlurmScripts({
        config: resolve(config),
        out,
        name: cfg.name,
        shards: o.shards,
        node: process.execPath,
        lshdp: resolve(process.argv[1] ?? 'lshdp'),
        partition: o.partition,
        time: o.time,
        cpusPerTask: o.cpusPerTask,
        mem: o.mem,
        sbatchArgs: o.sbatchArg ?? [],
      });
      const err = o.quiet ? () => undefined : cliIo().err;
      err(`lshdp: wrote ${record.scripts.join(' and ')} (${o.shards} shards into ${out}/shards, merged into ${out})\n`);
      if (!o.submit) {
        err(`lshdp: submit with: jid=$(sbatch --parsable ${record.scripts[0]}) && sbatch --dependency=afterok:$jid --kill-on-invalid-dep=yes ${record.scripts[1]}\n`);
        return;
      }
      const done = slurm.submitSlurm(record);
      err(`lshdp: submitted array job ${done.jobs!.array} and merge job ${done.jobs!.merge}; watch them with: squeue -j ${done.jobs!.array},${done.jobs!.merge}\n`);
      if (!o.wait) return;
      const ok = await slurm.waitSlurm(done);
      if (!ok)
        throw new UserError(
          `the jobs ended without the merged results in ${out}; lshdp status ${out}/shards/*of${o.shards} says which shards are incomplete, and ${out}/cluster/logs holds the tasks' output`,
        );
      err(`lshdp: merged results in ${out}\n`);
    });
  cluster
    .command('k8s')
    .description('write a Kubernetes Indexed Job (one pod per shard) and a merge Job into DIR/cluster (lshdp does not submit them)')
    .argument('<config>', 'experiment config, as the image sees it (e.g. configs/paper-movielens.yaml)')
    .requiredOption('--shards <n>', 'number of shards (completions)', intArg('--shards', 1))
    .requiredOption('--image <image>', 'container image with lshdp (the Dockerfile builds one)')
    .option('-o, --out <dir>', 'where the manifests go, and the results folder under /results on the volume (default: results/<config name>)')
    .option('--claim <pvc>', 'PersistentVolumeClaim (ReadWriteMany) mounted at /results', 'lshdp-results')
    .option('--cpus <c>', 'CPUs requested per pod (its threads)', intArg('--cpus', 1), 2)
    .addOption(quietOption('no informational line (what was written, how to apply it)'))
    .action(async (config: string, o: K8sFlags) => {
      const [{ loadConfig }, k8s] = await Promise.all([import('../experiment/config.js'), import('../cluster/k8s.js')]);
      const cfg = loadConfig(config);
      const dir = o.out ?? `results/${cfg.name}`;
      const files = k8s.writeK8sManifests({ name: cfg.name, shards: o.shards, image: o.image, config, out: cfg.name, claim: o.claim, cpus: o.cpus }, dir);
      if (!o.quiet)
        cliIo().err(`lshdp: wrote ${files.join(' and ')}; kubectl apply -f ${files[0]}, wait for it to complete (kubectl wait --for=condition=complete job/...), then kubectl apply -f ${files[1]}\n`);
    });
}
