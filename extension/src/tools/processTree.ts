// Process ids under a process, from /proc (the shell tools signal what runs under them).
import { descendants, readProcesses } from '../../../bridge/common/procfs';

export async function descendantPids(root: number): Promise<number[]> {
  const all = await readProcesses();
  // Deepest first, so children die before parents can restart them.
  return descendants(all, root).map((p) => p.pid).reverse();
}
