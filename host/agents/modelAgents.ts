// The model-driven agents by name, built from what a user gives on the command line: the
// agent setting, the model (resolved from the environment and the model config file, never
// from a task) and the run's caps.
import { createModelClient } from '../models/modelClient';
import { resolveModel, type ModelSpec } from '../models/modelConfig';
import type { ContextPolicy } from './contextWindow';
import { ASSISTED_SETTING } from './assistedAgent';
import { BASH_ONLY_SETTING } from './bashOnlyAgent';
import { CUA_SETTING } from './cuaAgent';
import { CUA_FILEBASH_SETTING } from './cuaFilebashAgent';
import { IDE_AGENT_SETTING } from './ideAgent';
import { ModelAgent, type AgentSetting, type ModelAgentOptions } from './modelAgent';

export const MODEL_AGENT_NAMES = ['cua', 'cua-filebash', 'assisted', 'ide-agent', 'bash-only'] as const;
export type ModelAgentName = (typeof MODEL_AGENT_NAMES)[number];

const SETTINGS: Record<ModelAgentName, AgentSetting> = {
  cua: CUA_SETTING, 'cua-filebash': CUA_FILEBASH_SETTING, assisted: ASSISTED_SETTING, 'ide-agent': IDE_AGENT_SETTING, 'bash-only': BASH_ONLY_SETTING,
};

export function isModelAgentName(name: string): name is ModelAgentName {
  return (MODEL_AGENT_NAMES as readonly string[]).includes(name);
}

export interface ModelAgentConfig {
  /** `--model`: provider:model, a name from the model config, or a bare model id. */
  model?: string;
  /** `--model-config`: a models.json other than ~/.config/pwp/models.json. */
  modelConfig?: string;
  maxSteps?: number;
  timeCapMs?: number;
  tokenBudget?: number;
  /** Keep only this many most recent images in a request. */
  keepImages?: number;
  /** Estimated tokens a request may hold before old turns are dropped. */
  contextTokens?: number;
  images?: boolean;
  imageFormat?: 'png' | 'jpeg';
  computerTool?: boolean;
  progress?: (line: string) => void;
}

export function makeModelAgent(name: ModelAgentName, c: ModelAgentConfig): { agent: ModelAgent; spec: ModelSpec } {
  if (!c.model) throw new Error(`the ${name} agent needs a model (--model, e.g. openai:gpt-4.1 or anthropic:claude-sonnet-4-5)`);
  const spec = resolveModel(c.model, { configPath: c.modelConfig });
  const setting = SETTINGS[name];
  if (setting.screen === 'every-turn' && !spec.vision && c.images !== false) {
    throw new Error(`model ${spec.name} is configured without vision; the ${name} agent needs images (or pass --no-images to go by the Set-of-Marks listing alone)`);
  }
  const context: Partial<ContextPolicy> = {};
  if (c.keepImages !== undefined) context.keepImages = c.keepImages;
  if (c.contextTokens !== undefined) context.contextTokens = c.contextTokens;
  const o: ModelAgentOptions = {
    model: createModelClient(spec),
    maxSteps: c.maxSteps, timeCapMs: c.timeCapMs, tokenBudget: c.tokenBudget, context,
    images: c.images === false || !spec.vision ? false : undefined,
    imageFormat: c.imageFormat, computerTool: c.computerTool, progress: c.progress,
    maxOutputTokens: spec.maxOutputTokens, temperature: spec.temperature,
  };
  return { agent: new ModelAgent(setting, o), spec };
}
