// The package's entry point works from a project that depends on pwp (test/support/
// consumerProject.ts): `require('pwp')` and `import … from 'pwp'` give the public API's names
// as the right kinds of value, and a consumer's TypeScript that uses them type-checks against
// the package's published declarations (through `exports` and through `types`) with the types
// real, not `any`. It tests the built package: `npm test` builds first; alone, `npm run build`.
import { strict as assert } from 'node:assert';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { assertPackageBuilt, consumerProject, REPO, type ConsumerProject } from '../../support/consumerProject';

/** The public API's values, by kind: what README, docs and library users rely on. */
const CLASSES = [
  'Env', 'EnvWrapper', 'TimeLimit', 'WallClockLimit', 'EnvPool', 'RecordTrajectory', 'TaskEnv', 'EnvServer',
  'OracleAgent', 'NullAgent', 'ReplayAgent', 'CommandAgent', 'TaskError', 'LimitReachedError', 'EpisodeOverError',
];
const ERRORS = [
  'ParseError', 'InvalidRequestError', 'MethodNotFoundError', 'InvalidParamsError', 'UnauthorizedError', 'TimeoutError',
  'NotAvailableError', 'TargetClosedError', 'EnvironmentLostError', 'LimitExceededError', 'PayloadTooLargeError',
  'ActionFailedError', 'BusyError',
];
const FUNCTIONS = [
  'makeEnv', 'checkEnv', 'resolveTasks', 'loadTask', 'taskName', 'runTask', 'makeAgent', 'createDeployment',
  'parseAction', 'actionSpace', 'observationSpace', 'stepError', 'stepAction', 'readTrajectory', 'replayTrajectory',
];

/** Prints each name's kind (class, function, or typeof) and whether it is a PwpError/EnvWrapper subclass. */
const KINDS_SCRIPT = (load: string) => `${load}
const isClass = (v) => typeof v === 'function' && /^class\\b/.test(Function.prototype.toString.call(v));
const kinds = {};
for (const [k, v] of Object.entries(pwp)) kinds[k] = isClass(v) ? 'class' : typeof v;
const sub = (v, base) => typeof v === 'function' && v.prototype instanceof base;
const pwpErrors = Object.keys(pwp).filter((k) => sub(pwp[k], pwp.PwpError));
const wrappers = Object.keys(pwp).filter((k) => sub(pwp[k], pwp.EnvWrapper));
console.log(JSON.stringify({ kinds, pwpErrors, wrappers, actionParses: pwp.Action.safeParse({ type: 'key', keys: 'ctrl+s' }).success }));
`;

type Report = { kinds: Record<string, string>; pwpErrors: string[]; wrappers: string[]; actionParses: boolean };

function assertPublicApi(r: Report): void {
  const missing = [...CLASSES, ...ERRORS, ...FUNCTIONS, 'PwpError', 'Action', 'ErrorCode'].filter((n) => !(n in r.kinds));
  assert.deepEqual(missing, [], 'names missing from the package');
  for (const n of [...CLASSES, ...ERRORS, 'PwpError']) assert.equal(r.kinds[n], 'class', `${n} is a class`);
  for (const n of FUNCTIONS) assert.equal(r.kinds[n], 'function', `${n} is a function`);
  assert.equal(r.kinds.ErrorCode, 'object');
  assert.ok(r.actionParses, 'Action is the action schema');
  assert.deepEqual(ERRORS.filter((n) => !r.pwpErrors.includes(n)), [], 'every wire error extends PwpError');
  assert.deepEqual(['TimeLimit', 'WallClockLimit', 'RecordTrajectory'].filter((n) => !r.wrappers.includes(n)), [], 'the wrappers extend EnvWrapper');
}

// A consumer's TypeScript: every public name in use, and misuses the compiler must refuse
// (each @ts-expect-error is itself an error when the types behind it have gone `any`).
const CONSUMER_TS = `import {
  makeEnv, Env, EnvPool, checkEnv, TimeLimit, WallClockLimit, RecordTrajectory, TaskEnv, resolveTasks, loadTask,
  runTask, makeAgent, OracleAgent, NullAgent, createDeployment, EnvServer, EnvWrapper, PwpError, TimeoutError,
  NotAvailableError, ErrorCode, Action,
  type Observation, type StepResult, type ResetResult, type EnvLike, type EnvOptions, type MakeEnvOptions,
  type Task, type Agent, type RunResult, type EvaluationResult, type Deployment,
} from 'pwp';

const press: Action = { type: 'key', keys: 'ctrl+s' };
// @ts-expect-error: not an action of the action table
const teleport: Action = { type: 'teleport' };

async function episode(env: EnvLike, policy: (o: Observation) => Action): Promise<number> {
  const first: ResetResult = await env.reset({ seed: 1 });
  let observation: Observation = first.observation;
  for (;;) {
    const r: StepResult = await env.step(policy(observation));
    observation = r.observation;
    if (r.terminated || r.truncated) return r.reward;
  }
}

const options: MakeEnvOptions = { record: 'runs/x', limits: true };
const env = makeEnv('vscode-config/rebind-shortcut', options);
const taskEnv: TaskEnv = env.unwrapped;
const task: Task = taskEnv.task;
const evaluation: EvaluationResult | null = taskEnv.evaluation;
const summary: string | undefined = evaluation?.summary;
// @ts-expect-error: makeEnv takes a task's name or a Task
makeEnv(42);
const limited: EnvLike = new RecordTrajectory(new WallClockLimit(new TimeLimit(new Env({ image: 'x' } satisfies EnvOptions), 10), 60_000), 'out');
const wrapped: EnvWrapper = new TimeLimit(limited, 5);
const deployment: Deployment = createDeployment('docker');
const pool = new EnvPool({ size: 2, deployment });
const agents: Agent[] = [new OracleAgent(), new NullAgent(), makeAgent('null')];
const tasks: Task[] = [...resolveTasks(['vscode-config']), loadTask('tasks/vscode-config/rebind-shortcut')];
async function run(agent: Agent): Promise<number> {
  const r: RunResult = await runTask(tasks[0], { agent, pool });
  await checkEnv(env);
  return r.score;
}
const server = new EnvServer({ token: 'secret' });
const err: PwpError = new TimeoutError('slow');
const code: number = err.code;
const notThere = new NotAvailableError('gone') instanceof PwpError && ErrorCode.NotAvailable;
// @ts-expect-error: a typed error's code is a number
const badCode: string = err.code;
export { press, teleport, episode, task, summary, wrapped, run, server, code, notThere, badCode };
`;

describe('the package entry point (a project that depends on pwp)', function () {
  // Two compilations of a consumer and pwp's declarations (5 and 20 s on 2 cores), more when loaded.
  this.timeout(240_000);
  const projects: ConsumerProject[] = [];
  const project = (o: Parameters<typeof consumerProject>[0]) => { const p = consumerProject(o); projects.push(p); return p; };
  before(() => assertPackageBuilt());
  after(() => { for (const p of projects) p.remove(); });

  it("require('pwp') gives the public API's classes and functions, from the built bundle", async () => {
    const p = project({ type: 'commonjs' });
    p.write('where.cjs', "console.log(require.resolve('pwp'));\n");
    assert.equal(realpathSync((await p.run('where.cjs')).stdout.trim()), realpathSync(join(REPO, 'dist', 'index.js')));
    p.write('kinds.cjs', KINDS_SCRIPT("const pwp = require('pwp');"));
    assertPublicApi(JSON.parse((await p.run('kinds.cjs')).stdout) as Report);
  });

  it("import … from 'pwp' in an ES module gives the same names (named exports of the CommonJS bundle)", async () => {
    const p = project({ type: 'module' });
    p.write('kinds.mjs', KINDS_SCRIPT("import * as ns from 'pwp';\nconst pwp = Object.fromEntries(Object.entries(ns).filter(([k]) => k !== 'default'));"));
    assertPublicApi(JSON.parse((await p.run('kinds.mjs')).stdout) as Report);
    p.write('named.mjs', "import { makeEnv, PwpError, TimeoutError } from 'pwp';\nconsole.log(typeof makeEnv, new TimeoutError('t') instanceof PwpError);\n");
    assert.equal((await p.run('named.mjs')).stdout.trim(), 'function true');
  });

  it('the package exports what host/index.ts exports, and nothing deeper', async () => {
    const p = project({ type: 'commonjs' });
    p.write('names.cjs', "console.log(JSON.stringify(Object.keys(require('pwp')).sort()));\n");
    const fromPackage = JSON.parse((await p.run('names.cjs')).stdout) as string[];
    const fromSource = Object.keys(await import('../../../host/index')).filter((k) => k !== 'default' && k !== '__esModule').sort();
    assert.deepEqual(fromPackage, fromSource);
    p.write('deep.cjs', "try { require('pwp/host/env/env'); console.log('resolved'); } catch (e) { console.log(e.code); }\n");
    assert.equal((await p.run('deep.cjs')).stdout.trim(), 'ERR_PACKAGE_PATH_NOT_EXPORTED');
  });

  // The ES module project checks every declaration it reaches (pwp's and its dependencies'); the
  // CommonJS one is as `tsc --init` makes it (skipLibCheck), where the @ts-expect-error lines
  // keep a declaration that went `any` from passing unseen.
  for (const [type, resolution, checkLibraries, how] of [
    ['module', 'nodenext', true, "through package.json's exports, every declaration checked"],
    ['commonjs', 'node10', false, "through package.json's types"],
  ] as const) {
    it(`a consumer's TypeScript type-checks against the published declarations (${type}, ${how})`, async () => {
      const p = project({ type, resolution, checkLibraries });
      p.write('consumer.ts', CONSUMER_TS);
      const { code, output } = await p.typecheck();
      assert.equal(code, 0, output);
    });
  }
});
