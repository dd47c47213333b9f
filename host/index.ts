// pwp's public API: what `import { … } from 'pwp'` gives a project that depends on this
// package (package.json's main/exports/types point at the build of this file: dist/index.js,
// dist/types/host/index.d.ts). Everything a library user needs to put an agent on a real IDE:
// the Env contract and its wrappers, tasks and makeEnv, the bundled agents and runTask, the
// Env server, deployments, and the typed errors that come back from the bridge.
//
// Deliberately not here: the CLI (host/cli, `pwp`), the inspector and the MCP server (reached
// through `pwp inspect`/`pwp mcp`), benchmark runs and dataset converters, image builds, and the
// layers under the Env (bridge client, running environments, checkpoint internals, graders).
// Those change as pwp changes; a name exported here is a promise, so it takes a reason to add one.
// Deep imports (`pwp/host/...`) are closed by package.json's `exports`.

// The Env contract (gymnasium-style), its actions and observations.
export {
  Env, EpisodeOverError, stepError,
  type EnvLike, type EnvOptions, type ResetOptions, type ResetInfo, type ResetResult, type StepInfo, type StepResult,
  type RewardContext, type RewardFunction, type RenderOptions, type Annotation, type EndAnnotation, type EpisodeInfo,
} from './env/env';
export { Action, parseAction, actionSpace, type ActionType, type Actor } from './env/actions';
export { OBSERVE_KINDS, observationSpace, type Observation, type ObserveKind, type ObserveOptions, type ObservedImage, type IdeSummary } from './env/observation';
export { EnvWrapper, RewardAtEnd, TimeLimit, WallClockLimit } from './env/wrappers';
export { EnvPool, type EnvPoolOptions } from './env/pool';
export { checkEnv } from './env/checkEnv';

// Trajectories: recording an Env, reading and replaying what was recorded.
export { RecordTrajectory, type RecordOptions } from './trajectory/recordTrajectory';
export { readTrajectory, TRAJECTORY_FILE, type Trajectory, type TrajectoryRecord } from './trajectory/trajectoryFile';
export { replayTrajectory, type ReplayOptions, type ReplayResult } from './trajectory/replay';

// Tasks and the task Env.
export { makeEnv, TaskEnv, type MakeEnvOptions, type TaskEnvOptions } from './taskEnv/taskEnv';
export { loadTask, resolveTasks, taskName, TaskError, TASKS_ROOT, type Task } from './taskEnv/loadTask';
export type { EvaluationResult, CheckResult } from './evaluation/evaluationResult';

// Serving an Env to other processes (Python, outside agents).
export { EnvServer, ENV_PATH, type EnvServerOptions } from './envServer/envServer';

// Agents and runs.
export { LimitReachedError, stepAction, type Agent, type AgentOutcome } from './agents/agent';
export { makeAgent, AGENT_NAMES, type AgentName } from './agents/agentRegistry';
export { OracleAgent } from './agents/oracleAgent';
export { NullAgent } from './agents/nullAgent';
export { ReplayAgent } from './agents/replayAgent';
export { CommandAgent, type CommandAgentOptions } from './agents/commandAgent';
export { runTask, type RunOptions, type RunResult } from './runs/runTask';

// Where environments run.
export { createDeployment, BACKENDS } from './deployment/backends';
export type { Backend, Deployment, EnvironmentSpec, EnvironmentInfo } from './deployment/deployment';

// The typed errors of the wire: a failed call or a refused step rejects with one of these.
export {
  PwpError, ErrorCode, ParseError, InvalidRequestError, MethodNotFoundError, InvalidParamsError, UnauthorizedError,
  TimeoutError, NotAvailableError, TargetClosedError, EnvironmentLostError, LimitExceededError, PayloadTooLargeError,
  ActionFailedError, BusyError, type ErrorCodeValue,
} from '../bridge/protocol';
