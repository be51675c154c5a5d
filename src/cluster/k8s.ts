/**
 * `lshdp cluster k8s`: a Kubernetes Indexed Job (one pod per shard, `--shard auto` reads
 * JOB_COMPLETION_INDEX) and a merge Job, both on a ReadWriteMany volume holding the results
 * folder. Kubernetes has no job dependencies: apply the Indexed Job, `kubectl wait
 * --for=condition=complete`, then apply the merge Job. lshdp writes the manifests, never submits.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from '../vendor/yaml.js';
import { writeFileAtomicSync } from '../util/atomic.js';

export interface K8sPlan {
  name: string;
  shards: number;
  image: string;
  /** the config's path inside the image (or on the volume) */
  config: string;
  /** the results folder on the volume */
  out: string;
  /** the PersistentVolumeClaim (ReadWriteMany) mounted at /results */
  claim: string;
  cpus: number;
}

const safe = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50) || 'lshdp';

function podSpec(plan: K8sPlan, args: string[]) {
  return {
    restartPolicy: 'Never',
    containers: [
      {
        name: 'lshdp',
        image: plan.image,
        args,
        resources: { requests: { cpu: String(plan.cpus) } },
        volumeMounts: [{ name: 'results', mountPath: '/results' }],
      },
    ],
    volumes: [{ name: 'results', persistentVolumeClaim: { claimName: plan.claim } }],
  };
}

export function indexedJob(plan: K8sPlan): Record<string, unknown> {
  const out = `/results/${plan.out}`;
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: `lshdp-${safe(plan.name)}` },
    spec: {
      completionMode: 'Indexed',
      completions: plan.shards,
      parallelism: plan.shards,
      // a failed pod is retried and resumes from the shard's stored cells
      backoffLimitPerIndex: 3,
      template: {
        spec: podSpec(plan, [
          'sh',
          '-c',
          `lshdp run ${plan.config} --shard auto --shards ${plan.shards} --out ${out}/shards/$((JOB_COMPLETION_INDEX + 1))of${plan.shards} --threads ${plan.cpus} --no-report -q`,
        ]),
      },
    },
  };
}

export function mergeJob(plan: K8sPlan): Record<string, unknown> {
  const out = `/results/${plan.out}`;
  const shards = Array.from({ length: plan.shards }, (_, i) => `${out}/shards/${i + 1}of${plan.shards}`);
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: `lshdp-${safe(plan.name)}-merge` },
    spec: { backoffLimit: 1, template: { spec: podSpec({ ...plan, cpus: 1 }, ['lshdp', 'merge', ...shards, '--out', out, '-q']) } },
  };
}

/** Write DIR/cluster/{indexed-job,merge-job}.yaml and DIR/cluster.json; returns the two paths. */
export function writeK8sManifests(plan: K8sPlan, dir: string): string[] {
  const scripts = join(dir, 'cluster');
  mkdirSync(scripts, { recursive: true });
  const files = [join(scripts, 'indexed-job.yaml'), join(scripts, 'merge-job.yaml')];
  writeFileAtomicSync(files[0]!, `# kubectl apply -f ${files[0]}\n# kubectl wait --for=condition=complete --timeout=24h job/lshdp-${safe(plan.name)}\n${stringify(indexedJob(plan))}`);
  writeFileAtomicSync(files[1]!, `# after the indexed job completed: kubectl apply -f ${files[1]}\n${stringify(mergeJob(plan))}`);
  writeFileAtomicSync(join(dir, 'cluster.json'), JSON.stringify({ engine: 'kubernetes', shards: plan.shards, config: plan.config, out: plan.out, image: plan.image, scripts: files }, null, 2) + '\n');
  return files;
}
