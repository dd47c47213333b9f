// `bash-only`: the specialist baseline of the PwP paper, in the style of mini-swe-agent: one
// bash tool and `done`, no screen, no IDE tools. Run beside the computer-use settings with
// `pwp bench` on the same tasks and model, it shows what the screen and the IDE add.
import type { AgentSetting } from './modelAgent';

export const BASH_ONLY_SETTING: AgentSetting = {
  name: 'bash-only', promptFile: 'bash-only.md', screen: 'none', input: false, toolGroups: ['filebash'], toolNames: ['bash'],
};
