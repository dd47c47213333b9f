// Warm pools for a known list of runs (a bench's, the bundled-task test's): one pool per image
// in use, as big as the runs at a time, starting no more environments than there are runs on
// that image, created on first use. A run takes its environment from its image's pool; the
// pool starts the next one while that run works, and recycles each environment a run is done
// with for the next run on the image (EnvPool: recycling, the pristine check, the cap).
import type { Deployment } from '../deployment/deployment';
import type { Task } from './loadTask';
import { EnvPool, type PoolStats, type RecycleSettings } from '../env/pool';

/** A task's image as resolved before the runs (undefined when it could not be). */
export type ImageOf = (task: Task) => string | undefined;

export interface ImagePoolOptions {
  /** Runs at a time: each pool's size. */
  parallel: number;
  imageOf: ImageOf;
  view?: boolean;
  /** Labels of the pooled containers (who owns them: `pwp.bench`, `pwp.test`). */
  labels?: Record<string, string>;
  /** Where a pool says what went wrong (a start that failed and was tried again). */
  log?: (line: string) => void;
  /** Recycling settings of every pool (EnvPool's default: on), or false for one environment per run. */
  recycle?: RecycleSettings | false;
}

export interface ImagePools {
  for(task: Task): EnvPool | undefined;
  /** What each image's pool did (starts, recycles, replacements), by image. */
  stats(): Record<string, PoolStats>;
  close(): Promise<void>;
}

/**
 * Tasks that may take a pooled environment: the pool's is the image's plain one, so a task that
 * asks for the network or its own display or memory starts its own.
 */
const poolable = (task: Task, imageOf: ImageOf): boolean =>
  !!imageOf(task) && !task.network && !task.environment.display && !task.environment.memoryMb;

/** `runs` holds a task once per run of it. */
export function imagePools(runs: readonly Task[], o: ImagePoolOptions, deployment: Deployment): ImagePools {
  const pools = new Map<string, EnvPool>();
  const runsOn = (image: string) => runs.filter((t) => poolable(t, o.imageOf) && o.imageOf(t) === image).length;
  return {
    for(task) {
      if (!poolable(task, o.imageOf)) return undefined;
      const image = o.imageOf(task)!;
      let pool = pools.get(image);
      if (!pool) {
        const total = runsOn(image);
        pool = new EnvPool({
          size: Math.min(o.parallel, total),
          total,
          episodes: total,
          deployment,
          log: o.log,
          ...(o.recycle !== undefined ? { recycle: o.recycle } : {}),
          spec: { image, ...(o.view ? { view: true } : {}), ...(o.labels ? { labels: o.labels } : {}) },
        });
        pools.set(image, pool);
      }
      return pool;
    },
    stats() { return Object.fromEntries([...pools].map(([image, pool]) => [image, pool.stats])); },
    async close() { await Promise.all([...pools.values()].map((p) => p.close())); },
  };
}
