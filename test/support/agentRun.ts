// Runs one model agent on one bundled task in a real container, against the scripted model
// server, through the same task Env (makeEnv) a `pwp run` uses: set-up, the agent (recorded),
// and grading in a verifier. Before the environment goes it looks for the API key everywhere the
// container could hold it (its configured environment, the environment of a process started
// in it, its files), so every agent test is also a leak test.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeModelAgent, type ModelAgentConfig, type ModelAgentName } from '../../host/agents/modelAgentSettings';
import { DockerDeployment } from '../../host/deployment/dockerDeployment';
import type { EvaluationResult } from '../../host/evaluation/evaluationResult';
import { resolveTasks, type Task } from '../../host/taskEnv/loadTask';
import { makeEnv, type TaskEnv } from '../../host/taskEnv/taskEnv';
import { readTrajectory, type TrajectoryRecord } from '../../host/trajectory/trajectoryFile';
import { actOn, type ActResult } from './actOnEnv';
import { testImage } from '../integration/environmentFixture';
import { requestProblems } from './providerRequestSchemas';
import { ScriptedModelServer, type Script } from './scriptedModelServer';

export interface AgentRunOptions {
  task: string;
  agent: ModelAgentName;
  /** `--model` as a user would give it, e.g. openai:scripted-model. */
  model: string;
  script: Script;
  config?: Partial<ModelAgentConfig>;
  /** Variables the model config reads (keys, base URLs); set on process.env for the run only. */
  env?: (server: ScriptedModelServer) => Record<string, string>;
  /** Changes to the task before it starts (e.g. another display size). */
  adjust?: (task: Task) => Task;
  /** Serve the live view, so a person (the test) can watch and answer ask_person. */
  view?: boolean;
  /** Gives the script access to the session once it runs (the script may look at the IDE). */
  onSession?: (session: TaskEnv) => void;
}

export interface AgentRunResult {
  acted: ActResult;
  evaluation: EvaluationResult;
  server: ScriptedModelServer;
  records: TrajectoryRecord[];
  runDir: string;
  /** Problems of each request against its provider's documented shape, by request index. */
  requestProblems: { n: number; problems: string[] }[];
  /** Where the secret turned up inside the container (should be nowhere). */
  leaks: string[];
}

export async function runScriptedAgent(o: AgentRunOptions): Promise<AgentRunResult> {
  const image = await testImage();
  const server = await ScriptedModelServer.start(o.script);
  const vars = o.env?.(server) ?? {};
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  let env: ReturnType<typeof makeEnv> | undefined;
  try {
    const { agent } = makeModelAgent(o.agent, { model: o.model, ...o.config });
    let task = resolveTasks([o.task])[0];
    if (o.adjust) task = o.adjust(task);
    const runDir = mkdtempSync(join(tmpdir(), `pwp-agent-${o.agent}-`));
    env = makeEnv(task, { image, labels: { 'pwp.test': '1' }, observe: [], view: o.view });
    await env.reset();
    const session = env.unwrapped;
    o.onSession?.(session);
    const acted = await actOn(env, agent, task, runDir);
    const leaks = await findSecrets(session, Object.values(vars).filter((v) => v.length >= 16));
    // The search must be able to find a secret that is there: plant a canary and look for it.
    const canary = `canary-${randomBytes(12).toString('hex')}`;
    await session.client.call('tools.call', { name: 'bash', args: { command: `echo ${canary} > /tmp/pwp-canary.txt` } });
    if ((await findSecrets(session, [canary])).length === 0) throw new Error('the secret search did not find a planted canary: it cannot be trusted');
    const evaluation = session.episodeOver === 'done' && session.evaluation ? session.evaluation : await session.grade();
    const records = readTrajectory(runDir).records;
    for (const v of Object.values(vars).filter((x) => x.length >= 16)) {
      if (readFileSync(join(runDir, 'trajectory.jsonl'), 'utf8').includes(v)) leaks.push('the trajectory');
    }
    return {
      acted, evaluation, server, records, runDir, leaks,
      requestProblems: server.requests.map((r) => ({ n: r.n, problems: requestProblems(r.api, r.body, r.headers) })).filter((p) => p.problems.length),
    };
  } finally {
    for (const [k, v] of Object.entries(saved)) { if (v === undefined) delete process.env[k]; else process.env[k] = v; }
    await env?.close();
    await server.close();
  }
}

/** Looks for secret values in the container: its configured env, a process's env, its files. */
async function findSecrets(session: TaskEnv, secrets: string[]): Promise<string[]> {
  if (!secrets.length) return [];
  const leaks: string[] = [];
  const deployment = new DockerDeployment();
  const inspect = await (await deployment.container(session.info.id)).inspect();
  const configured = (inspect.Config.Env ?? []).join('\n');
  const runtime = await deployment.runtime(session.info.id);
  const run = async (cmd: string[]): Promise<string> => {
    const r = await runtime.exec(cmd, { user: 'root', cwd: '/' });
    return r.stdout + r.stderr;
  };
  const procEnv = await run(['sh', '-c', 'cat /proc/[0-9]*/environ 2>/dev/null | tr "\\0" "\\n"']);
  for (const s of secrets) {
    if (configured.includes(s)) leaks.push('the container\'s configured environment');
    if (procEnv.includes(s)) leaks.push('a process environment in the container');
    const grep = await run(['sh', '-c', `grep -rlF -- '${s}' /workspace /home /tmp /etc 2>/dev/null | head -5`]);
    if (grep.replace(/[^\x20-\x7e\n]/g, '').trim()) leaks.push(`files in the container: ${grep.replace(/[^\x20-\x7e\n]/g, '').trim()}`);
  }
  return leaks;
}
