// The backends' names, apart from the backends themselves: the CLI names them in its help and
// checks --backend before any backend (and its Docker client) is loaded.
import type { Backend } from './deployment';

export const BACKENDS: readonly Backend[] = ['docker', 'swarm'];

export function parseBackend(value: string | undefined): Backend {
  if (value === undefined || value === '') return 'docker';
  if ((BACKENDS as readonly string[]).includes(value)) return value as Backend;
  throw new Error(`the backend must be one of ${BACKENDS.join(', ')}, not '${value}'`);
}
