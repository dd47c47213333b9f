// OpenAI-compatible chat completions with function calling, through the official `openai`
// SDK: api.openai.com and local servers (vLLM, Ollama, llama.cpp, LM Studio) via a base URL.
// Tool messages carry text only, so images a tool or an observation produced go in a user
// message right after the tool messages.
import OpenAI from 'openai';
import type {
  ChatCompletionContentPart, ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam, ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { ContentPart, HttpAttempt, Message, ModelClient, ModelReply, ModelRequest } from './conversation';
import type { ModelSpec } from './modelConfig';
import { sdkOptions, type AttemptLog } from './observedFetch';

function userParts(parts: ContentPart[]): ChatCompletionContentPart[] {
  return parts.map((p): ChatCompletionContentPart => (p.type === 'text'
    ? { type: 'text', text: p.text }
    : { type: 'image_url', image_url: { url: `data:${p.mediaType};base64,${p.data}` } }));
}

/** The neutral conversation as chat-completions messages. */
export function toOpenAiMessages(system: string, messages: Message[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [{ role: 'system', content: system }];
  for (const m of messages) {
    if (m.role === 'user') out.push({ role: 'user', content: userParts(m.content) });
    else if (m.role === 'assistant') {
      out.push({
        role: 'assistant',
        content: m.text || null,
        ...(m.toolCalls.length ? {
          tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })),
        } : {}),
      });
    } else {
      const images: ContentPart[] = [];
      for (const r of m.results) {
        const text = r.content.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text).join('\n');
        const pics = r.content.filter((p) => p.type === 'image');
        for (const p of pics) images.push({ type: 'text', text: `(image from the ${r.name} call ${r.callId}: ${(p as { label: string }).label})` }, p);
        out.push({ role: 'tool', tool_call_id: r.callId, content: `${r.isError ? 'ERROR: ' : ''}${text || (pics.length ? `(${pics.length} image(s) follow)` : '(no output)')}` });
      }
      const after = [...images, ...m.after];
      if (after.length) out.push({ role: 'user', content: userParts(after) });
    }
  }
  return out;
}

export function toOpenAiTools(req: ModelRequest): ChatCompletionTool[] {
  return req.tools.map((t) => {
    if (t.kind !== 'function') throw new Error(`the ${t.kind} tool is Anthropic's; OpenAI-compatible models get function tools only`);
    return { type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } };
  });
}

export class OpenAiChatClient implements ModelClient {
  readonly provider = 'openai' as const;
  readonly computerTool = null;
  private readonly sdk: OpenAI;
  private readonly log: AttemptLog = { attempts: [] };

  constructor(readonly spec: ModelSpec) {
    this.sdk = new OpenAI(sdkOptions(spec, this.log));
  }

  get model(): string { return this.spec.model; }

  lastAttempts(): HttpAttempt[] { return [...this.log.attempts]; }

  async complete(req: ModelRequest): Promise<ModelReply> {
    const body: ChatCompletionCreateParamsNonStreaming = {
      ...(this.spec.extraBody ?? {}),
      model: this.spec.model,
      messages: toOpenAiMessages(req.system, req.messages),
      ...(req.tools.length ? { tools: toOpenAiTools(req), tool_choice: 'auto' as const } : {}),
      [this.spec.maxTokensField]: req.maxOutputTokens,
      ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
    };
    this.log.attempts = [];
    const t0 = performance.now();
    const res = await this.sdk.chat.completions.create(body, { signal: req.signal });
    const latencyMs = Math.round(performance.now() - t0);
    const choice = res.choices?.[0];
    if (!choice) throw new Error(`the model answered without a choice: ${JSON.stringify(res).slice(0, 500)}`);
    const msg = choice.message;
    const toolCalls = (msg.tool_calls ?? []).map((c, i) => (c.type === 'function'
      ? { id: c.id || `call_${i}`, name: c.function.name, arguments: c.function.arguments ?? '' }
      : { id: c.id || `call_${i}`, name: c.custom.name, arguments: c.custom.input }));
    return {
      text: typeof msg.content === 'string' ? msg.content : '',
      toolCalls,
      usage: {
        input: res.usage?.prompt_tokens ?? 0,
        output: res.usage?.completion_tokens ?? 0,
        ...(res.usage?.prompt_tokens_details?.cached_tokens ? { cacheRead: res.usage.prompt_tokens_details.cached_tokens } : {}),
      },
      stopReason: choice.finish_reason ?? 'unknown',
      latencyMs,
      attempts: [...this.log.attempts],
      model: res.model ?? this.spec.model,
    };
  }
}

