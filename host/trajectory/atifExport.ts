// A pwp trajectory in the Agent Trajectory Interchange Format (ATIF v1.4, Harbor's), which
// Terminal-Bench tools and other harnesses read. The mapping:
//   the task's instruction         → the first step, source "user"
//   a model turn (model-driven)    → an agent step: its text, tool calls, token counts, and the
//                                    results of those calls as the step's observation
//   an action (other agents)       → an agent step with one tool call named after the action
//                                    (`key`, `click`, a tool's own name) and what it answered
//   a person's input (live view)   → a user step ("the person pressed …")
//   a note by the runner           → a system step
//   the end and the grade          → final_metrics and root `extra.pwp`
// Screenshots stay files beside the trajectory: a step's `extra.pwp.screenshot` names its file.
import { basename } from 'node:path';
import type { HumanEvent } from '../../bridge/protocol';
import type { Action } from '../env/actions';
import { readTrajectory, type Trajectory, type TrajectoryRecord } from './trajectoryFile';
import { version as PWP_VERSION } from '../../package.json';

export const ATIF_VERSION = 'ATIF-v1.4';

export interface AtifToolCall { tool_call_id: string; function_name: string; arguments: Record<string, unknown> }
export interface AtifStep {
  step_id: number;
  timestamp: string;
  source: 'system' | 'user' | 'agent';
  message: string;
  model_name?: string;
  tool_calls?: AtifToolCall[];
  observation?: { results: { source_call_id?: string; content: string }[] };
  metrics?: { prompt_tokens?: number; completion_tokens?: number };
  extra?: Record<string, unknown>;
}
export interface AtifTrajectory {
  schema_version: typeof ATIF_VERSION;
  session_id: string;
  agent: { name: string; version: string; model_name?: string; extra?: Record<string, unknown> };
  steps: AtifStep[];
  notes?: string;
  final_metrics: { total_prompt_tokens?: number; total_completion_tokens?: number; total_steps: number; extra?: Record<string, unknown> };
  extra: Record<string, unknown>;
}

type Rec<T extends TrajectoryRecord['type']> = Extract<TrajectoryRecord, { type: T }>;

const iso = (t: number): string => new Date(t).toISOString();

/** A tool call's arguments as an object: the model's JSON text parsed, or kept whole under `raw` when it is not an object. */
function argumentsOf(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch { /* not JSON: kept as it came */ }
  return { raw: text };
}

/** An action as a tool call: a tool action by its tool's name, any other by its type. */
function actionCall(a: Action, id: string): AtifToolCall {
  if (a.type === 'tool') return { tool_call_id: id, function_name: a.name, arguments: { ...a.args } };
  const { type, ...params } = a as { type: string } & Record<string, unknown>;
  return { tool_call_id: id, function_name: type, arguments: params };
}

/** What an action answered, in a line: its error, its tool output, or ok. */
function actionResult(r: Rec<'step'>): string {
  const info = r.info;
  const err = info.error as { name?: string; message?: string } | undefined;
  if (err) return `${err.name ?? 'Error'}: ${err.message ?? ''}`;
  const exec = info.execResult as { exitCode?: number; stdout?: string; stderr?: string } | undefined;
  if (exec) return [exec.stdout, exec.stderr, `exit code ${exec.exitCode ?? '?'}`].filter(Boolean).join('\n');
  const tool = info.toolResult as { content?: { type?: string; text?: string }[] } | string | undefined;
  if (typeof tool === 'string') return tool;
  const text = tool?.content?.filter((c) => typeof c.text === 'string').map((c) => c.text).join('\n');
  if (text) return text;
  if (tool !== undefined) return JSON.stringify(tool).slice(0, 4000);
  if (typeof info.answer === 'string') return `answered: ${info.answer}`;
  const evaluation = info.evaluation as { score?: number; summary?: string } | undefined;
  if (evaluation) return `graded: score ${evaluation.score ?? 0}${evaluation.summary ? ` (${evaluation.summary})` : ''}`;
  return 'ok';
}

function humanMessage(e: HumanEvent): string {
  if (e.kind === 'key') return `the person ${e.down ? 'pressed' : 'released'} ${e.name}`;
  if (e.kind === 'pointer') return `the person's pointer: ${e.action} at (${e.x}, ${e.y})`;
  return `the person: ${JSON.stringify(e)}`;
}

/** Converts a read trajectory; `result` (the run's result.json, when there is one) adds the grade. */
export function toAtif(t: Trajectory, result?: Record<string, unknown>): AtifTrajectory {
  const meta = t.header?.meta ?? {};
  const steps: AtifStep[] = [];
  const push = (s: Omit<AtifStep, 'step_id'>): void => { steps.push({ step_id: steps.length + 1, ...s }); };
  const instruction = typeof meta.instruction === 'string' ? meta.instruction : undefined;
  const t0 = t.header?.t ?? t.records[0]?.t ?? 0;
  if (instruction) push({ timestamp: iso(t0), source: 'user', message: instruction });

  // A model-driven agent's turns carry its tool calls; its actions are then those calls' effects,
  // told by the toolResult records, and are not steps of their own.
  const modelDriven = t.records.some((r) => r.type === 'model');
  const results = new Map<string, Rec<'toolResult'>>();
  for (const r of t.records) if (r.type === 'toolResult') results.set(r.callId, r);
  let promptTokens = 0;
  let completionTokens = 0;
  let end: Rec<'end'> | undefined;

  for (const r of t.records) {
    switch (r.type) {
      case 'model': {
        promptTokens += r.usage.input;
        completionTokens += r.usage.output;
        const calls = r.toolCalls.map((c) => ({ tool_call_id: c.id, function_name: c.name, arguments: argumentsOf(c.arguments) }));
        const answered = r.toolCalls.map((c) => results.get(c.id)).filter((x): x is Rec<'toolResult'> => !!x);
        push({
          timestamp: iso(r.t), source: 'agent', message: r.text, model_name: r.model,
          ...(calls.length ? { tool_calls: calls } : {}),
          ...(answered.length ? { observation: { results: answered.map((a) => ({ source_call_id: a.callId, content: a.text })) } } : {}),
          metrics: { prompt_tokens: r.usage.input, completion_tokens: r.usage.output },
          extra: { pwp: { turn: r.step, latencyMs: r.latencyMs, stopReason: r.stopReason } },
        });
        break;
      }
      case 'step': {
        if (modelDriven) break;
        const id = `step-${r.step}`;
        push({
          timestamp: iso(r.t), source: 'agent', message: '', tool_calls: [actionCall(r.action, id)],
          observation: { results: [{ source_call_id: id, content: actionResult(r) }] },
          extra: {
            pwp: {
              step: r.step, reward: r.reward, terminated: r.terminated, truncated: r.truncated,
              ...(r.observation.screenshot ? { screenshot: r.observation.screenshot } : {}),
            },
          },
        });
        break;
      }
      case 'human': push({ timestamp: iso(r.t), source: 'user', message: humanMessage(r.event), extra: { pwp: { human: r.event } } }); break;
      case 'note': push({ timestamp: iso(r.t), source: 'system', message: r.text }); break;
      case 'rewardAsked': push({ timestamp: iso(r.t), source: 'agent', message: `asked for its grade after step ${r.step}: ${r.outcome === 'score' ? `${r.score}` : 'refused'} (${r.reason})`, extra: { pwp: { rewardAsked: { step: r.step, outcome: r.outcome, ...(r.score !== undefined ? { score: r.score } : {}) } } } }); break;
      case 'error': push({ timestamp: iso(r.t), source: 'system', message: `${r.error.name} during ${r.during}: ${r.error.message}` }); break;
      case 'modelError': push({ timestamp: iso(r.t), source: 'system', message: `model call failed (turn ${r.step}): ${r.error}` }); break;
      case 'end': end = r; break;
      default: break;
    }
  }
  const score = typeof result?.score === 'number' ? result.score : end?.score;
  const model = typeof meta.model === 'string' ? meta.model : undefined;
  return {
    schema_version: ATIF_VERSION,
    session_id: `${typeof meta.task === 'string' ? `${meta.task}:` : ''}${basename(t.dir)}:${t.header?.createdAt ?? iso(t0)}`,
    agent: { name: typeof meta.agent === 'string' ? meta.agent : 'pwp-env', version: PWP_VERSION, ...(model ? { model_name: model } : {}), extra: { harness: 'pwp' } },
    steps,
    ...(t.tornTail ? { notes: 'the trajectory\'s last line was cut off mid-write (the run stopped); it is left out' } : {}),
    final_metrics: {
      ...(modelDriven ? { total_prompt_tokens: promptTokens, total_completion_tokens: completionTokens } : {}),
      total_steps: steps.length,
      extra: { pwp_actions: t.records.filter((r) => r.type === 'step').length },
    },
    extra: {
      pwp: {
        ...(typeof meta.task === 'string' ? { task: meta.task } : {}),
        ...(score !== undefined ? { reward: score } : {}),
        ...(end ? { status: end.status, ...(end.reason ? { reason: end.reason } : {}) } : {}),
        ...(result?.evaluation ? { evaluation: result.evaluation } : {}),
      },
    },
  };
}

/** Reads the trajectory at `path` (a run folder, a trajectory folder or its .jsonl) and converts it. */
export function atifOfRun(path: string, result?: Record<string, unknown>): AtifTrajectory {
  return toAtif(readTrajectory(path), result);
}

/**
 * The rules ATIF's specification sets that a converter can break: ids from 1 in order, known
 * sources, agent-only fields on agent steps only, results naming a call of their own step.
 * Returns the problems (none: valid).
 */
export function atifProblems(a: AtifTrajectory): string[] {
  const problems: string[] = [];
  if (a.schema_version !== ATIF_VERSION) problems.push(`schema_version ${String(a.schema_version)}`);
  if (!a.session_id) problems.push('no session_id');
  if (!a.agent?.name || !a.agent.version) problems.push('agent needs name and version');
  a.steps.forEach((s, i) => {
    const at = `step ${i + 1}`;
    if (s.step_id !== i + 1) problems.push(`${at}: step_id ${s.step_id}`);
    if (!['system', 'user', 'agent'].includes(s.source)) problems.push(`${at}: source ${s.source}`);
    if (typeof s.message !== 'string') problems.push(`${at}: message must be a string`);
    if (s.source !== 'agent' && (s.tool_calls || s.metrics || s.model_name)) problems.push(`${at}: tool_calls, metrics and model_name are for agent steps`);
    const ids = new Set((s.tool_calls ?? []).map((c) => c.tool_call_id));
    for (const c of s.tool_calls ?? []) {
      const argsOk = typeof c.arguments === 'object' && c.arguments !== null && !Array.isArray(c.arguments);
      if (!c.tool_call_id || !c.function_name || !argsOk) problems.push(`${at}: malformed tool call`);
    }
    for (const r of s.observation?.results ?? []) if (r.source_call_id && !ids.has(r.source_call_id)) problems.push(`${at}: result for unknown call ${r.source_call_id}`);
    if (Number.isNaN(Date.parse(s.timestamp))) problems.push(`${at}: timestamp ${s.timestamp}`);
  });
  if (a.final_metrics.total_steps !== a.steps.length) problems.push('final_metrics.total_steps differs from the steps');
  return problems;
}
