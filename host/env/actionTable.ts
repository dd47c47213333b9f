// The one place an Env action becomes what it does: a bridge call for input, tool and IDE
// actions, a command or a file write for the file side, a wait, or the end of the episode.
// The Env performs actions through it; model tool lists (host/agents/screenTools.ts) and the
// MCP input tools (host/mcp/mcpTools.ts) turn their arguments into these actions and so
// reach the bridge only through this table.
import type { MethodName } from '../../bridge/protocol';
import type { BridgeClient } from '../client/bridgeClient';
import type { ExecOptions, ExecResult } from '../deployment/runtime';
import type { Action, ActionType } from './actions';

/** What an action needs from the running environment. */
export interface ActionContext {
  client: BridgeClient;
  exec(argv: string[], o: ExecOptions): Promise<ExecResult>;
  writeFile(path: string, content: Buffer): Promise<void>;
}

export interface ActionOutcome {
  /** Let the screen settle afterwards (input changes the screen; done does not). */
  settle: boolean;
  /** The screen point a click landed on (a replay clicks there when marks differ). */
  at?: { x: number; y: number };
  /** What a tool or IDE call answered. */
  toolResult?: unknown;
  execResult?: ExecResult;
  answer?: string;
}

type Of<K extends ActionType> = Extract<Action, { type: K }>;
type BridgeCall = { method: MethodName; params: Record<string, unknown> };

const target = (t: { x?: number; y?: number; mark?: number }) => (t.mark !== undefined ? { mark: t.mark } : { x: t.x, y: t.y });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Input actions: each is exactly one bridge call. */
const INPUT: { [K in 'key' | 'type' | 'click' | 'double_click' | 'right_click' | 'move' | 'drag' | 'scroll' | 'xdotool']: (a: Of<K>) => BridgeCall } = {
  key: (a) => ({ method: 'input.key', params: { keys: a.keys, repeat: a.repeat } }),
  type: (a) => ({ method: 'input.type', params: { text: a.text } }),
  click: (a) => ({ method: 'input.click', params: { ...target(a), button: a.button, count: a.count, modifiers: a.modifiers } }),
  double_click: (a) => ({ method: 'input.click', params: { ...target(a), count: 2, modifiers: a.modifiers } }),
  right_click: (a) => ({ method: 'input.click', params: { ...target(a), button: 'right', modifiers: a.modifiers } }),
  move: (a) => ({ method: 'input.move', params: { x: a.x, y: a.y } }),
  drag: (a) => ({ method: 'input.drag', params: { from: a.from, to: a.to, button: a.button, steps: a.steps } }),
  scroll: (a) => ({ method: 'input.scroll', params: { x: a.x, y: a.y, direction: a.direction, amount: a.amount } }),
  xdotool: (a) => ({ method: 'input.xdotool', params: a.argv ? { argv: a.argv } : { command: a.command ?? '' } }),
};
export type InputActionType = keyof typeof INPUT;

export function isBridgeInput(a: Action): a is Of<InputActionType> {
  return Object.prototype.hasOwnProperty.call(INPUT, a.type);
}

/** The bridge call an input action makes. */
export function bridgeCallOf(a: Of<InputActionType>): BridgeCall {
  return (INPUT[a.type] as (a: Action) => BridgeCall)(a);
}

const workspacePath = (p: string) => (p.startsWith('/') ? p : `/workspace/${p}`);

/** Performs one (already validated) action. Errors are thrown as they come (typed on the wire). */
export async function performAction(ctx: ActionContext, a: Action): Promise<ActionOutcome> {
  if (isBridgeInput(a)) {
    const { method, params } = bridgeCallOf(a);
    const r = await ctx.client.call(method, params as never) as { x?: number; y?: number };
    return method === 'input.click' && typeof r?.x === 'number' ? { settle: true, at: { x: r.x, y: r.y! } } : { settle: true };
  }
  switch (a.type) {
    case 'tool':
      // tools.call is served by the IDE's extension; where it is missing the bridge answers MethodNotFoundError.
      return {
        settle: true,
        toolResult: await ctx.client.callUnchecked('tools.call', { name: a.name, args: a.args ?? {}, timeoutMs: a.timeoutMs }, { timeoutMs: (a.timeoutMs ?? 600_000) + 30_000 }),
      };
    case 'ide': return { settle: true, toolResult: await ctx.client.call(a.method as 'ide.status', (a.params ?? {}) as never) };
    case 'exec': {
      const r = await ctx.exec(a.argv, { cwd: a.cwd ? workspacePath(a.cwd) : '/workspace', timeoutSec: a.timeoutSec, detach: a.detach });
      return { settle: true, execResult: { ...r, stdout: r.stdout.slice(-20_000), stderr: r.stderr.slice(-20_000) } };
    }
    case 'write_file':
      await ctx.writeFile(workspacePath(a.path), a.contentBase64 !== undefined ? Buffer.from(a.contentBase64, 'base64') : Buffer.from(a.content ?? ''));
      return { settle: true };
    case 'wait': await sleep(a.ms); return { settle: true };
    case 'done': return { settle: false, answer: a.answer };
  }
  const never: never = a;
  throw new Error(`unknown action ${JSON.stringify(never)}`);
}
