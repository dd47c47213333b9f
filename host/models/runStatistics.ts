// Statistics of agent runs beyond success (the figures IDE-Bench reports): collected per run
// (StatsCollector -> AgentStats: iterations, tool usage counts and transitions, tokens in and
// out, model latency, wall time, API retries, why the agent stopped) and aggregated over runs
// per agent and model (summarizeAgentStats -> AgentMetrics, tokens per success among them).
import type { TokenUsage } from './conversation';

export type StopReason =
  /** the model called done */
  | 'done'
  /** the agent's own step cap (model turns) */
  | 'step-cap'
  /** the agent's time cap, or the task's time limit */
  | 'time-cap'
  /** the token budget was spent */
  | 'token-budget'
  /** the task's action limit (each action the environment counts) */
  | 'action-limit'
  /** the model kept answering without calling a tool */
  | 'no-action'
  /** an error the agent cannot recover from (API refused, environment gone) */
  | 'error';

export interface AgentStats {
  agent: string;
  provider: string;
  model: string;
  /** Model turns (requests answered). */
  iterations: number;
  toolCalls: number;
  /** Calls per tool name (computer-use actions as computer.<action>). */
  toolUsage: Record<string, number>;
  /** Consecutive tool pairs, "a -> b": how the agent moves between tools. */
  toolTransitions: Record<string, number>;
  /** Tool calls that came back as errors (bad arguments, unknown tool, failing tool). */
  toolErrors: number;
  /** Replies the agent could not act on as written (bad JSON, unknown tool, out-of-range mark). */
  malformedCalls: number;
  tokens: { input: number; output: number; total: number; cacheRead: number; cacheWrite: number };
  /** Time spent waiting for the model, and in all. */
  modelMs: number;
  wallMs: number;
  /** HTTP attempts beyond the first, over all requests (429/5xx/network retried by the SDK). */
  apiRetries: number;
  /** Images the agent sent in its requests (0 for settings without a screen). */
  imagesSent: number;
  /** Turns dropped from the context to stay within its budget. */
  droppedTurns: number;
  stoppedBy: StopReason;
  /** What stopped it, in words. */
  stopDetail?: string;
}

export class StatsCollector {
  readonly stats: AgentStats;
  private last: string | null = null;
  private readonly t0 = Date.now();

  constructor(agent: string, provider: string, model: string) {
    this.stats = {
      agent, provider, model, iterations: 0, toolCalls: 0, toolUsage: {}, toolTransitions: {}, toolErrors: 0, malformedCalls: 0,
      tokens: { input: 0, output: 0, total: 0, cacheRead: 0, cacheWrite: 0 }, modelMs: 0, wallMs: 0, apiRetries: 0,
      imagesSent: 0, droppedTurns: 0, stoppedBy: 'error',
    };
  }

  turn(usage: TokenUsage, latencyMs: number, attempts: number, images: number): void {
    const s = this.stats;
    s.iterations++;
    s.tokens.input += usage.input;
    s.tokens.output += usage.output;
    s.tokens.total = s.tokens.input + s.tokens.output;
    s.tokens.cacheRead += usage.cacheRead ?? 0;
    s.tokens.cacheWrite += usage.cacheWrite ?? 0;
    s.modelMs += latencyMs;
    s.apiRetries += Math.max(0, attempts - 1);
    s.imagesSent += images;
  }

  /** A failed request still cost time and attempts. */
  failedRequest(ms: number, attempts: number): void {
    this.stats.modelMs += ms;
    this.stats.apiRetries += Math.max(0, attempts - 1);
  }

  tool(name: string, isError: boolean, malformed: boolean): void {
    const s = this.stats;
    s.toolCalls++;
    s.toolUsage[name] = (s.toolUsage[name] ?? 0) + 1;
    if (this.last !== null) {
      const k = `${this.last} -> ${name}`;
      s.toolTransitions[k] = (s.toolTransitions[k] ?? 0) + 1;
    }
    this.last = name;
    if (isError) s.toolErrors++;
    if (malformed) s.malformedCalls++;
  }

  stop(reason: StopReason, detail?: string): AgentStats {
    this.stats.stoppedBy = reason;
    if (detail) this.stats.stopDetail = detail;
    this.stats.wallMs = Date.now() - this.t0;
    return this.stats;
  }
}

export interface AgentMetrics {
  /** Runs that carried agent statistics. */
  runs: number;
  successes: number;
  meanIterations: number;
  meanToolCalls: number;
  /** Calls per tool over all runs, most used first. */
  toolUsage: Record<string, number>;
  /** "a -> b" transitions over all runs, most frequent first. */
  toolTransitions: Record<string, number>;
  /** Tool calls that came back as errors, over all tool calls. */
  toolErrorRate: number;
  malformedCalls: number;
  tokens: { input: number; output: number; total: number; meanPerRun: number };
  /** All tokens spent (solved or not) over the runs that solved their task; null without a success. */
  tokensPerSuccess: number | null;
  meanWallMs: number;
  meanModelMs: number;
  apiRetries: number;
  stoppedBy: Record<string, number>;
}

const sortDesc = (m: Record<string, number>): Record<string, number> => Object.fromEntries(Object.entries(m).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

export function summarizeAgentStats(runs: readonly { passed: boolean; agentStats?: AgentStats }[]): AgentMetrics | null {
  const withStats = runs.filter((r): r is { passed: boolean; agentStats: AgentStats } => !!r.agentStats);
  if (!withStats.length) return null;
  const usage: Record<string, number> = {};
  const transitions: Record<string, number> = {};
  const stopped: Record<string, number> = {};
  let calls = 0;
  let errors = 0;
  let malformed = 0;
  let input = 0;
  let output = 0;
  let retries = 0;
  for (const { agentStats: s } of withStats) {
    for (const [k, v] of Object.entries(s.toolUsage)) usage[k] = (usage[k] ?? 0) + v;
    for (const [k, v] of Object.entries(s.toolTransitions)) transitions[k] = (transitions[k] ?? 0) + v;
    stopped[s.stoppedBy] = (stopped[s.stoppedBy] ?? 0) + 1;
    calls += s.toolCalls;
    errors += s.toolErrors;
    malformed += s.malformedCalls;
    input += s.tokens.input;
    output += s.tokens.output;
    retries += s.apiRetries;
  }
  const successes = withStats.filter((r) => r.passed).length;
  const total = input + output;
  return {
    runs: withStats.length,
    successes,
    meanIterations: mean(withStats.map((r) => r.agentStats.iterations)),
    meanToolCalls: mean(withStats.map((r) => r.agentStats.toolCalls)),
    toolUsage: sortDesc(usage),
    toolTransitions: sortDesc(transitions),
    toolErrorRate: calls ? errors / calls : 0,
    malformedCalls: malformed,
    tokens: { input, output, total, meanPerRun: total / withStats.length },
    tokensPerSuccess: successes ? total / successes : null,
    meanWallMs: mean(withStats.map((r) => r.agentStats.wallMs)),
    meanModelMs: mean(withStats.map((r) => r.agentStats.modelMs)),
    apiRetries: retries,
    stoppedBy: sortDesc(stopped),
  };
}
