// Which model an agent talks to, and with which key and base URL: from the environment and
// the model config file only.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultModelConfigPath, ModelConfigError, publicSpec, readModelsFile, resolveModel } from '../../../../host/models/modelConfig';

const none = { file: {} };

describe('model config', () => {
  it('reads provider:model and bare ids, with keys and base URLs from the environment', () => {
    const env = { OPENAI_API_KEY: 'k1', OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1', ANTHROPIC_API_KEY: 'k2' };
    const o = resolveModel('openai:gpt-4.1', { ...none, env });
    assert.deepEqual([o.provider, o.model, o.apiKey, o.baseURL, o.maxTokensField], ['openai', 'gpt-4.1', 'k1', 'http://127.0.0.1:8000/v1', 'max_tokens']);
    const a = resolveModel('claude-sonnet-4-5', { ...none, env });
    assert.deepEqual([a.provider, a.apiKey, a.baseURL, a.computerTool], ['anthropic', 'k2', undefined, 'computer_20250124']);
    assert.equal(resolveModel('anthropic:claude-opus-4-5', { ...none, env }).computerTool, 'computer_20251124');
    assert.equal(resolveModel('gpt-4.1', { ...none, env: { OPENAI_API_KEY: 'k' } }).maxTokensField, 'max_completion_tokens');
  });

  it('takes named models and provider defaults from the config file, the entry before the defaults', () => {
    const file = {
      providers: { openai: { baseURL: 'http://127.0.0.1:11434/v1', maxOutputTokens: 1000 } },
      models: {
        qwen: { model: 'qwen2.5vl:7b', maxOutputTokens: 2000, vision: true },
        claude: { provider: 'anthropic' as const, model: 'claude-x', apiKeyEnv: 'MY_KEY', computerTool: 'none' },
      },
    };
    const q = resolveModel('qwen', { file, env: {} });
    assert.deepEqual([q.provider, q.model, q.baseURL, q.apiKey, q.maxOutputTokens], ['openai', 'qwen2.5vl:7b', 'http://127.0.0.1:11434/v1', 'unused', 2000]);
    const c = resolveModel('claude', { file, env: { MY_KEY: 'secret' } });
    assert.deepEqual([c.provider, c.model, c.apiKey, c.computerTool], ['anthropic', 'claude-x', 'secret', null]);
    assert.throws(() => resolveModel('claude', { file, env: {} }), /MY_KEY \(apiKeyEnv\) is not set/);
  });

  it('refuses a hosted model without a key, and says where a key goes', () => {
    assert.throws(() => resolveModel('openai:gpt-4.1', { ...none, env: {} }), (e: Error) => e instanceof ModelConfigError && /OPENAI_API_KEY/.test(e.message));
  });

  it('reads ~/.config/pwp/models.json (or XDG_CONFIG_HOME), and names the bad field of a broken file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pwp-cfg-'));
    assert.equal(defaultModelConfigPath({ XDG_CONFIG_HOME: dir }), join(dir, 'pwp', 'models.json'));
    assert.deepEqual(readModelsFile(undefined, { XDG_CONFIG_HOME: dir }), {}, 'no file is an empty config');
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ models: { m: { temperature: 'hot' } } }));
    assert.throws(() => readModelsFile(bad), /models\.m\.temperature/);
    writeFileSync(bad, JSON.stringify({ models: { m: { apiKey: 'x', instructions: 'from a task' } } }));
    assert.throws(() => readModelsFile(bad), /Unrecognized key/);
    assert.throws(() => readModelsFile(join(dir, 'missing.json')), /does not exist/);
  });

  it('keeps the key out of the spec it reports', () => {
    const s = publicSpec(resolveModel('openai:gpt-4.1', { ...none, env: { OPENAI_API_KEY: 'sk-secret' } }));
    assert.ok(!JSON.stringify(s).includes('sk-secret'));
  });
});
