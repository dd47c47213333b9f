// The tool registry: every tool is a module { name, group, description, params, timeoutMs, run }.
// The registry validates arguments (InvalidParamsError naming the field), enforces the deadline
// (aborting the tool's signal), caps text output with a note and a read_output page, and logs
// every call. No vscode import: unit-tested in plain mocha.
import { z } from 'zod';
import { InvalidParamsError, ToolEffects, type Params, type Result, type ToolContent, type ToolGroup, type ToolInfo } from '../../../bridge/protocol';
import { OutputStore, truncationNote } from './outputStore';
import { ToolError } from './toolError';
import { ToolLog, logArgs } from './toolLog';

export interface ToolContext {
  /** Aborted when the deadline passes (or the call is cancelled): stop work, kill processes. */
  readonly signal: AbortSignal;
  /** ms since the epoch by which the tool must have answered. */
  readonly deadline: number;
  readonly callId: number;
}

/** What a tool returns: plain text, or content items (text and images). */
export type ToolOutput = string | { content: ToolContent[]; isError?: boolean };

export interface ToolDefinition<P extends z.ZodType = z.ZodType> {
  name: string;
  group: ToolGroup;
  description: string;
  /**
   * What a call may change: 'read' nothing; 'write' the workspace or the IDE in ways an edit
   * can undo; 'destructive' anything (deletes, overwrites whole files, runs commands).
   * Clients read it as MCP's tool annotations (ask before a destructive call).
   */
  effects: ToolEffects;
  /** Reaches beyond the sandbox's workspace (the web, any URL or host). */
  openWorld?: boolean;
  /** A z.object at the top (function-calling APIs want an object schema). */
  params: P;
  timeoutMs: number;
  /** How far a caller may raise the deadline; defaults to timeoutMs. */
  maxTimeoutMs?: number;
  run(args: z.output<P>, ctx: ToolContext): Promise<ToolOutput>;
}

/** The limit of a tool that edits files through the IDE. Such an edit crosses the extension
 * host and the IDE's window, which a loaded machine (a language server starting, other IDEs
 * beside it) slows many times over; the limit is there only to stop a call that hangs. */
export const IDE_EDIT_TIMEOUT_MS = 120_000;

/** Typed helper so each tool module infers its args from its schema. */
export function defineTool<P extends z.ZodType>(def: ToolDefinition<P>): ToolDefinition<P> { return def; }

export const text = (t: string): ToolContent => ({ type: 'text', text: t });
export const image = (data: Buffer, mimeType = 'image/png'): ToolContent => ({ type: 'image', mimeType, data: data.toString('base64') });

type AnyTool = ToolDefinition<z.ZodType>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of tools with different param schemas
export type AnyToolDefinition = ToolDefinition<any>;

/** JSON Schema for function calling: the input side (defaults optional), without $schema. */
export function inputSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const js = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete js.$schema;
  if (js.type !== 'object') throw new Error('a tool\'s params must be an object schema');
  return js;
}

export function formatIssues(error: z.ZodError, root: string): string[] {
  return error.issues.map((i) => `${[root, ...i.path].join('.')}: ${i.message}`);
}

/**
 * IDE-Bench's tools all take an optional `explanation` (one sentence on why the call is made,
 * as Cursor-style tool sets ask for): accepted by every tool of the idebench group, kept in the
 * tool log with the other arguments, and not acted on.
 */
const EXPLANATION = z.string().max(2000).optional().describe('One sentence explaining why this tool is being used and how it contributes to the goal (recorded, not acted on)');

function withExplanation<P extends z.ZodType>(def: ToolDefinition<P>): ToolDefinition<P> {
  if (def.group !== 'idebench' || !(def.params instanceof z.ZodObject) || 'explanation' in def.params.shape) return def;
  return { ...def, params: def.params.extend({ explanation: EXPLANATION }) as unknown as P };
}

export class ToolRegistry {
  private readonly tools = new Map<string, AnyTool>();
  private readonly schemas = new Map<string, Record<string, unknown>>();

  constructor(readonly log: ToolLog = new ToolLog(), readonly outputs: OutputStore = new OutputStore()) {
    this.register(defineTool({
      name: 'read_output',
      group: 'common',
      effects: 'read',
      description: 'Read part of a tool output that was cut because it was too long. The truncation note of that output ' +
        'gives the output_id and the offset of the next part.',
      params: z.object({
        output_id: z.string().min(1).describe('The id named in the truncation note'),
        offset: z.int().min(0).default(0).describe('Character offset to start at'),
        limit: z.int().min(1).max(1_000_000).default(30_000).describe('How many characters to return'),
      }).strict(),
      timeoutMs: 5000,
      run: async ({ output_id, offset, limit }) => {
        const full = this.outputs.get(output_id);
        if (full === undefined) throw new ToolError(`no stored output '${output_id}' (only the most recent cut outputs are kept)`);
        if (offset >= full.length) return `[offset ${offset} is at or past the end of the output (${full.length} characters)]`;
        const part = full.slice(offset, offset + limit);
        const end = offset + part.length;
        return end < full.length ? `${part}${truncationNote(output_id, offset, part.length, full.length)}` : `${part}\n\n[end of output: characters ${offset}-${end} of ${full.length}]`;
      },
    }));
  }

  register<P extends z.ZodType>(given: ToolDefinition<P>): this {
    const def = withExplanation(given);
    if (this.tools.has(def.name)) throw new Error(`tool '${def.name}' registered twice`);
    if (!ToolEffects.safeParse(def.effects).success) throw new Error(`tool '${def.name}' declares no effects (read, write or destructive)`);
    this.schemas.set(def.name, inputSchemaOf(def.params));
    this.tools.set(def.name, def as unknown as AnyTool);
    return this;
  }

  get names(): string[] { return [...this.tools.keys()]; }

  list(p: Params<'tools.list'> = {}): ToolInfo[] {
    return [...this.tools.values()]
      .filter((t) => !p.groups || t.group === 'common' || p.groups.includes(t.group))
      .filter((t) => !p.names || p.names.includes(t.name))
      .map((t) => ({
        name: t.name, description: t.description, group: t.group, effects: t.effects, openWorld: t.openWorld ?? false, inputSchema: this.schemas.get(t.name)!,
        timeoutMs: t.timeoutMs, maxTimeoutMs: t.maxTimeoutMs ?? t.timeoutMs,
      }));
  }

  async call(p: Params<'tools.call'>, outer?: AbortSignal): Promise<Result<'tools.call'>> {
    const callId = this.log.reserveId();
    const started = Date.now();
    const startedAt = new Date(started).toISOString();
    const tool = this.tools.get(p.name);
    const logBase = { id: callId, name: p.name, group: tool?.group ?? null, args: logArgs(p.args), startedAt };
    const fail = (err: InvalidParamsError): never => {
      this.log.append({ ...logBase, durationMs: Date.now() - started, resultChars: 0, images: 0, isError: true, error: err.message, truncated: false });
      throw err;
    };
    if (!tool) fail(new InvalidParamsError(`params.name: unknown tool '${p.name}'`, { known: this.names.sort() }));
    const parsed = tool!.params.safeParse(p.args);
    if (!parsed.success) {
      const issues = formatIssues(parsed.error, 'args');
      fail(new InvalidParamsError(`${p.name}: ${issues.join('; ')}`, { issues }));
    }

    const max = tool!.maxTimeoutMs ?? tool!.timeoutMs;
    if (p.timeoutMs !== undefined && p.timeoutMs > max) fail(new InvalidParamsError(`params.timeoutMs: ${p.name} allows at most ${max} ms`));
    const timeoutMs = p.timeoutMs ?? tool!.timeoutMs;
    const controller = new AbortController();
    const onOuter = () => controller.abort(new Error('the call was cancelled'));
    outer?.addEventListener('abort', onOuter, { once: true });
    const ctx: ToolContext = { signal: controller.signal, deadline: started + timeoutMs, callId };

    let content: ToolContent[];
    let isError: boolean;
    let error: string | null = null;
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new ToolError(`${p.name} did not finish within ${timeoutMs} ms and was stopped`, 'Timeout')), timeoutMs);
      });
      const out = await Promise.race([tool!.run(parsed.data, ctx), timeout]);
      content = typeof out === 'string' ? [text(out)] : out.content;
      isError = typeof out !== 'string' && !!out.isError;
      if (isError) error = content.filter((c) => c.type === 'text').map((c) => (c as { text: string }).text).join('\n').slice(0, 2000);
    } catch (err) {
      isError = true;
      if (err instanceof InvalidParamsError) error = err.message;
      else if (err instanceof ToolError) error = err.message;
      else error = `${p.name} failed: ${(err as Error)?.message ?? String(err)}`;
      content = [text(`Error: ${error}`)];
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuter);
      if (!controller.signal.aborted) controller.abort(new Error('the call ended'));
    }

    const capped = this.cap(content, p.maxOutputChars);
    const durationMs = Date.now() - started;
    const resultChars = capped.content.reduce((n, c) => n + (c.type === 'text' ? c.text.length : c.data.length), 0);
    this.log.append({
      ...logBase, durationMs, resultChars, images: capped.content.filter((c) => c.type === 'image').length,
      isError, error, truncated: capped.truncated !== null,
    });
    return { callId, content: capped.content, isError, durationMs, truncated: capped.truncated };
  }

  /** Cuts text beyond maxChars (all text items together), storing the whole for read_output. */
  private cap(content: ToolContent[], maxChars: number): { content: ToolContent[]; truncated: Result<'tools.call'>['truncated'] } {
    const total = content.reduce((n, c) => n + (c.type === 'text' ? c.text.length : 0), 0);
    if (total <= maxChars) return { content, truncated: null };
    const full = content.filter((c) => c.type === 'text').map((c) => (c as { text: string }).text).join('\n');
    const outputId = this.outputs.put(full);
    const shown = full.slice(0, maxChars);
    const images = content.filter((c) => c.type === 'image');
    return {
      content: [text(shown + truncationNote(outputId, 0, shown.length, full.length)), ...images],
      truncated: {
        totalChars: full.length, shownChars: shown.length, outputId,
        next: { name: 'read_output', args: { output_id: outputId, offset: shown.length, limit: maxChars } },
      },
    };
  }
}
