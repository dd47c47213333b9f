// Anthropic messages through the official `@anthropic-ai/sdk`, including Anthropic's
// computer-use tool (a beta: the flag follows from the tool version). Tool results carry
// their images themselves; the observation that follows goes in the same user message.
import Anthropic from '@anthropic-ai/sdk';
import type {
  BetaContentBlockParam, BetaImageBlockParam, BetaMessageParam, BetaTextBlockParam, BetaToolUnion,
} from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { ContentPart, HttpAttempt, Message, ModelClient, ModelReply, ModelRequest, ToolCall } from './conversation';
import type { ModelSpec } from './modelConfig';
import { sdkOptions, type AttemptLog } from './observedFetch';

/** computer_20250124 -> computer-use-2025-01-24 */
export function computerBetaFlag(version: string): string {
  const m = /^computer_(\d{4})(\d{2})(\d{2})$/.exec(version);
  if (!m) throw new Error(`not a computer-use tool version: ${version}`);
  return `computer-use-${m[1]}-${m[2]}-${m[3]}`;
}

function blocks(parts: ContentPart[]): (BetaTextBlockParam | BetaImageBlockParam)[] {
  return parts.map((p) => (p.type === 'text'
    ? { type: 'text' as const, text: p.text }
    : { type: 'image' as const, source: { type: 'base64' as const, media_type: p.mediaType, data: p.data } }));
}

function parsedInput(c: ToolCall): unknown {
  try {
    const v = JSON.parse(c.arguments) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch { return {}; }
}

/** The blocks of an assistant turn as the API accepts them back (response-only fields dropped). */
function assistantBlocks(m: Extract<Message, { role: 'assistant' }>): BetaContentBlockParam[] {
  if (m.anthropicContent) {
    return m.anthropicContent.map((b) => {
      const blk = b as Record<string, unknown>;
      switch (blk.type) {
        case 'text': return { type: 'text', text: String(blk.text ?? '') };
        case 'tool_use': return { type: 'tool_use', id: String(blk.id), name: String(blk.name), input: blk.input ?? {} };
        default: return blk as unknown as BetaContentBlockParam; // thinking blocks go back exactly as received
      }
    });
  }
  const out: BetaContentBlockParam[] = [];
  if (m.text) out.push({ type: 'text', text: m.text });
  for (const c of m.toolCalls) out.push({ type: 'tool_use', id: c.id, name: c.name, input: parsedInput(c) });
  return out;
}

export function toAnthropicMessages(messages: Message[]): BetaMessageParam[] {
  const out: BetaMessageParam[] = [];
  for (const m of messages) {
    if (m.role === 'user') out.push({ role: 'user', content: blocks(m.content) });
    else if (m.role === 'assistant') out.push({ role: 'assistant', content: assistantBlocks(m) });
    else {
      const content: BetaContentBlockParam[] = m.results.map((r) => ({
        type: 'tool_result' as const,
        tool_use_id: r.callId,
        content: r.content.length ? blocks(r.content) : [{ type: 'text' as const, text: '(no output)' }],
        ...(r.isError ? { is_error: true } : {}),
      }));
      content.push(...blocks(m.after));
      out.push({ role: 'user', content });
    }
  }
  return out;
}

export function toAnthropicTools(req: ModelRequest): { tools: BetaToolUnion[]; betas: string[] } {
  const betas: string[] = [];
  const tools = req.tools.map((t): BetaToolUnion => {
    if (t.kind === 'function') {
      return { name: t.name, description: t.description, input_schema: t.parameters as { type: 'object'; [k: string]: unknown } };
    }
    betas.push(computerBetaFlag(t.version));
    return { type: t.version, name: 'computer', display_width_px: t.width, display_height_px: t.height } as BetaToolUnion;
  });
  return { tools, betas };
}

export class AnthropicMessagesClient implements ModelClient {
  readonly provider = 'anthropic' as const;
  private readonly sdk: Anthropic;
  private readonly log: AttemptLog = { attempts: [] };

  constructor(readonly spec: ModelSpec) {
    this.sdk = new Anthropic(sdkOptions(spec, this.log));
  }

  get model(): string { return this.spec.model; }
  get computerTool(): string | null { return this.spec.computerTool; }

  lastAttempts(): HttpAttempt[] { return [...this.log.attempts]; }

  async complete(req: ModelRequest): Promise<ModelReply> {
    const { tools, betas } = toAnthropicTools(req);
    this.log.attempts = [];
    const t0 = performance.now();
    const res = await this.sdk.beta.messages.create({
      ...(this.spec.extraBody ?? {}),
      model: this.spec.model,
      max_tokens: req.maxOutputTokens,
      system: req.system,
      messages: toAnthropicMessages(req.messages),
      ...(tools.length ? { tools } : {}),
      ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
      ...(betas.length ? { betas } : {}),
      stream: false,
    }, { signal: req.signal });
    const latencyMs = Math.round(performance.now() - t0);
    const content = (res.content ?? []) as unknown as Record<string, unknown>[];
    const text = content.filter((b) => b.type === 'text').map((b) => String(b.text ?? '')).join('\n');
    const toolCalls = content.filter((b) => b.type === 'tool_use')
      .map((b) => ({ id: String(b.id), name: String(b.name), arguments: JSON.stringify(b.input ?? {}) }));
    return {
      text, toolCalls,
      usage: {
        input: res.usage?.input_tokens ?? 0,
        output: res.usage?.output_tokens ?? 0,
        ...(res.usage?.cache_read_input_tokens ? { cacheRead: res.usage.cache_read_input_tokens } : {}),
        ...(res.usage?.cache_creation_input_tokens ? { cacheWrite: res.usage.cache_creation_input_tokens } : {}),
      },
      stopReason: res.stop_reason ?? 'unknown',
      latencyMs,
      attempts: [...this.log.attempts],
      model: res.model ?? this.spec.model,
      anthropicContent: content,
    };
  }
}
