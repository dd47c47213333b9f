// The provider clients with the real SDKs against the scripted model server: the requests
// they build validate against each provider's documented shape, replies become tool calls
// and token counts, and transient failures are retried (and seen) while others are not.
import assert from 'node:assert/strict';
import type { Message, ModelRequest } from '../../../../host/models/conversation';
import { AnthropicMessagesClient } from '../../../../host/models/anthropicMessages';
import { resolveModel } from '../../../../host/models/modelConfig';
import { OpenAiChatClient } from '../../../../host/models/openaiChat';
import { AnthropicMessagesRequest, OpenAiChatRequest, requestProblems } from '../../../support/providerRequestSchemas';
import { anthropicReply, errorReply, latestMarks, openaiReply, ScriptedModelServer, type ScriptedReply } from '../../../support/scriptedModelServer';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGBgAAAABQABpfZFQAAAAABJRU5ErkJggg==';

/** A turn that called two tools, one of which returned an image, then an observation. */
const conversation: Message[] = [
  { role: 'user', content: [{ type: 'text', text: 'Task: t' }], step: 0 },
  {
    role: 'assistant',
    text: 'Looking.',
    toolCalls: [
      { id: 'call_1', name: 'screenshot', arguments: '{}' },
      { id: 'call_2', name: 'bash', arguments: '{"command": "ls"' },
    ],
    step: 1,
  },
  {
    role: 'tool',
    step: 1,
    results: [
      {
        callId: 'call_1',
        name: 'screenshot',
        content: [
          { type: 'text', text: 'The screen' },
          { type: 'image', mediaType: 'image/png', data: PNG, label: 'screenshot at step 1', step: 1 },
        ],
        isError: false,
        step: 1,
      },
      { callId: 'call_2', name: 'bash', content: [{ type: 'text', text: 'not JSON' }], isError: true, step: 1 },
    ],
    after: [
      {
        type: 'text',
        text: 'Set-of-Marks elements, [id] [role] [text] (click one by id with the click tool):\n[3] [treeitem] [a.py]\n[7] [button] [Run [F5]]',
      },
    ],
  },
];

const request = (tools: ModelRequest['tools']): ModelRequest => ({ system: 'You are tested.', messages: conversation, tools, maxOutputTokens: 256 });
const fn = { kind: 'function' as const, name: 'bash', description: 'run', parameters: { type: 'object', properties: { command: { type: 'string' } } } };

async function withServer(replies: ScriptedReply[], body: (s: ScriptedModelServer) => Promise<void>): Promise<void> {
  const server = await ScriptedModelServer.start((_req, turn) => {
    const r = replies[turn];
    if (!r) throw new Error(`no reply for turn ${turn}`);
    return r;
  });
  try { await body(server); } finally { await server.close(); }
}

const openai = (s: ScriptedModelServer, maxRetries = 3) => new OpenAiChatClient(resolveModel('openai:m', { file: { providers: { openai: { baseURL: s.openaiBaseURL, apiKey: 'sk-test', maxRetries } } }, env: {} }));
const anthropic = (s: ScriptedModelServer, maxRetries = 3) => new AnthropicMessagesClient(resolveModel('anthropic:claude-m', { file: { providers: { anthropic: { baseURL: s.anthropicBaseURL, apiKey: 'sk-ant-test', maxRetries } } }, env: {} }));

describe('provider clients (real SDKs, scripted server)', () => {
  it('OpenAI: tool messages carry text, their images follow in a user message, and the request fits the documented shape', async () => {
    await withServer([openaiReply({ text: 'ok', calls: [{ name: 'bash', args: '{"command": ' }], usage: { in: 123, out: 7 } })], async (s) => {
      const reply = await openai(s).complete(request([fn]));
      assert.deepEqual(s.requests.flatMap((r) => requestProblems('openai', r.body, r.headers)), []);
      const msgs = s.requests[0].body.messages as { role: string; content: unknown; tool_call_id?: string }[];
      assert.deepEqual(msgs.map((m) => m.role), ['system', 'user', 'assistant', 'tool', 'tool', 'user']);
      assert.equal(msgs[3].content, 'The screen');
      assert.equal(msgs[4].content, 'ERROR: not JSON');
      assert.match(JSON.stringify(msgs[5].content), /image from the screenshot call call_1[\s\S]*data:image\/png;base64,/);
      assert.equal(s.requests[0].body.max_tokens, 256, 'a base URL that is not OpenAI\'s gets max_tokens');
      assert.deepEqual(
        [reply.text, reply.toolCalls[0].name, reply.toolCalls[0].arguments, reply.usage.input, reply.usage.output, reply.stopReason],
        ['ok', 'bash', '{"command": ', 123, 7, 'tool_calls'],
      );
      assert.deepEqual(reply.attempts.map((a) => a.status), [200]);
    });
  });

  it('Anthropic: tool results carry their images and come first, the computer tool brings its beta flag', async () => {
    await withServer([anthropicReply({ calls: [{ name: 'computer', args: { action: 'screenshot' } }], usage: { in: 50, out: 5 } })], async (s) => {
      const reply = await anthropic(s).complete(request([{ kind: 'computer', version: 'computer_20250124', width: 1280, height: 800 }, fn]));
      assert.deepEqual(s.requests.flatMap((r) => requestProblems('anthropic', r.body, r.headers)), []);
      const body = s.requests[0].body;
      assert.equal(body.system, 'You are tested.');
      assert.deepEqual(body.tools[0], { type: 'computer_20250124', name: 'computer', display_width_px: 1280, display_height_px: 800 });
      const last = body.messages[2].content as { type: string; content?: { type: string }[]; is_error?: boolean }[];
      assert.deepEqual(last.map((b) => b.type), ['tool_result', 'tool_result', 'text']);
      assert.deepEqual(last[0].content!.map((c) => c.type), ['text', 'image']);
      assert.equal(last[1].is_error, true);
      assert.deepEqual(body.messages[1].content[2], { type: 'tool_use', id: 'call_2', name: 'bash', input: {} }, 'arguments that were not JSON go back as an empty input');
      assert.match(String(s.requests[0].headers['anthropic-beta']), /computer-use-2025-01-24/);
      assert.deepEqual(
        [reply.toolCalls[0].name, JSON.parse(reply.toolCalls[0].arguments), reply.usage.input, reply.stopReason],
        ['computer', { action: 'screenshot' }, 50, 'tool_use'],
      );
    });
  });

  it('retries 429 and 500 with backoff, and every attempt is seen', async () => {
    await withServer([errorReply('openai', 429), errorReply('openai', 500), openaiReply({ text: 'finally' })], async (s) => {
      const reply = await openai(s).complete(request([fn]));
      assert.equal(reply.text, 'finally');
      assert.deepEqual(reply.attempts.map((a) => a.status), [429, 500, 200]);
      assert.deepEqual(s.requests.map((r) => r.headers['x-stainless-retry-count']), ['0', '1', '2']);
    });
    await withServer([errorReply('anthropic', 529), anthropicReply({ text: 'ok' })], async (s) => {
      const reply = await anthropic(s).complete(request([fn]));
      assert.deepEqual(reply.attempts.map((a) => a.status), [529, 200]);
    });
  });

  it('does not retry a request the API refused, and reports its status', async () => {
    await withServer([errorReply('openai', 400, 'bad request')], async (s) => {
      const client = openai(s);
      await assert.rejects(client.complete(request([fn])), (e: Error & { status?: number }) => e.status === 400);
      assert.equal(s.requests.length, 1);
      assert.deepEqual(client.lastAttempts().map((a) => a.status), [400]);
    });
  });

  it('gives up after the configured retries', async () => {
    await withServer([errorReply('anthropic', 500), errorReply('anthropic', 500)], async (s) => {
      const client = anthropic(s, 1);
      await assert.rejects(client.complete(request([fn])), (e: Error & { status?: number }) => e.status === 500);
      assert.equal(s.requests.length, 2);
    });
  });
});

describe('provider request schemas', () => {
  it('refuse what the APIs refuse: unanswered tool calls, tool messages out of place, wrong roles, bad images', () => {
    const oa = (messages: unknown[]) => OpenAiChatRequest.safeParse({ model: 'm', messages }).success;
    assert.equal(oa([{ role: 'user', content: 'hi' }]), true);
    assert.equal(
      oa([
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        { role: 'user', content: 'next' },
      ]),
      false,
    );
    assert.equal(oa([{ role: 'user', content: 'hi' }, { role: 'tool', tool_call_id: 'a', content: 'x' }]), false);
    assert.equal(oa([{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'http://example.org/a.png' } }] }]), false);
    assert.equal(oa([{ role: 'critic', content: 'x' }]), false);
    const an = (messages: unknown[]) => AnthropicMessagesRequest.safeParse({ model: 'm', max_tokens: 10, messages }).success;
    assert.equal(an([{ role: 'user', content: 'hi' }]), true);
    assert.equal(an([{ role: 'assistant', content: 'hi' }]), false);
    assert.equal(an([{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }]), false);
    const use = { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: {} }] };
    assert.equal(
      an([
        { role: 'user', content: 'a' },
        use,
        {
          role: 'user',
          content: [
            { type: 'text', text: 'b' },
            { type: 'tool_result', tool_use_id: 't1' },
          ],
        },
      ]),
      false,
      'tool results first',
    );
    assert.equal(an([{ role: 'user', content: 'a' }, use, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1' }, { type: 'text', text: 'b' }] }]), true);
    assert.equal(an([{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/bmp', data: 'AAAA' } }] }]), false);
  });

  it('want the key header and, with a computer tool, its beta flag', () => {
    const body = {
      model: 'm',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'x' }],
      tools: [{ type: 'computer_20250124', name: 'computer', display_width_px: 10, display_height_px: 10 }],
    };
    assert.deepEqual(requestProblems('anthropic', body, { 'x-api-key': 'k', 'anthropic-version': '2023-06-01', 'anthropic-beta': 'computer-use-2025-01-24' }), []);
    assert.deepEqual(requestProblems('anthropic', body, { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' }), ['anthropic-beta: computer-use-2025-01-24 missing for computer_20250124']);
    assert.deepEqual(requestProblems('openai', { model: 'm', messages: [{ role: 'user', content: 'x' }] }, {}), ['authorization: expected "Bearer <key>"']);
  });

  it('the scripted server reads the Set-of-Marks listing from a request, brackets in the text included', () => {
    const req = { api: 'openai' as const, path: '', headers: {}, n: 0, body: { messages: [{ role: 'user', content: [{ type: 'text', text: (conversation[2] as { after: { text: string }[] }).after[0].text }] }] } };
    assert.deepEqual(latestMarks(req), [{ id: 3, role: 'treeitem', text: 'a.py' }, { id: 7, role: 'button', text: 'Run [F5]' }]);
  });
});
