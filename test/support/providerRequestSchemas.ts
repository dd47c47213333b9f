// The request shapes each provider documents, for the parts pwp relies on, as zod schemas:
// OpenAI chat completions (POST /v1/chat/completions) and Anthropic messages (POST /v1/messages).
// Strict where the API is strict (unknown block fields, roles, image encodings), plus the rules
// the APIs enforce across messages: every tool call answered right after it, and (Anthropic)
// alternating roles starting with the user, tool results first in their message.
import { z } from 'zod';
import type { IncomingHttpHeaders } from 'node:http';

const ToolName = z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/);
const JsonSchemaObject = z.object({ type: z.literal('object') }).passthrough();

// ---- OpenAI chat completions ----
const OaText = z.object({ type: z.literal('text'), text: z.string() }).strict();
const OaImage = z.object({
  type: z.literal('image_url'),
  image_url: z.object({ url: z.string().regex(/^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+=*$/), detail: z.enum(['auto', 'low', 'high']).optional() }).strict(),
}).strict();
const OaToolCall = z.object({ id: z.string().min(1), type: z.literal('function'), function: z.object({ name: z.string().min(1), arguments: z.string() }).strict() }).strict();
const OaMessage = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.union([z.string(), z.array(OaText)]), name: z.string().optional() }).strict(),
  z.object({ role: z.literal('user'), content: z.union([z.string(), z.array(z.union([OaText, OaImage])).min(1)]), name: z.string().optional() }).strict(),
  z.object({
    role: z.literal('assistant'), content: z.union([z.string(), z.array(OaText), z.null()]).optional(),
    tool_calls: z.array(OaToolCall).min(1).optional(), name: z.string().optional(),
  }).strict().refine((m) => (m.content !== undefined && m.content !== null) || m.tool_calls, { message: 'an assistant message needs content or tool_calls' }),
  z.object({ role: z.literal('tool'), tool_call_id: z.string().min(1), content: z.union([z.string(), z.array(OaText)]) }).strict(),
]);
export const OpenAiChatRequest = z.object({
  model: z.string().min(1),
  messages: z.array(OaMessage).min(1),
  tools: z.array(z.object({
    type: z.literal('function'),
    function: z.object({ name: ToolName, description: z.string().optional(), parameters: JsonSchemaObject, strict: z.boolean().optional() }).strict(),
  }).strict()).min(1).optional(),
  tool_choice: z.union([z.enum(['none', 'auto', 'required']), z.object({ type: z.literal('function'), function: z.object({ name: ToolName }) })]).optional(),
  max_completion_tokens: z.int().min(1).optional(),
  max_tokens: z.int().min(1).optional(),
  temperature: z.number().min(0).max(2).optional(),
  stream: z.literal(false).optional(),
}).passthrough().superRefine((r, ctx) => {
  if (r.tool_choice && !r.tools) ctx.addIssue({ code: 'custom', path: ['tool_choice'], message: 'tool_choice without tools' });
  // Every tool call is answered by a tool message before any other message.
  r.messages.forEach((m, i) => {
    if (m.role !== 'assistant' || !m.tool_calls) return;
    const open = new Set(m.tool_calls.map((c) => c.id));
    let j = i + 1;
    for (; j < r.messages.length && r.messages[j].role === 'tool'; j++) {
      const t = r.messages[j] as { tool_call_id: string };
      if (!open.delete(t.tool_call_id)) ctx.addIssue({ code: 'custom', path: ['messages', j, 'tool_call_id'], message: `answers no open tool call of message ${i}` });
    }
    if (open.size) ctx.addIssue({ code: 'custom', path: ['messages', i, 'tool_calls'], message: `tool calls without a tool message right after: ${[...open].join(', ')}` });
  });
  r.messages.forEach((m, i) => {
    if (m.role === 'tool' && (i === 0 || !['assistant', 'tool'].includes(r.messages[i - 1].role))) {
      ctx.addIssue({ code: 'custom', path: ['messages', i], message: 'a tool message must follow an assistant message with tool_calls' });
    }
  });
});

// ---- Anthropic messages ----
const AnText = z.object({ type: z.literal('text'), text: z.string().min(1), cache_control: z.unknown().optional() }).strict();
const AnImage = z.object({
  type: z.literal('image'),
  source: z.object({ type: z.literal('base64'), media_type: z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp']), data: z.string().regex(/^[A-Za-z0-9+/]+=*$/) }).strict(),
  cache_control: z.unknown().optional(),
}).strict();
const AnToolUse = z.object({ type: z.literal('tool_use'), id: z.string().min(1), name: z.string().min(1), input: z.record(z.string(), z.unknown()) }).strict();
const AnToolResult = z.object({
  type: z.literal('tool_result'), tool_use_id: z.string().min(1),
  content: z.union([z.string(), z.array(z.union([AnText, AnImage]))]).optional(),
  is_error: z.boolean().optional(),
}).strict();
const AnThinking = z.object({ type: z.enum(['thinking', 'redacted_thinking']) }).passthrough();
const AnMessage = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.union([z.string().min(1), z.array(z.union([AnText, AnImage, AnToolUse, AnToolResult, AnThinking])).min(1)]),
}).strict();
const AnFunctionTool = z.object({ name: ToolName, description: z.string().optional(), input_schema: JsonSchemaObject, cache_control: z.unknown().optional() }).strict();
const AnComputerTool = z.object({
  type: z.enum(['computer_20241022', 'computer_20250124', 'computer_20251124']),
  name: z.literal('computer'),
  display_width_px: z.int().min(1),
  display_height_px: z.int().min(1),
  display_number: z.int().nullable().optional(),
  enable_zoom: z.boolean().optional(),
}).strict();
export const AnthropicMessagesRequest = z.object({
  model: z.string().min(1),
  max_tokens: z.int().min(1),
  system: z.union([z.string(), z.array(AnText)]).optional(),
  messages: z.array(AnMessage).min(1),
  tools: z.array(z.union([AnComputerTool, AnFunctionTool])).optional(),
  tool_choice: z.unknown().optional(),
  temperature: z.number().min(0).max(1).optional(),
  stream: z.literal(false).optional(),
}).passthrough().superRefine((r, ctx) => {
  if (r.messages[0]?.role !== 'user') ctx.addIssue({ code: 'custom', path: ['messages', 0, 'role'], message: 'the first message must be the user\'s' });
  r.messages.forEach((m, i) => {
    if (i > 0 && r.messages[i - 1].role === m.role) ctx.addIssue({ code: 'custom', path: ['messages', i, 'role'], message: 'roles must alternate' });
    if (!Array.isArray(m.content)) return;
    const blocks = m.content as { type: string; id?: string; tool_use_id?: string }[];
    if (m.role === 'assistant' && blocks.some((b) => b.type === 'tool_result')) {
      ctx.addIssue({ code: 'custom', path: ['messages', i], message: 'tool_result in an assistant message' });
    }
    if (m.role === 'user' && blocks.some((b) => b.type === 'tool_use')) ctx.addIssue({ code: 'custom', path: ['messages', i], message: 'tool_use in a user message' });
    const uses = m.role === 'assistant' ? blocks.filter((b) => b.type === 'tool_use').map((b) => b.id!) : [];
    if (uses.length) {
      const next = r.messages[i + 1];
      const answered = Array.isArray(next?.content) ? (next.content as { type: string; tool_use_id?: string }[]) : [];
      const firstOther = answered.findIndex((b) => b.type !== 'tool_result');
      const results = answered.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id);
      for (const id of uses) if (!results.includes(id)) ctx.addIssue({ code: 'custom', path: ['messages', i + 1], message: `tool_use ${id} is not answered in the next message` });
      if (firstOther >= 0 && answered.slice(firstOther).some((b) => b.type === 'tool_result')) {
        ctx.addIssue({ code: 'custom', path: ['messages', i + 1], message: 'tool_result blocks must come first in the message' });
      }
    }
  });
});

/** Checks a request and its headers; returns the problems (empty when it fits). */
export function requestProblems(api: 'openai' | 'anthropic', body: unknown, headers: IncomingHttpHeaders): string[] {
  const problems: string[] = [];
  const r = api === 'openai' ? OpenAiChatRequest.safeParse(body) : AnthropicMessagesRequest.safeParse(body);
  if (!r.success) problems.push(...r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  if (api === 'openai') {
    if (!/^Bearer \S+$/.test(String(headers.authorization ?? ''))) problems.push('authorization: expected "Bearer <key>"');
  } else {
    // The API takes the key as x-api-key or as a bearer token (newer SDKs send the latter).
    if (!headers['x-api-key'] && !/^Bearer \S+$/.test(String(headers.authorization ?? ''))) problems.push('x-api-key or authorization: missing');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(String(headers['anthropic-version'] ?? ''))) problems.push('anthropic-version: missing or not a date');
    const computer = ((body as { tools?: { type?: string }[] }).tools ?? []).find((t) => t.type?.startsWith('computer_'));
    if (computer) {
      const flag = `computer-use-${computer.type!.slice(9, 13)}-${computer.type!.slice(13, 15)}-${computer.type!.slice(15, 17)}`;
      if (!String(headers['anthropic-beta'] ?? '').split(',').map((s) => s.trim()).includes(flag)) problems.push(`anthropic-beta: ${flag} missing for ${computer.type}`);
    }
  }
  return problems;
}
