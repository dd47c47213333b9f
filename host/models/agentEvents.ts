// What a model-driven agent writes to the run's trajectory besides the actions the
// environment records itself: each model turn (its text, tool calls, tokens, latency, HTTP
// attempts, what the request held) and how each tool call came out, then its statistics.
import type { HttpAttempt, TokenUsage, ToolCall } from './conversation';
import type { AgentStats } from './runStatistics';

export type AgentEvent =
  | {
    type: 'model'; step: number; model: string; text: string; toolCalls: ToolCall[]; usage: TokenUsage;
    latencyMs: number; attempts: HttpAttempt[]; stopReason: string;
    /** What the request held after context handling. */
    request: { messages: number; images: number; estimatedTokens: number; droppedTurns: number };
  }
  | { type: 'modelError'; step: number; error: string; status: number | null; attempts: HttpAttempt[]; ms: number }
  | {
    type: 'toolResult'; step: number; callId: string; name: string; isError: boolean; malformed: boolean;
    /** The text the model got back (cut to 4000 characters here), and how many images. */
    text: string; images: number; ms: number;
  }
  | { type: 'agentStats'; stats: AgentStats };
