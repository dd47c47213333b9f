// The model-driven agents: their five settings, and each built by name from what a user gives on
// the command line: the agent setting, the model (resolved from the environment and the model
// config file, never from a task) and the run's caps.
import { createModelClient } from '../models/modelClient';
import { resolveModel, type ModelSpec } from '../models/modelConfig';
import type { ContextPolicy } from './contextWindow';
import { ModelAgent, type AgentSetting, type ModelAgentOptions } from './modelAgent';

export const MODEL_AGENT_NAMES = ['cua', 'cua-filebash', 'assisted', 'ide-agent', 'bash-only'] as const;
export type ModelAgentName = (typeof MODEL_AGENT_NAMES)[number];

/** The five settings: what the model sees each turn and which actions and tool groups it gets. */
const SETTINGS: Record<ModelAgentName, AgentSetting> = {
  // Pure computer use: each turn the screenshot, the Set-of-Marks image and `[id] [role] [text]`
  // listing, the delta image, the pointer and the focused element; keyboard and mouse actions,
  // mark clicks, raw xdotool and done.
  cua: { name: 'cua', promptFile: 'cua.md', screen: 'every-turn', input: true, toolGroups: [] },
  // Computer use plus the file editor and the persistent bash (the tools computer-use models are
  // trained with); the screen only when the model asks for it.
  'cua-filebash': { name: 'cua-filebash', promptFile: 'cua-filebash.md', screen: 'on-request', input: true, toolGroups: ['filebash'] },
  // cua-filebash plus PwP's assisted tools and the IDE-native tools (language server,
  // refactorings, tasks, tests, debugger) as text APIs.
  assisted: { name: 'assisted', promptFile: 'assisted.md', screen: 'on-request', input: true, toolGroups: ['filebash', 'assisted', 'ide'] },
  // Tool calling only, no screen: the IDE-Bench tool set and the IDE-native tools.
  'ide-agent': { name: 'ide-agent', promptFile: 'ide-agent.md', screen: 'none', input: false, toolGroups: ['idebench', 'ide'] },
  // The specialist baseline of the PwP paper, in the style of mini-swe-agent: one bash tool and
  // `done`, no screen, no IDE tools. Run beside the computer-use settings with `pwp bench` on the
  // same tasks and model, it shows what the screen and the IDE add.
  'bash-only': { name: 'bash-only', promptFile: 'bash-only.md', screen: 'none', input: false, toolGroups: ['filebash'], toolNames: ['bash'] },
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
