// Grades a state of a task's workspace (and IDE) in a fresh verifier container with the task's
// evaluator; the verifier is removed afterwards.
import type { Deployment } from '../deployment/deployment';
import { evaluate } from '../evaluation/evaluate';
import type { EvaluationResult } from '../evaluation/evaluationResult';
import { restoreRulesOf } from '../evaluation/testInfrastructure';
import { Verifier } from '../evaluation/verifier';
import type { ArchiveInput } from '../evaluation/workspaceIntake';
import { taskName, type Task } from './loadTask';

export async function gradeState(task: Task, s: {
  image: string; deployment?: Deployment; workspaceTar: ArchiveInput; initialTar?: ArchiveInput; ideState?: Parameters<Verifier['load']>[0]['ideState']; answer?: string;
}): Promise<EvaluationResult> {
  const verifier = await Verifier.start({ deployment: s.deployment, image: s.image, labels: { 'pwp.task': taskName(task) }, network: task.verifierNetwork });
  try {
    await verifier.load({
      workspaceTar: s.workspaceTar, initialTar: s.initialTar, baselineDir: task.workspaceDir, rules: restoreRulesOf(task.evaluator, task.grading),
      hiddenDir: task.hiddenDir, ideState: s.ideState, answer: s.answer,
    });
    return await evaluate(task.evaluator, verifier);
  } finally {
    await verifier.remove();
  }
}
