// The loop every model-driven agent shares: show the model the task (and the screen, where
// the setting has one), let it call tools, perform them in the environment, show it the
// results, until it calls done or a cap ends the run. The five settings (cuaAgent.ts,
// cuaFilebashAgent.ts, assistedAgent.ts, ideAgent.ts, bashOnlyAgent.ts) differ only in their tools, what they
// see, and their system prompt.
//
// A reply the agent cannot act on (arguments that are not JSON or do not fit the tool, a
// tool that does not exist, a mark id that is not on screen) becomes an error result the
// model sees and can correct; only an unusable API or a lost environment ends the run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidParamsError, PwpError, TargetClosedError, type Result, type ToolGroup } from '../../bridge/protocol';
import type { ContentPart, FunctionTool, Message, ModelClient, ModelReply, ToolCall, ToolResult, ToolSpec } from '../models/conversation';
import { ScreenScaling } from '../models/screenScaling';
import type { Task } from '../taskEnv/loadTask';
import type { EnvLike } from '../env/env';
import { LimitReachedError, stepAction, type Agent, type AgentOutcome } from './agent';
import type { AgentEvent } from '../models/agentEvents';
import { StatsCollector, type AgentStats, type StopReason } from '../models/runStatistics';
import { computerActionName, mapComputerAction } from './computerUse';
import { contextView, DEFAULT_CONTEXT, type ContextPolicy } from './contextWindow';
import { FULL_VIEW, observeScreen, type ScreenView } from './screenObservation';
import { parseScreenArgs, screenFunctionTool, ToolArgumentError, type ScreenToolKey } from './screenTools';

export type SettingName = 'cua' | 'cua-filebash' | 'assisted' | 'ide-agent' | 'bash-only';

/** What distinguishes one agent setting from another. */
export interface AgentSetting {
  name: SettingName;
  /** The system prompt's file under host/agents/prompts/. */
  promptFile: string;
  /** every-turn: the full observation after each turn; on-request: a screenshot tool; none: no screen. */
  screen: 'every-turn' | 'on-request' | 'none';
  /** Keyboard, mouse, mark clicks and raw xdotool. */
  input: boolean;
  /** IDE tool groups (tools.list) the agent may call. */
  toolGroups: ToolGroup[];
  /** Only these tools of those groups (default all of them). */
  toolNames?: string[];
}

export interface ModelAgentOptions {
  model: ModelClient;
  /** Model turns (default 20). */
  maxSteps?: number;
  /** Wall-clock cap (ms); the task's own time limit applies too. */
  timeCapMs?: number;
  /** Input plus output tokens the run may spend. */
  tokenBudget?: number;
  context?: Partial<ContextPolicy>;
  /** Whether images may be sent at all (default: yes where the setting has a screen and the model takes them). */
  images?: boolean;
  imageFormat?: 'png' | 'jpeg';
  maxOutputTokens?: number;
  temperature?: number;
  /** Use Anthropic's computer-use tool where the provider has it (default true). */
  computerTool?: boolean;
  /** Progress lines (one per turn). */
  progress?: (line: string) => void;
}

const PROMPTS_DIR = join(__dirname, 'prompts');
/** The task's time limit is enforced by aborting the agent; stop this much before it so the run closes cleanly. */
const TASK_LIMIT_MARGIN_MS = 3000;
const MAX_NUDGES = 2;

export function loadPrompt(file: string): string {
  return readFileSync(join(PROMPTS_DIR, file), 'utf8').trim();
}

interface CallOutcome {
  result: ToolResult;
  usageName: string;
  malformed: boolean;
  done?: boolean;
  ms: number;
}

class StopRun extends Error {
  constructor(readonly reason: StopReason, message: string) { super(message); this.name = 'StopRun'; }
}

export class ModelAgent implements Agent {
  readonly name: string;
  readonly model: string;
  private readonly o: Required<Pick<ModelAgentOptions, 'maxSteps' | 'imageFormat' | 'computerTool'>> & ModelAgentOptions;
  private readonly context: ContextPolicy;

  constructor(readonly setting: AgentSetting, opts: ModelAgentOptions) {
    this.name = setting.name;
    this.model = `${opts.model.provider}:${opts.model.model}`;
    // Options left undefined (a CLI flag not given) take the defaults.
    this.o = { ...opts, maxSteps: opts.maxSteps ?? 20, imageFormat: opts.imageFormat ?? 'png', computerTool: opts.computerTool ?? true };
    // Without images a computer-use agent still has the Set-of-Marks listing to go by.
    const imagesAllowed = setting.screen !== 'none' && this.o.images !== false;
    this.context = { ...DEFAULT_CONTEXT, ...opts.context, ...(imagesAllowed ? {} : { keepImages: 0 }) };
  }

  get imagesAllowed(): boolean { return this.context.keepImages > 0; }

  async run(env: EnvLike, task: Task, signal: AbortSignal): Promise<AgentOutcome> {
    const model = this.o.model;
    const stats = new StatsCollector(this.setting.name, model.provider, model.model);
    const record = (e: AgentEvent) => env.annotate(e);
    const t0 = Date.now();
    const deadline = Math.min(
      this.o.timeCapMs !== undefined ? t0 + this.o.timeCapMs : Infinity,
      t0 + task.limits.seconds * 1000 - TASK_LIMIT_MARGIN_MS,
    );
    const stopping = new AbortController();
    const onAbort = () => stopping.abort(signal.reason);
    signal.addEventListener('abort', onAbort);
    const timer = setTimeout(() => stopping.abort(new StopRun('time-cap', `time cap reached after ${Math.round((Date.now() - t0) / 1000)} s`)), Math.max(0, deadline - t0));

    const finish = (reason: StopReason, detail: string, error?: string): AgentOutcome => {
      const s = stats.stop(reason, detail);
      record({ type: 'agentStats', stats: s });
      env.annotate({ type: 'note', text: `${this.setting.name} agent stopped: ${reason} (${detail})` });
      return {
        status: reason === 'done' ? 'finished' : reason === 'error' ? 'finished' : 'truncated',
        reason: detail,
        ...(error ? { error } : {}),
        stats: s,
      };
    };

    try {
      env.annotate({ type: 'note', text: `${this.setting.name} agent: model ${this.model}, at most ${this.o.maxSteps} turns` +
        `${this.o.timeCapMs !== undefined ? `, ${Math.round(this.o.timeCapMs / 1000)} s` : ''}${this.o.tokenBudget !== undefined ? `, ${this.o.tokenBudget} tokens` : ''}` +
        `, images ${this.imagesAllowed ? `on (newest ${this.context.keepImages} kept)` : 'off'}` });
      const run = new Turns(this, env, task, stats, record, stopping.signal);
      return await run.loop(finish);
    } catch (err) {
      if (err instanceof StopRun) return finish(err.reason, err.message, err.reason === 'error' ? err.message : undefined);
      if (stopping.signal.aborted) {
        const r = stopping.signal.reason;
        if (r instanceof StopRun) return finish(r.reason, r.message);
        if (r instanceof LimitReachedError) return finish('time-cap', r.message);
        return finish('error', `stopped: ${(r as Error)?.message ?? String(r)}`);
      }
      if (err instanceof LimitReachedError) return finish(/time/.test(err.message) ? 'time-cap' : 'action-limit', err.message);
      const msg = (err as Error).message;
      return finish('error', msg, msg);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** Internals the turn loop needs. */
  get options() { return this.o; }
  get policy(): ContextPolicy { return this.context; }
}

/** One run's state: the conversation, the tools, the screen scaling. */
class Turns {
  private readonly messages: Message[] = [];
  private tools: ToolSpec[] = [];
  /** IDE tools by name, with their default deadline. */
  private ideTools = new Map<string, { timeoutMs: number }>();
  private screenTools = new Map<string, ScreenToolKey>();
  private computerVersion: string | null = null;
  private scaling?: ScreenScaling;
  private markIds: Set<number> | null = null;
  private system = '';
  private step = 0;

  constructor(
    private readonly agent: ModelAgent,
    private readonly env: EnvLike,
    private readonly task: Task,
    private readonly stats: StatsCollector,
    private readonly record: (e: AgentEvent) => void,
    private readonly signal: AbortSignal,
  ) {}

  private get setting(): AgentSetting { return this.agent.setting; }
  private get o() { return this.agent.options; }

  private async setUp(): Promise<void> {
    const s = this.setting;
    const model = this.o.model;
    if (s.input) {
      this.computerVersion = this.o.computerTool && model.computerTool ? model.computerTool : null;
      const keys: ScreenToolKey[] = this.computerVersion
        ? ['click_mark', 'xdotool']
        : ['click', 'type_text', 'press_keys', 'scroll', 'drag', 'move_mouse', 'xdotool', 'wait'];
      if (s.screen === 'on-request' && !this.computerVersion) keys.push('screenshot');
      if (this.env.episode.environment?.viewUrl) keys.push('ask_person');
      keys.push('done');
      for (const k of keys) {
        const t = screenFunctionTool(k);
        this.screenTools.set(t.name, k);
        this.tools.push(t);
      }
      // The screen's size, from the cheapest picture of it.
      const shot = (await this.env.observe(['screenshot'], { format: 'jpeg', quality: 10, throwErrors: true })).screenshot!;
      this.scaling = new ScreenScaling({ width: shot.width, height: shot.height }, this.computerVersion ? undefined : { width: shot.width, height: shot.height });
      if (this.computerVersion) this.tools.unshift({ kind: 'computer', version: this.computerVersion, width: this.scaling.model.width, height: this.scaling.model.height });
    } else {
      for (const k of [...(this.env.episode.environment?.viewUrl ? ['ask_person' as const] : []), 'done' as const]) {
        const t = screenFunctionTool(k);
        this.screenTools.set(t.name, k);
        this.tools.push(t);
      }
    }
    if (s.toolGroups.length) {
      const listed = await this.env.query('tools.list', { groups: s.toolGroups });
      const wanted = s.toolNames ? listed.tools.filter((t) => s.toolNames!.includes(t.name)) : listed.tools;
      const missing = (s.toolNames ?? []).filter((n) => !listed.tools.some((t) => t.name === n));
      if (missing.length) throw new Error(`the IDE does not offer ${missing.join(', ')} (groups ${s.toolGroups.join(', ')})`);
      for (const t of wanted) {
        if (this.screenTools.has(t.name) || t.name === 'computer') throw new Error(`IDE tool ${t.name} clashes with an agent tool of the same name`);
        const { $schema: _s, ...parameters } = t.inputSchema;
        const fn: FunctionTool = { kind: 'function', name: t.name, description: t.description, parameters };
        this.tools.push(fn);
        this.ideTools.set(t.name, { timeoutMs: t.timeoutMs });
      }
    }
    this.system = loadPrompt(s.promptFile);
  }

  private toolNames(): string[] {
    return this.tools.map((t) => (t.kind === 'computer' ? 'computer' : t.name));
  }

  private async firstMessage(): Promise<Message> {
    const lines = [
      `Task: ${this.task.instruction}`,
      '',
      `The project is open in VS Code; its folder is /workspace. You have at most ${this.o.maxSteps} turns; call done when the task is complete.`,
    ];
    if (this.scaling) lines.push(`The screen is ${this.scaling.model.width}x${this.scaling.model.height} pixels.`);
    if (this.setting.screen !== 'none' && !this.agent.imagesAllowed) {
      lines.push('This run sends no images: go by the Set-of-Marks listing, the focused element and the pointer position.');
    }
    const content: ContentPart[] = [{ type: 'text', text: lines.join('\n') }];
    if (this.setting.screen === 'every-turn') {
      const obs = await this.look(FULL_VIEW, 'The screen now');
      content.push(...obs);
    }
    return { role: 'user', content, step: 0 };
  }

  /** Observes the screen; images are left out where the setting does not allow them. */
  private async look(view: ScreenView, label?: string): Promise<ContentPart[]> {
    const allowImages = this.agent.imagesAllowed;
    const v: ScreenView = allowImages ? view : { ...view, screenshot: false, marksImage: false, marks: view.marks || view.marksImage };
    // The first delta on the agent's baseline is the whole screen: not worth an image.
    const obs = await observeScreen(this.env, v, { step: this.step, format: this.o.imageFormat, scaling: this.scaling, label, baseline: 'agent', deltaImage: this.step > 0 });
    if (obs.markIds) this.markIds = obs.markIds;
    return obs.parts;
  }

  async loop(finish: (reason: StopReason, detail: string, error?: string) => AgentOutcome): Promise<AgentOutcome> {
    await this.setUp();
    this.messages.push(await this.firstMessage());
    let nudges = 0;
    let contextTokens = this.agent.policy.contextTokens;
    for (this.step = 1; this.step <= this.o.maxSteps; this.step++) {
      if (this.signal.aborted) throw this.signal.reason;
      const spent = this.stats.stats.tokens.total;
      if (this.o.tokenBudget !== undefined && spent >= this.o.tokenBudget) return finish('token-budget', `token budget of ${this.o.tokenBudget} spent (${spent})`);
      const reply = await this.ask(contextTokens, (smaller) => { contextTokens = smaller; });
      this.messages.push({
        role: 'assistant', text: reply.text, toolCalls: reply.toolCalls, step: this.step,
        ...(reply.anthropicContent ? { anthropicContent: reply.anthropicContent } : {}),
      });
      this.o.progress?.(`step ${this.step}: ${reply.toolCalls.map((c) => c.name).join(', ') || 'no tool call'} (${reply.usage.input}+${reply.usage.output} tokens, ${reply.latencyMs} ms)`);
      if (reply.toolCalls.length === 0) {
        if (++nudges > MAX_NUDGES) return finish('no-action', `the model answered ${nudges} times without calling a tool`);
        const hint = reply.stopReason === 'max_tokens' || reply.stopReason === 'length'
          ? 'Your reply was cut off at the output limit. Act with one tool call at a time.'
          : 'You did not call a tool. Act with a tool call; when the task is complete, call done.';
        this.messages.push({ role: 'user', content: [{ type: 'text', text: hint }], step: this.step });
        continue;
      }
      nudges = 0;
      const results: ToolResult[] = [];
      let done = false;
      for (const call of reply.toolCalls) {
        if (done) {
          results.push({ callId: call.id, name: call.name, content: [{ type: 'text', text: 'Not run: done was called before it.' }], isError: true, step: this.step });
          continue;
        }
        const out = await this.perform(call);
        results.push(out.result);
        this.stats.tool(out.usageName, out.result.isError, out.malformed);
        this.record({
          type: 'toolResult', step: this.step, callId: call.id, name: out.usageName, isError: out.result.isError, malformed: out.malformed,
          text: out.result.content.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text).join('\n').slice(0, 4000),
          images: out.result.content.filter((p) => p.type === 'image').length, ms: out.ms,
        });
        if (out.done) done = true;
      }
      const after = !done && this.setting.screen === 'every-turn' ? await this.look(FULL_VIEW) : [];
      this.messages.push({ role: 'tool', results, after, step: this.step });
      if (done) return finish('done', `the model called done at step ${this.step}`);
      if (this.o.tokenBudget !== undefined && this.stats.stats.tokens.total >= this.o.tokenBudget) {
        return finish('token-budget', `token budget of ${this.o.tokenBudget} spent (${this.stats.stats.tokens.total})`);
      }
    }
    return finish('step-cap', `step cap of ${this.o.maxSteps} turns reached`);
  }

  /** One request; a context-length refusal is retried once with a smaller context. */
  private async ask(contextTokens: number, shrink: (n: number) => void): Promise<ModelReply> {
    for (let tryNo = 0; ; tryNo++) {
      const view = contextView(this.messages, { ...this.agent.policy, contextTokens }, this.system);
      const t0 = performance.now();
      try {
        const reply = await this.o.model.complete({
          system: this.system, messages: view.messages, tools: this.tools,
          maxOutputTokens: this.o.maxOutputTokens ?? 4096, temperature: this.o.temperature, signal: this.signal,
        });
        this.stats.turn(reply.usage, reply.latencyMs, reply.attempts.length, view.images);
        this.stats.stats.droppedTurns = Math.max(this.stats.stats.droppedTurns, view.droppedTurns);
        this.record({
          type: 'model', step: this.step, model: reply.model, text: reply.text, toolCalls: reply.toolCalls, usage: reply.usage,
          latencyMs: reply.latencyMs, attempts: reply.attempts, stopReason: reply.stopReason,
          request: { messages: view.messages.length, images: view.images, estimatedTokens: view.estimatedTokens, droppedTurns: view.droppedTurns },
        });
        return reply;
      } catch (err) {
        const ms = Math.round(performance.now() - t0);
        const status = (err as { status?: number }).status ?? null;
        const attempts = this.o.model.lastAttempts();
        this.stats.failedRequest(ms, attempts.length);
        this.record({ type: 'modelError', step: this.step, error: (err as Error).message, status, attempts, ms });
        if (this.signal.aborted) throw this.signal.reason;
        const tooLong = status === 400 && /context|too long|too many tokens|maximum.*tokens|prompt is too long/i.test((err as Error).message);
        if (tooLong && tryNo === 0) {
          const smaller = Math.max(4000, Math.floor(Math.min(contextTokens, view.estimatedTokens) / 2));
          shrink(smaller);
          contextTokens = smaller;
          continue;
        }
        throw new StopRun('error', `the model API failed${status ? ` (HTTP ${status})` : ''}${attempts.length > 1 ? ` after ${attempts.length} attempts` : ''}: ${(err as Error).message}`);
      }
    }
  }

  private errorResult(call: ToolCall, text: string): ToolResult {
    return { callId: call.id, name: call.name, content: [{ type: 'text', text }], isError: true, step: this.step };
  }

  private okResult(call: ToolCall, content: ContentPart[]): ToolResult {
    return { callId: call.id, name: call.name, content, isError: false, step: this.step };
  }

  /** Performs one tool call; whatever the model got wrong comes back as an error result. */
  private async perform(call: ToolCall): Promise<CallOutcome> {
    const t0 = Date.now();
    const out = (o: Omit<CallOutcome, 'ms'>): CallOutcome => ({ ...o, ms: Date.now() - t0 });
    let args: unknown;
    try {
      args = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
      if (!args || typeof args !== 'object' || Array.isArray(args)) throw new Error('the arguments must be a JSON object');
    } catch (err) {
      return out({
        result: this.errorResult(call, `Your call to ${call.name} could not be read: its arguments are not a JSON object (${(err as Error).message}). Nothing was done. Call it again with valid JSON arguments.`),
        usageName: call.name, malformed: true,
      });
    }
    const name = call.name;
    const usageName = name === 'computer' ? `computer.${computerActionName(args) ?? '?'}` : name;
    try {
      if (name === 'computer' && this.computerVersion) return out(await this.computer(call, args));
      const key = this.screenTools.get(name);
      if (key) return out(await this.screenTool(call, key, args));
      if (this.ideTools.has(name)) return out(await this.ideTool(call, args as Record<string, unknown>));
      return out({
        result: this.errorResult(call, `There is no tool named "${name}". Nothing was done. The tools are: ${this.toolNames().join(', ')}.`),
        usageName, malformed: true,
      });
    } catch (err) {
      if (err instanceof LimitReachedError || err instanceof TargetClosedError || err instanceof StopRun) throw err;
      if (this.signal.aborted) throw this.signal.reason;
      const malformed = err instanceof ToolArgumentError || err instanceof InvalidParamsError;
      if (!(err instanceof PwpError) && !malformed) throw err;
      const what = malformed ? 'The arguments do not fit the tool' : `${name} failed`;
      return out({ result: this.errorResult(call, `${what}: ${(err as Error).message}. Nothing was done.`), usageName, malformed });
    }
  }

  private checkMark(mark: number | undefined): void {
    if (mark === undefined || !this.markIds) return;
    if (!this.markIds.has(mark)) {
      const ids = [...this.markIds].sort((a, b) => a - b);
      const range = ids.length ? `ids ${ids[0]} to ${ids[ids.length - 1]}` : 'no elements';
      throw new ToolArgumentError(`mark: ${mark} is not in the latest Set-of-Marks listing (${range}); look at the listing again`);
    }
  }

  private async screenTool(call: ToolCall, key: ScreenToolKey, args: unknown): Promise<Omit<CallOutcome, 'ms'>> {
    const { action } = parseScreenArgs(key, args);
    if (key === 'screenshot') {
      const marks = (args as { marks?: boolean }).marks !== false;
      const parts = await this.look({ screenshot: true, marksImage: marks, marks, cursor: true, focused: true }, 'The screen now');
      return { result: this.okResult(call, parts), usageName: call.name, malformed: false };
    }
    if (key === 'ask_person') {
      const text = await this.askPerson(args as { question: string; timeout_s?: number });
      return { result: this.okResult(call, [{ type: 'text', text }]), usageName: call.name, malformed: false };
    }
    if (!action) throw new Error(`${key} has no action`);
    if (action.type === 'done') {
      // The done step ends the episode (a task Env grades it there).
      await stepAction(this.env, action);
      return { result: this.okResult(call, [{ type: 'text', text: 'Done.' }]), usageName: call.name, malformed: false, done: true };
    }
    if (action.type === 'click') this.checkMark(action.mark);
    const at = (await stepAction(this.env, action)).at;
    return { result: this.okResult(call, [{ type: 'text', text: await this.afterInput(at) }]), usageName: call.name, malformed: false };
  }

  /**
   * Hands control to the person watching the live view with the question, and waits until they
   * hand it back (their answer is the result) or the time runs out; the run's own limits still
   * stop it. Question and answer go into the trajectory beside the person's input.
   */
  private async askPerson(a: { question: string; timeout_s?: number }): Promise<string> {
    const timeoutMs = (a.timeout_s ?? 600) * 1000;
    this.env.annotate({ type: 'note', text: `asked the person: ${a.question}` });
    const stopped = new Promise<never>((_, reject) => {
      if (this.signal.aborted) reject(this.signal.reason);
      this.signal.addEventListener('abort', () => reject(this.signal.reason), { once: true });
    });
    const t0 = Date.now();
    const s = await Promise.race([this.env.handOff(a.question, { timeoutMs }), stopped]);
    // Control comes back by itself when the time runs out (the request's own limit).
    const text = s.holder !== 'agent' || (!s.answer && Date.now() - t0 >= timeoutMs) ? `The person did not answer within ${timeoutMs / 1000} s; control is yours again.`
      : s.answer ? `The person handed control back and answered: ${s.answer}`
        : 'The person handed control back without an answer (look at the screen for what they did).';
    this.env.annotate({ type: 'note', text: `ask_person: ${text}` });
    return text;
  }

  /** The short text an input action answers with (the screen itself comes with the observation, or on request). */
  private async afterInput(at?: { x: number; y: number }): Promise<string> {
    const parts = ['ok'];
    if (at) {
      const p = this.scaling ? this.scaling.toModel(at.x, at.y) : at;
      parts.push(`clicked at (${p.x}, ${p.y})`);
    }
    if (this.setting.screen === 'on-request') {
      const f = await this.env.query('dom.focused', {}).catch(() => undefined);
      if (f) parts.push(`focus: ${f.focused ? `${f.focused.role || f.focused.tag}${f.focused.text ? ` "${f.focused.text.slice(0, 60)}"` : ''} in the ${f.focused.part || 'workbench'}` : 'none'}`);
    }
    return parts.join('; ');
  }

  private async computer(call: ToolCall, args: unknown): Promise<Omit<CallOutcome, 'ms'>> {
    const usageName = `computer.${computerActionName(args) ?? '?'}`;
    const scaling = this.scaling!;
    const step = await mapComputerAction(this.computerVersion!, args, scaling, () => this.env.query('capture.cursor', {}));
    switch (step.kind) {
      case 'screenshot': {
        const view: ScreenView = this.setting.screen === 'every-turn' ? { screenshot: true } : { screenshot: true, marks: true, cursor: true, focused: true };
        return { result: this.okResult(call, await this.look(view, 'The screen now')), usageName, malformed: false };
      }
      case 'cursor': {
        const c = await this.env.query('capture.cursor', {});
        const p = scaling.toModel(c.x, c.y);
        return { result: this.okResult(call, [{ type: 'text', text: `X=${p.x},Y=${p.y}` }]), usageName, malformed: false };
      }
      case 'zoom': {
        if (!this.agent.imagesAllowed) return { result: this.errorResult(call, 'zoom is not available: this run sends no images'), usageName, malformed: false };
        const shot = (await this.env.observe(['screenshot'], { format: this.o.imageFormat, quality: 80, region: step.region, throwErrors: true })).screenshot!;
        return {
          result: this.okResult(call, [{
            type: 'image', mediaType: shot.format === 'png' ? 'image/png' : 'image/jpeg', data: shot.data.toString('base64'),
            label: `zoom at step ${this.step}`, step: this.step,
          }]),
          usageName, malformed: false,
        };
      }
      case 'actions': {
        let at: { x: number; y: number } | undefined;
        for (const a of step.actions) at = (await stepAction(this.env, a)).at ?? at;
        return { result: this.okResult(call, [{ type: 'text', text: await this.afterInput(at) }]), usageName, malformed: false };
      }
    }
  }

  private async ideTool(call: ToolCall, args: Record<string, unknown>): Promise<Omit<CallOutcome, 'ms'>> {
    // The tool's own deadline, kept below the bridge client's 120 s so the tool answers first (as a result).
    const deadline = this.ideTools.get(call.name)!.timeoutMs;
    const info = await stepAction(this.env, { type: 'tool', name: call.name, args, ...(deadline > 110_000 ? { timeoutMs: 110_000 } : {}) });
    const r = info.toolResult as Result<'tools.call'>;
    const content: ContentPart[] = r.content.map((c): ContentPart => {
      if (c.type === 'text') return { type: 'text', text: c.text };
      if (!this.agent.imagesAllowed) return { type: 'text', text: `[an image (${c.mimeType}) was left out: this setting sends no images]` };
      return {
        type: 'image', mediaType: c.mimeType === 'image/jpeg' ? 'image/jpeg' : 'image/png', data: c.data, label: `${call.name} image at step ${this.step}`, step: this.step,
      };
    });
    return { result: { callId: call.id, name: call.name, content, isError: r.isError, step: this.step }, usageName: call.name, malformed: false };
  }
}

export type { AgentStats };
