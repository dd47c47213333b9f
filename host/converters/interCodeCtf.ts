// InterCode-CTF: capture-the-flag problems as its authors publish them, ic_ctf.json (a JSON list
// of {task_id, query, gold, source, tags}, some with a `setup` shell command) beside
// task_assets/<task_id>/, the files of each problem. The agent starts in a workspace holding the
// problem's files and gives the flag as its final answer; as InterCode compares the submitted
// flag with `gold`, the verifier compares the two, trimmed, exactly (case counts). The flag is
// only in the hidden folder, never in task.json or the workspace.
//
// task_assets/<task_id>/solution/ holds InterCode's write-up and, for some problems, a script
// that recovers the flag from the files: the agent never gets that folder. The oracle runs the
// script (solution.py, solve.py, solution.sh or solve.sh) in the workspace and answers the flag
// it prints; a problem without one gets an oracle that answers the gold flag, noted.
import { chmodSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { Task } from '../taskEnv/loadTask';
import { graderScript } from './graderScripts';
import { parseRecords, requireStrings, taskId, writeTaskFolder, type FileMap } from './taskWriter';

export interface InterCodeCtfProblem { task_id: number; query: string; gold: string; source?: string; tags?: string[]; setup?: string; hint?: string }

export interface InterCodeCtfOptions { outRoot: string; suite?: string; limit?: number; image?: string; onNote?: (line: string) => void }

/** The scripts of solution/ an oracle can run, in the order tried, with their interpreter. */
const SOLUTION_SCRIPTS: readonly [string, string][] = [['solution.py', 'python3'], ['solve.py', 'python3'], ['solution.sh', 'bash'], ['solve.sh', 'bash']];

interface Asset { rel: string; content: Buffer; executable: boolean }

/** Every file under dir, by path relative to it. */
function readAssets(dir: string): Asset[] {
  const out: Asset[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d).sort()) {
      const p = join(d, e);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else out.push({ rel: relative(dir, p), content: readFileSync(p), executable: (st.mode & 0o111) !== 0 });
    }
  };
  walk(dir);
  return out;
}

/** `picoCTF{...}` gives picoCTF: the flag's format, which InterCode tells the agent too. */
function flagPrefix(gold: string): string | undefined {
  return /^([A-Za-z0-9_-]+)\{.*\}$/s.exec(gold)?.[1];
}

function checkProblem(p: unknown, where: string): asserts p is InterCodeCtfProblem {
  requireStrings(p, ['query', 'gold'], where, ['source', 'setup', 'hint']);
  const r = p as Record<string, unknown>;
  if (r.task_id === undefined || r.task_id === null) throw new Error(`${where}: missing field "task_id"`);
  if (!Number.isInteger(r.task_id) || (r.task_id as number) < 0) throw new Error(`${where}: field "task_id" must be a whole number, got ${JSON.stringify(r.task_id)}`);
  if (!(r.gold as string).trim()) throw new Error(`${where}: field "gold" is empty`);
  if (r.tags !== undefined && (!Array.isArray(r.tags) || r.tags.some((t) => typeof t !== 'string'))) throw new Error(`${where}: field "tags" must be a list of strings`);
}

export function convertInterCodeCtf(file: string, o: InterCodeCtfOptions): Task[] {
  const problems = parseRecords<unknown>(readFileSync(file, 'utf8'), file, 'problems');
  const suite = o.suite ?? 'intercode-ctf';
  const assetsRoot = join(dirname(file), 'task_assets');
  const chosen = problems.slice(0, o.limit ?? problems.length);
  // Every problem is checked before anything is written, so bad input changes nothing.
  const seen = new Set<number>();
  chosen.forEach((p, i) => {
    const where = `${file}: problem ${(p as { task_id?: unknown })?.task_id ?? `#${i}`}`;
    checkProblem(p, where);
    if (seen.has(p.task_id)) throw new Error(`${where}: task_id ${p.task_id} appears twice`);
    seen.add(p.task_id);
  });
  return (chosen as InterCodeCtfProblem[]).map((p) => {
    const dir = join(assetsRoot, String(p.task_id));
    const assets = existsSync(dir) ? readAssets(dir) : [];
    const isSolution = (a: Asset) => a.rel === 'solution' || a.rel.startsWith('solution/');
    const workspace: FileMap = Object.fromEntries(assets.filter((a) => !isSolution(a)).map((a) => [a.rel, a.content]));
    const oracleFiles: FileMap = Object.fromEntries(assets.filter(isSolution).map((a) => [a.rel, a.content]));
    const script = SOLUTION_SCRIPTS.find(([name]) => oracleFiles[`solution/${name}`] !== undefined);
    const prefix = flagPrefix(p.gold.trim());
    const regex = prefix ? `(${prefix}\\{.*\\})` : undefined;
    const id = taskId(`ctf-${p.task_id}`);
    let steps: Record<string, unknown>[];
    if (script) {
      const [name, interpreter] = script;
      steps = [
        { writeFile: `/tmp/pwp-oracle/${name}`, from: `oracle/solution/${name}`, note: "InterCode's solution script" },
        { answerFrom: { exec: [interpreter, `/tmp/pwp-oracle/${name}`], ...(regex ? { regex } : {}) }, note: 'the flag it recovers from the files' },
      ];
    } else {
      o.onNote?.(`${suite}/${id}: task_assets/${p.task_id}/solution/ has no solution script; its oracle answers the gold flag`);
      oracleFiles['gold.txt'] = `${p.gold.trim()}\n`;
      steps = [
        { writeFile: '/tmp/pwp-oracle/gold.txt', from: 'oracle/gold.txt', note: 'the gold flag (no solution script)' },
        { answerFrom: { exec: ['cat', '/tmp/pwp-oracle/gold.txt'] } },
      ];
    }
    const files = Object.keys(workspace).length ? 'The problem\'s files are in the workspace. ' : '';
    const format = prefix ? ` (it looks like ${prefix}{...})` : '';
    const task = writeTaskFolder(o.outRoot, {
      task: {
        id,
        suite,
        instruction: `${p.query.trim()}\n\n${files}When you have the flag${format}, give it as your final answer, exactly as you found it.`,
        ...(o.image ? { image: o.image } : {}),
        // InterCode's set-up fetches files from the problem's site, so those tasks need the network.
        ...(p.setup?.trim() ? { setup: [{ exec: ['bash', '-c', p.setup], note: "InterCode's set-up command" }], network: true } : {}),
        // python3 -I: no workspace module stands in for one the check imports. It never prints the flag.
        evaluator: { kind: 'command', command: ['python3', '-I', '/pwp/hidden/check_flag.py'], stdout: 'flag accepted' },
        oracle: { steps },
        limits: { steps: 100, seconds: 900 },
        tags: ['dataset:intercode-ctf', ...(p.tags ?? []).map((t) => `category:${taskId(t)}`)],
      },
      workspace,
      hidden: { 'flag.txt': `${p.gold}\n`, 'check_flag.py': graderScript('interCodeCtf') },
      oracle: oracleFiles,
    });
    // A problem's binaries must stay runnable (git and the copy into the container keep the mode).
    for (const a of assets) if (a.executable && !isSolution(a)) chmodSync(join(task.dir, 'workspace', a.rel), 0o755);
    return task;
  });
}
