// Grades a state of a task's workspace (and IDE) with the task's evaluator: in a fresh verifier
// container, removed afterwards, when the evaluator runs anything (tests, commands, renders); on
// the host from the same archives when it only reads the state (evaluation/archiveSandbox.ts). An
// evaluator that runs its tests on the task's base first gets that base in a second verifier,
// removed when its run ends.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { Readable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Deployment } from '../deployment/deployment';
import { contentDigest, indexArchive, tarOfFolder } from '../deployment/tarArchive';
import { evaluate } from '../evaluation/evaluate';
import { ArchiveSandbox, readsOnly } from '../evaluation/archiveSandbox';
import type { EvaluationResult } from '../evaluation/evaluationResult';
import { restoreRulesOf } from '../evaluation/testInfrastructure';
import { Verifier } from '../evaluation/verifier';
import type { ArchiveInput } from '../evaluation/workspaceIntake';
import { taskName, type Task } from './loadTask';

export async function gradeState(task: Task, s: {
  image: string; deployment?: Deployment; workspaceTar: ArchiveInput; initialTar?: ArchiveInput; ideState?: Parameters<Verifier['load']>[0]['ideState']; answer?: string;
}): Promise<EvaluationResult> {
  if (readsOnly(task.evaluator)) {
    const scratchDir = mkdtempSync(join(tmpdir(), 'pwp-grade-'));
    try {
      const sandbox = await ArchiveSandbox.open({
        workspaceTar: s.workspaceTar, initialTar: s.initialTar, hiddenDir: task.hiddenDir, ideState: s.ideState, answer: s.answer, scratchDir,
      });
      return await evaluate(task.evaluator, sandbox);
    } finally {
      rmSync(scratchDir, { recursive: true, force: true });
    }
  }
  const start = () => Verifier.start({ deployment: s.deployment, image: s.image, labels: { 'pwp.task': taskName(task) }, network: task.verifierNetwork });
  const load = (v: Verifier, workspaceTar: ArchiveInput) => v.load({
    workspaceTar, initialTar: s.initialTar, baselineDir: task.workspaceDir, rules: restoreRulesOf(task.evaluator, task.grading),
    hiddenDir: task.hiddenDir, ideState: s.ideState, answer: s.answer,
  });
  const verifier = await start();
  try {
    await load(verifier, s.workspaceTar);
    const initial = s.initialTar;
    // The task's base, for an evaluator that counts only what fails there: a second verifier
    // with the initial workspace where the agent's would be (evaluation/baseRun.ts).
    if (initial) {
      verifier.baseKey = () => baseKey(task, s.image, initial);
      verifier.base = async () => {
        const base = await start();
        try {
          await load(base, initial);
          return base;
        } catch (err) {
          await base.remove();
          throw err;
        }
      };
    }
    return await evaluate(task.evaluator, verifier);
  } finally {
    await verifier.remove();
  }
}

/**
 * What a base run depends on besides its evaluator (Sandbox.baseKey): the task's folder and
 * restore rules, its image (named by content: the IDE's and toolchains' tags are hashes of what
 * built them), the verifier's network, and the content of the hidden files and of the initial
 * workspace, times left out (each episode captures its own).
 */
async function baseKey(task: Task, image: string, initial: ArchiveInput): Promise<string> {
  const entries = Buffer.isBuffer(initial) ? await indexArchive(Readable.from([initial])) : initial.entries;
  const hidden = task.hiddenDir && existsSync(task.hiddenDir) ? contentDigest(await indexArchive(tarOfFolder(task.hiddenDir))) : null;
  return JSON.stringify([task.dir, image, task.verifierNetwork ?? false, restoreRulesOf(task.evaluator, task.grading) ?? null, hidden, contentDigest(entries)]);
}
