// Keeps environments off the host's own services. Each environment's Docker network is a
// bridge named pwp<id>; Docker isolates such networks from each other and (internal networks)
// from the outside, but a container can still open connections to the host itself (the
// bridge's gateway address, or any address of the host): that traffic is the host's INPUT, on
// which Docker has no option. Two rules, installed once per host for every pwp network, drop
// it; connections the host opens to an environment (the bridge's port) still get their answers.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The interface pattern of every environment network (`com.docker.network.bridge.name`). */
export const BRIDGE_INTERFACE_PREFIX = 'pwp';
const MATCH = ['-i', `${BRIDGE_INTERFACE_PREFIX}+`];
const ANSWERS = [...MATCH, '-m', 'conntrack', '--ctstate', 'ESTABLISHED,RELATED', '-j', 'ACCEPT'];
const DROP = [...MATCH, '-j', 'DROP'];

async function has(tool: string, rule: string[]): Promise<boolean> {
  return run(tool, ['-w', '-C', 'INPUT', ...rule]).then(() => true, () => false);
}

async function guard(tool: string): Promise<void> {
  if ((await has(tool, ANSWERS)) && (await has(tool, DROP))) return;
  // The answers rule must come first: drop, then the answers above it.
  while (await has(tool, ANSWERS)) await run(tool, ['-w', '-D', 'INPUT', ...ANSWERS]);
  if (!(await has(tool, DROP))) await run(tool, ['-w', '-I', 'INPUT', '1', ...DROP]);
  await run(tool, ['-w', '-I', 'INPUT', '1', ...ANSWERS]);
}

let installed: Promise<string | null> | undefined;

/**
 * Installs the host rules (iptables, and ip6tables where present); resolves null when they are
 * in place, or why not (pwp not run as root, no iptables): environments then still cannot reach
 * each other or the outside, but can reach services listening on the host's addresses.
 */
export function guardHostServices(): Promise<string | null> {
  installed ??= (async () => {
    try {
      await guard('iptables');
    } catch (err) {
      return `the host rules that keep environments off the host's own services could not be installed (${(err as Error).message.split('\n')[0]}); run pwp as root, or add them yourself: iptables -I INPUT -i ${BRIDGE_INTERFACE_PREFIX}+ -j DROP; iptables -I INPUT ${ANSWERS.join(' ')}`;
    }
    await guard('ip6tables').catch(() => undefined);
    return null;
  })();
  return installed;
}
