// SWT-Bench (logic-star-ai/swt-bench): test generation for real issues. Its instances are
// SWE-bench's (instance_id, repo, base_commit, patch, test_patch, problem_statement, …; JSON or
// JSON Lines); the agent is given the issue and writes tests that reproduce it. They are graded
// as SWT-Bench grades them: the test files the agent added or changed must fail on the original
// code and pass once the gold patch is applied (fail-before, pass-after). Both runs happen in the
// verifier on fresh copies of the workspace as the agent received it with only the agent's test
// files added, so changes to other files count for nothing. The oracle applies the gold tests
// (test_patch). Repositories are read as repoCheckout.ts says.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Task } from '../taskEnv/loadTask';
import { stdlibImports } from './gradingScript';
import { checkout, deletedFiles, patchedFiles } from './repoCheckout';
import type { SweInstance } from './sweBench';
import { parseRecords, requireStrings, taskId, writeTaskFolder, type FileMap } from './taskWriter';

export interface SwtOptions { outRoot: string; repos: string; suite?: string; limit?: number; image?: string }

/** What counts as the agent's test files: kept from the agent's workspace, run in both states. */
export const SWT_TEST_FILES = ['**/test_*.py', '**/*_test.py'];
/** Where the grader's files land in the verifier's /workspace (from hidden/workspace/). */
const GRADER = '.swt';
/**
 * Runs of each state (original code, gold patch), in a random order drawn at grading: tests that
 * keep state between runs to fail first and pass later match that order by chance only, one time
 * in 20 with 3 (C(6,3)).
 */
export const SWT_REPEATS = 3;
const FIELDS = ['instance_id', 'repo', 'base_commit', 'patch', 'test_patch', 'problem_statement'] as const;

// The grader: a pytest file of two cases, run in the verifier. The agent's tests run in copies
// of /pwp/initial/workspace (the workspace as the agent got it) with the agent's new or changed
// test files copied in; the second copy also gets the gold patch's files.
const GRADER_TEST = `# SWT-Bench's check of tests written for an issue: the test files the agent added or changed
# must fail on the original code and pass once the gold patch is applied. Each run uses a fresh
# copy of the workspace as the agent received it, with only the agent's test files added. Each
# state is run SPEC["repeats"] times, all in an order drawn now, so tests that keep state
# between runs (fail the first time, pass the next) cannot tell the two states apart.
${stdlibImports(['fnmatch', 'functools', 'json', 'os', 'pathlib', 'random', 'shutil', 'subprocess', 'tempfile']).join('\n')}

HERE = pathlib.Path(__file__).resolve().parent
WORKSPACE = HERE.parent
INITIAL = pathlib.Path("/pwp/initial/workspace")
SPEC = json.loads((HERE / "swt.json").read_text())


def is_test_file(rel):
    return any(fnmatch.fnmatch(pathlib.PurePosixPath(rel).name, pattern.split("/")[-1]) for pattern in SPEC["testFiles"])


def agent_tests():
    assert INITIAL.is_dir(), "the verifier has no copy of the initial workspace"
    found = []
    for path in sorted(WORKSPACE.rglob("*.py")):
        rel = path.relative_to(WORKSPACE).as_posix()
        if rel.startswith(("${GRADER}/", ".git/")) or "__pycache__" in rel or not is_test_file(rel):
            continue
        before = INITIAL / rel
        if not before.is_file() or before.read_bytes() != path.read_bytes():
            found.append(rel)
    assert found, "no test file (" + ", ".join(SPEC["testFiles"]) + ") was added or changed"
    for rel in found:
        text = (WORKSPACE / rel).read_text(errors="replace")
        assert "${GRADER}" not in text and "/pwp/" not in text, rel + " reads the grader's files"
    return found


def run(tests, gold):
    scratch = tempfile.mkdtemp(prefix="swt-")
    try:
        repo = os.path.join(scratch, "repo")
        shutil.copytree(INITIAL, repo, symlinks=True)
        for rel in tests:
            os.makedirs(os.path.dirname(os.path.join(repo, rel)), exist_ok=True)
            shutil.copyfile(WORKSPACE / rel, os.path.join(repo, rel))
        if gold:
            for rel in SPEC["goldFiles"]:
                os.makedirs(os.path.dirname(os.path.join(repo, rel)), exist_ok=True)
                shutil.copyfile(HERE / "gold" / rel, os.path.join(repo, rel))
            for rel in SPEC["goldDeletes"]:
                if os.path.exists(os.path.join(repo, rel)):
                    os.remove(os.path.join(repo, rel))
        home = os.path.join(scratch, "home")
        os.makedirs(home)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONSAFEPATH"}
        env.update(HOME=home, TMPDIR=home)
        r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests], cwd=repo, env=env,
                           capture_output=True, text=True, timeout=SPEC["timeoutSec"])
        return r.returncode, (r.stdout + r.stderr)[-3000:]
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


@functools.lru_cache(maxsize=None)
def outcomes():
    tests = agent_tests()
    order = [False, True] * SPEC["repeats"]
    random.SystemRandom().shuffle(order)
    out = {False: [], True: []}
    for gold in order:
        out[gold].append(run(tests, gold))
    return out


def test_fails_on_the_original_code():
    for code, output in outcomes()[False]:
        # 1: tests failed; 2: an error while collecting them (what they test does not exist yet).
        assert code in (1, 2), "the tests do not fail on the original code (pytest exit code %d):\\n%s" % (code, output)


def test_passes_with_the_gold_patch():
    for code, output in outcomes()[True]:
        assert code == 0, "the tests do not pass with the gold patch (pytest exit code %d):\\n%s" % (code, output)
`;

export function swtTask(inst: SweInstance, o: SwtOptions, where: string): Task {
  requireStrings(inst, FIELDS, where);
  const co = checkout(o.repos, inst.repo, inst.base_commit);
  try {
    const workspace = co.files();
    co.apply(inst.patch, 'gold patch');
    const goldFiles = patchedFiles(inst.patch);
    const hidden: FileMap = {
      [`workspace/${GRADER}/test_swt.py`]: GRADER_TEST,
      [`workspace/${GRADER}/swt.json`]: `${JSON.stringify({ instance_id: inst.instance_id, testFiles: SWT_TEST_FILES, goldFiles, goldDeletes: deletedFiles(inst.patch), repeats: SWT_REPEATS, timeoutSec: 540 }, null, 2)}\n`,
    };
    for (const f of goldFiles) hidden[`workspace/${GRADER}/gold/${f}`] = readFileSync(join(co.dir, f));
    return writeTaskFolder(o.outRoot, {
      task: {
        id: taskId(inst.instance_id),
        suite: o.suite ?? 'swt-bench',
        instruction: [
          `Write tests that reproduce this issue in the repository (${inst.repo}): they must fail on the code as it is and pass once the issue is fixed.`,
          'Put them in test files named test_*.py or *_test.py (new files or existing ones). Do not fix the issue itself: only your test files are graded, on the original code and on a fixed one.',
          '',
          inst.problem_statement.trim(),
        ].join('\n'),
        ...(o.image ? { image: o.image } : {}),
        evaluator: { kind: 'tests', framework: 'pytest', command: ['python3', '-m', 'pytest', '-q', `${GRADER}/test_swt.py`], timeoutSec: 3600 },
        grading: { agentFiles: SWT_TEST_FILES },
        oracle: { steps: [
          { writeFile: '/tmp/gold-tests.patch', from: 'oracle/test.patch', note: 'the gold tests (test_patch)' },
          { exec: ['git', 'apply', '--whitespace=nowarn', '/tmp/gold-tests.patch'] },
        ] },
        limits: { steps: 300, seconds: 3600 },
        tags: ['dataset:swt-bench', `source:${inst.instance_id}`, `repo:${inst.repo}`],
      },
      workspace,
      hidden,
      oracle: { 'test.patch': inst.test_patch },
    });
  } finally {
    co.close();
  }
}

export function convertSwtBench(file: string, o: SwtOptions): Task[] {
  const instances = parseRecords<SweInstance>(readFileSync(file, 'utf8'), file, 'SWT-Bench instances');
  const chosen = instances.slice(0, o.limit ?? instances.length);
  // Every instance is checked before any task is written, so bad input changes nothing.
  chosen.forEach((inst, i) => requireStrings(inst, FIELDS, `${file}: instance ${i + 1}`));
  return chosen.map((inst, i) => swtTask(inst, o, `${file}: instance ${i + 1}`));
}
