// Which module registers which commands. A call loads only the module of the command it runs,
// so `pwp ls` evaluates what ls needs and not the whole library (the bundle is one file; each
// module in it is evaluated on first import). Help, or a name that is no command, loads them all.
import type { Command } from 'commander';

export interface CommandModule { register(program: Command): void }

/** In the order `pwp --help` lists them. */
export const COMMAND_MODULES: readonly { names: readonly string[]; load: () => Promise<CommandModule> }[] = [
  { names: ['build-image'], load: () => import('./commands/buildImage') },
  { names: ['up'], load: () => import('./commands/up') },
  { names: ['down'], load: () => import('./commands/down') },
  { names: ['gc'], load: () => import('./commands/gc') },
  { names: ['ls'], load: () => import('./commands/ls') },
  { names: ['url'], load: () => import('./commands/url') },
  { names: ['screenshot'], load: () => import('./commands/screenshot') },
  { names: ['key', 'type', 'click', 'xdotool'], load: () => import('./commands/input') },
  { names: ['inspect'], load: () => import('./commands/inspect') },
  { names: ['demo'], load: () => import('./commands/demo') },
  { names: ['tasks'], load: () => import('./commands/tasks') },
  { names: ['run'], load: () => import('./commands/run') },
  { names: ['bench'], load: () => import('./commands/bench') },
  { names: ['checkpoint'], load: () => import('./commands/checkpoint') },
  { names: ['restore'], load: () => import('./commands/restore') },
  { names: ['checkpoints'], load: () => import('./commands/checkpoints') },
  { names: ['replay'], load: () => import('./commands/replay') },
  { names: ['control'], load: () => import('./commands/control') },
  { names: ['serve'], load: () => import('./commands/serve') },
  { names: ['mcp'], load: () => import('./commands/mcp') },
  { names: ['tools', 'tool'], load: () => import('./commands/tool') },
  { names: ['dataset'], load: () => import('./commands/dataset') },
  { names: ['predictions'], load: () => import('./commands/predictions') },
  { names: ['export'], load: () => import('./commands/export') },
  { names: ['k8s'], load: () => import('./commands/k8s') },
];

/** The program's own options that take a value (the value is not the command). */
const VALUE_OPTIONS = new Set(['--backend']);

/** The command an argv (after `pwp`) runs: its first word that is neither an option nor an option's value. */
export function commandNameOf(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') return args[i + 1];
    if (!a.startsWith('-')) return a;
    if (VALUE_OPTIONS.has(a)) i++;
  }
  return undefined;
}

/** The modules an argv needs: its command's, or every one (no command: help; a mistyped name: commander suggests one). */
export function modulesFor(args: readonly string[]): readonly { names: readonly string[]; load: () => Promise<CommandModule> }[] {
  const name = commandNameOf(args);
  const mine = COMMAND_MODULES.filter((m) => name !== undefined && m.names.includes(name));
  return mine.length ? mine : COMMAND_MODULES;
}
