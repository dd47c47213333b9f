// pwp k8s manifests TASK: the Kubernetes objects one episode of TASK would need (pod, service,
// network policies, verifier job), as YAML for review or `kubectl apply -f -`. No cluster is
// contacted. The bridge tokens' Secrets are made apart; how is printed on stderr, never a value.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { stringify } from 'yaml';
import { episodeManifests, namespaceDefaultDeny, tokenSecretCommands } from '../../deployment/kubernetes/episodeManifests';
import { resolveTasks } from '../../taskEnv/loadTask';
import { UsageError } from '../output';

export function register(program: Command): void {
  const k8s = program.command('k8s').description('Kubernetes, designed on paper (docs/scale-out.md): what pwp would create on a cluster');
  k8s.command('manifests')
    .description('print the manifests of one episode of a task: environment pod, bridge service, network policies, verifier job')
    .argument('<task>', 'a bundled task (<suite>/<id>) or a task folder')
    .option('--namespace <ns>', 'namespace of every object', 'pwp')
    .option('--image <ref>', 'the IDE image as the cluster pulls it (a registry reference)', 'registry.example:5000/pwp-ide:latest')
    .option('--verifier-image <ref>', 'the verifier\'s image (default: --image)')
    .option('--episode <id>', 'episode id naming the objects (default: random)')
    .option('--out <dir>', 'write one YAML file per object there instead of printing')
    .action((sel: string, o: { namespace: string; image: string; verifierImage?: string; episode?: string; out?: string }) => {
      const tasks = resolveTasks([sel]);
      if (tasks.length !== 1) throw new UsageError(`name one task, not ${tasks.length} (${sel})`);
      if (!/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(o.namespace)) throw new UsageError(`--namespace '${o.namespace}' is not a Kubernetes namespace name`);
      const episode = o.episode ?? randomBytes(4).toString('hex');
      const objects = [namespaceDefaultDeny(o.namespace), ...episodeManifests(tasks[0], { episode, namespace: o.namespace, image: o.image, verifierImage: o.verifierImage })];
      if (o.out) {
        mkdirSync(o.out, { recursive: true });
        objects.forEach((obj, i) => writeFileSync(join(o.out!, `${String(i).padStart(2, '0')}-${(obj.kind ?? "object").toLowerCase()}-${obj.metadata!.name}.yaml`), stringify(obj)));
        console.error(`wrote ${objects.length} manifests to ${o.out}`);
      } else {
        process.stdout.write(objects.map((obj) => stringify(obj)).join('---\n'));
      }
      console.error(`first create the bridge tokens' Secrets (values never pass through pwp):\n  ${tokenSecretCommands({ episode, namespace: o.namespace }).join('\n  ')}`);
    });
}
