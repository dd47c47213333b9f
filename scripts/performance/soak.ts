// `npm run soak`: nothing leaks when pwp is killed. Runs `pwp bench` on the vscode-config suite with
// the null agent (short episodes: a reset with the task's set-up, then grading in a verifier
// container, environments recycled between them) until --episodes episodes have results, killing
// the pwp process at random moments with SIGINT or SIGKILL and starting it again (a bench resumes
// from its results). After a SIGKILL, `pwp gc` removes what the killed run left (its containers
// and networks: the killed process's own, never another's). At the end nothing of this user's may
// be left: no container or network of the soak's pwp processes, no new volume. Prints the figures,
// and `--json` one JSON object.
//   node --import tsx scripts/performance/soak.ts [--episodes 1000] [--parallel 2] [--kill-after 20-120] [--json]
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../../host/common/paths';
import { DockerDeployment } from '../../host/deployment/dockerDeployment';
import { HOST_USER, OWNER_LABEL, USER_LABEL } from '../../host/deployment/ownedContainers';

const PWP = join(REPO_ROOT, 'bin', 'pwp');
const { docker } = new DockerDeployment();
const arg = (flag: string, fallback: string) => { const i = process.argv.indexOf(flag); return i < 0 ? fallback : process.argv[i + 1]; };
const EPISODES = Number(arg('--episodes', '1000'));
const PARALLEL = arg('--parallel', '2');
const [KILL_MIN, KILL_MAX] = arg('--kill-after', '20-120').split('-').map(Number);
const json = process.argv.includes('--json');
const say = (l: string) => process.stderr.write(`soak: ${l}\n`);

/** The pwp containers and networks the soak's pwp processes (`pids`) made, and every volume on the engine. */
async function leftovers(pids: ReadonlySet<number>): Promise<{ containers: string[]; networks: string[]; volumes: string[] }> {
  const mine = { label: [`${USER_LABEL}=${HOST_USER}`] };
  const ours = (labels: Record<string, string> | undefined) => pids.has(Number((labels?.[OWNER_LABEL] ?? '').split(':')[1]));
  const [containers, networks, volumes] = await Promise.all([
    docker.listContainers({ all: true, filters: mine }),
    docker.listNetworks({ filters: mine }),
    docker.listVolumes(),
  ]);
  return {
    containers: containers.filter((c) => ours(c.Labels)).map((c) => c.Names[0] ?? c.Id),
    networks: networks.filter((n) => ours(n.Labels)).map((n) => n.Name),
    volumes: (volumes.Volumes ?? []).map((v) => v.Name),
  };
}

function episodesDone(out: string): number {
  const f = join(out, 'results.jsonl');
  return existsSync(f) ? readFileSync(f, 'utf8').split('\n').filter((l) => l.trim()).length : 0;
}

async function main(): Promise<void> {
  const out = mkdtempSync(join(tmpdir(), 'pwp-soak-'));
  const pids = new Set<number>();
  const volumesBefore = new Set((await leftovers(pids)).volumes);
  const attempts = Math.ceil(EPISODES / 26);
  const t0 = Date.now();
  const kills = { SIGINT: 0, SIGKILL: 0 };
  const collected: string[] = [];
  let runs = 0;
  while (episodesDone(out) < EPISODES) {
    runs++;
    const child = spawn(PWP, ['bench', 'vscode-config', '--agent', 'null', '--attempts', String(attempts), '--parallel', PARALLEL, '--out', out, '--no-video', '--json'],
      { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr.on('data', () => undefined);
    if (child.pid) pids.add(child.pid);
    const ended = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const after = (KILL_MIN + Math.random() * (KILL_MAX - KILL_MIN)) * 1000;
    const signal: 'SIGINT' | 'SIGKILL' = Math.random() < 0.5 ? 'SIGINT' : 'SIGKILL';
    let killed = false;
    const timer = setTimeout(() => { killed = true; kills[signal]++; child.kill(signal); }, after);
    const code = await ended;
    clearTimeout(timer);
    const done = episodesDone(out);
    say(`run ${runs}: ${killed ? `killed by ${signal}${code === null ? '' : ` (exited ${code})`}` : `exited ${code}`} after ${((Date.now() - t0) / 1000).toFixed(0)} s; ${done} of ${EPISODES} episodes`);
    if (killed && signal === 'SIGKILL') {
      const { stdout } = await promisify(execFile)(PWP, ['gc', '--json']);
      const removed = JSON.parse(stdout) as { kind: string; name: string }[];
      collected.push(...removed.map((r) => `${r.kind} ${r.name}`));
      say(`  pwp gc removed ${removed.length}: ${removed.map((r) => r.kind).join(', ') || 'nothing'}`);
    }
    if (!killed && code !== 0 && done < EPISODES) throw new Error(`pwp bench exited ${code} on its own (see ${out})`);
  }
  // The last run may have been killed as it finished.
  await promisify(execFile)(PWP, ['gc']);
  const after = await leftovers(pids);
  const newVolumes = after.volumes.filter((v) => !volumesBefore.has(v));
  const figures = {
    episodes: episodesDone(out), runs, kills, wallSeconds: Math.round((Date.now() - t0) / 1000),
    episodesPerHour: Math.round((episodesDone(out) * 3_600_000) / (Date.now() - t0)),
    collectedByGc: collected.length, leftContainers: after.containers, leftNetworks: after.networks, leftVolumes: newVolumes,
  };
  console.log(`soak: ${figures.episodes} episodes in ${runs} runs of pwp bench, killed ${kills.SIGINT} times by SIGINT and ${kills.SIGKILL} by SIGKILL, `
    + `${figures.wallSeconds} s (${figures.episodesPerHour} episodes/hour); pwp gc collected ${collected.length} leftovers of killed runs; `
    + `left at the end: ${after.containers.length} containers, ${after.networks.length} networks, ${newVolumes.length} volumes`);
  if (json) console.log(JSON.stringify(figures));
  rmSync(out, { recursive: true, force: true });
  if (after.containers.length || after.networks.length || newVolumes.length) process.exitCode = 1;
}

main().catch((err: Error) => { console.error(`soak: ${err.message}`); process.exit(1); });
