import { z } from 'zod';
import { method } from './common';

// tools.* methods are served by the extension (extension/src/tools). A tool's parameters are
// a JSON Schema derived from its zod schema, usable as-is as an OpenAI, Anthropic or MCP
// function definition. A tool that runs but fails (missing file, path outside the workspace,
// ambiguous edit) answers with isError: true and the reason as text, as MCP does; arguments
// that do not match the schema and unknown tool names are InvalidParamsError.

export const ToolGroup = z.enum([
  /** computer-use style file editor and persistent bash */
  'filebash',
  /** PwP's assisted tools */
  'assisted',
  /** IDE-native tools: language server, debugger, tasks, tests */
  'ide',
  /** the IDE-Bench tool set */
  'idebench',
  /** tools every group needs (paging through a truncated output) */
  'common',
]);
export type ToolGroup = z.infer<typeof ToolGroup>;

/** What a tool call may change (see ToolDefinition.effects in the extension's tool registry). */
export const ToolEffects = z.enum(['read', 'write', 'destructive']);
export type ToolEffects = z.infer<typeof ToolEffects>;

const ToolInfo = z.object({
  name: z.string(),
  description: z.string(),
  group: ToolGroup,
  effects: ToolEffects,
  /** Reaches beyond the sandbox's workspace (the web, any URL or host). */
  openWorld: z.boolean(),
  /** JSON Schema (draft 2020-12 subset) of the arguments; always `type: "object"` at the top. */
  inputSchema: z.record(z.string(), z.unknown()),
  /** The deadline the tool gets unless the call asks for another (at most maxTimeoutMs). */
  timeoutMs: z.int(),
  maxTimeoutMs: z.int(),
});
export type ToolInfo = z.infer<typeof ToolInfo>;

export const ToolContent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('image'), mimeType: z.string(), data: z.string() }),
]);
export type ToolContent = z.infer<typeof ToolContent>;

const ToolLogEntry = z.object({
  id: z.int(),
  name: z.string(),
  group: ToolGroup.nullable(),
  /** The arguments as given (long strings cut to 2000 characters). */
  args: z.unknown(),
  startedAt: z.string(),
  durationMs: z.number(),
  /** Characters of text and bytes of (base64) image data returned. */
  resultChars: z.int(),
  images: z.int(),
  isError: z.boolean(),
  /** The error message, for invalid arguments, tool failures and timeouts. */
  error: z.string().nullable(),
  truncated: z.boolean(),
});
export type ToolLogEntry = z.infer<typeof ToolLogEntry>;

export const toolsMethods = {
  'tools.list': method(
    'Every tool with its group, description and JSON Schema for its arguments. Filter by groups (the "common" ' +
      'tools are always included) or names.',
    z.object({
      groups: z.array(ToolGroup).min(1).optional(),
      names: z.array(z.string().min(1).max(200)).min(1).max(500).optional(),
    }).strict(),
    z.object({ tools: z.array(ToolInfo) }),
  ),

  'tools.call': method(
    'Run one tool. Text output is capped at maxOutputChars: a longer output is cut, says so in the text, and ' +
      '`truncated` names the read_output call that pages through the rest. timeoutMs overrides the tool\'s ' +
      'deadline (up to its maxTimeoutMs); pass a larger client-side timeout for long calls.',
    z.object({
      name: z.string().min(1).max(200),
      args: z.record(z.string(), z.unknown()).default({}),
      timeoutMs: z.int().min(100).max(3_600_000).optional(),
      maxOutputChars: z.int().min(1000).max(5_000_000).default(30_000),
    }).strict(),
    z.object({
      callId: z.int(),
      content: z.array(ToolContent),
      isError: z.boolean(),
      durationMs: z.number(),
      truncated: z.object({
        totalChars: z.int(),
        shownChars: z.int(),
        outputId: z.string(),
        /** The call that returns the next page. */
        next: z.object({ name: z.literal('read_output'), args: z.object({ output_id: z.string(), offset: z.int(), limit: z.int() }) }),
      }).nullable(),
    }),
  ),

  'tools.baseline': method(
    'Take the snapshot of the workspace that get_diff_patch compares against, now. The tools take one when they ' +
      'first start in an environment; a task whose set-up changes the workspace calls this after the set-up, so the ' +
      'patch shows only the agent\'s changes.',
    z.object({}).strict(),
    z.object({ files: z.int(), tookMs: z.number() }),
  ),

  'tools.log': method(
    'The environment\'s tool log: every tools.call (name, arguments, result size, duration, error), oldest first. ' +
      'Entries survive an extension-host reload.',
    z.object({ sinceId: z.int().min(0).default(0), limit: z.int().min(1).max(100_000).default(10_000) }).strict(),
    z.object({ entries: z.array(ToolLogEntry), nextId: z.int() }),
  ),
};
