// What a task's `evaluator` may say. Every kind is graded in the verifier container (see
// verifier.ts): paths are inside it — the agent's final workspace at /workspace, the task's
// hidden files at /pwp/hidden (and hidden/workspace/** copied over /workspace), the IDE
// state at /pwp/ide/state.json, the agent's answer at /pwp/answer.txt.
import { z } from 'zod';
import { MatcherSchema } from './matcher';
import { METRICS } from './metrics/competitionMetric';

const RelPath = z.string().min(1).max(1000).refine((p) => !p.split('/').includes('..'), 'must not contain ".."');
const Argv = z.array(z.string().max(100_000)).min(1).max(500);
const Scoring = z.enum(['all', 'fraction']).default('all');

export const TEST_FRAMEWORKS = ['pytest', 'node', 'jest', 'mocha', 'go', 'cargo', 'junit', 'exitCode'] as const;

const TestsEvaluator = z.object({
  kind: z.literal('tests'),
  /** argv run in /workspace as the IDE user; the framework's report flags are added. */
  command: Argv,
  framework: z.enum(TEST_FRAMEWORKS),
  /** For `junit`: where the command writes its JUnit XML (relative to /workspace or absolute). */
  report: z.string().max(1000).optional(),
  /** Test ids that must be there and pass (`file::name`, `Class::name` or the name); missing ones fail. */
  expected: z.array(z.string().min(1)).max(10_000).optional(),
  /** `all`: 1 when every test passes (and the command exits 0); `passRate`: the fraction that pass. */
  scoring: z.enum(['all', 'passRate']).default('all'),
  timeoutSec: z.int().min(1).max(3600).default(300),
  env: z.record(z.string(), z.string()).default({}),
  /**
   * The run gets a mark drawn for it on file descriptor 3 and passes only when its stdout has
   * that line exactly once (a test script that prints it at its end: RES-Q, through the
   * verifier's launcher verifierScripts/pwp_script.py); twice is tampering suspected.
   */
  completionMark: z.boolean().optional(),
  /**
   * Hidden files in the grader's own dot-folders that a run with a completion mark seals as well
   * (root's alone while it runs): the task's wrapper, run before any code of the workspace's,
   * takes their text from the verifier's descriptor (pwp_sealed.py), not from disk (CanItEdit's
   * tests, which its wrapper appends to the program).
   */
  sealed: z.array(RelPath).max(1000).optional(),
  /**
   * The command is a grader (a pytest file of its own) that runs pytest on the repository's tests
   * itself (SWE-bench's log grader in the repository's own environment): those tests' hidden
   * Python files outside the grader's dot-folders are sealed as a test script's are, and reach
   * that pytest run from the verifier's broker. The grader must start it as `python3 -m pytest`
   * or `pytest` from its PATH (the verifier's launch), with PWP_SEAL_BROKER in its environment.
   */
  innerPytest: z.boolean().optional(),
  /**
   * A hidden file of the grader's own, in a dot-folder, that runs the repository's own test runner
   * in its process (SWE-bench's result recorder for Django's and SymPy's runners, started by the
   * grader as `python3 <file> …`): the repository's hidden Python files outside the grader's
   * dot-folders are sealed, and reach that process from the verifier's broker, which serves it as
   * it serves the pytest launch (the grader's own pytest run gets its file on its descriptor).
   */
  innerRecorder: RelPath.refine((p) => p.split('/').slice(0, -1).some((s) => s.startsWith('.')), 'must be in a dot-folder (the grader\'s own)').optional(),
  /**
   * The command is a grader that builds the repository's C, C++ or Java tests itself (SWE-bench's
   * log grader for ctest and Maven): their hidden sources outside the grader's dot-folders are
   * emptied for the run, and their text reaches the grader's own process from the verifier's
   * broker, which it asks before the build (its compiler launcher, or the javac Maven forks,
   * compiles them from copies no build can name).
   */
  innerBuild: z.boolean().optional(),
  /**
   * The task's own grading step run as root before the tests (from /, with the hidden folder,
   * which is root's alone, readable): for a grader that must hold what the tests' user may not
   * read (SWT-Bench's gold patch). It must never run the agent's code as root: it runs it as
   * another user (setpriv) and leaves results, root's, that the tests read. A step that fails
   * scores 0 with its output.
   */
  prepare: z.object({
    command: Argv,
    timeoutSec: z.int().min(1).max(7200).default(1800),
    /**
     * Where the step leaves a published metric's components (root's, out of the tests' reach), as
     * JSON `{ metric, components: [{ name, value: 0-1 | null, absent? }] }`: the grade reports them
     * beside its score (SWT-Bench's applicability, fail-to-pass and change coverage); they never
     * change the score.
     */
    components: z.string().startsWith('/').optional(),
  }).strict().optional(),
  /**
   * Only the tests the task's change makes pass count, and those it breaks: the command first runs
   * the same way on the base (the initial workspace with the hidden files over it, in /workspace
   * while it runs, prepared as the agent's is: baseRun.ts), and a case that passes there and still
   * passes is left out of the agent's run (it cannot be what makes the exit status fail, which
   * decides as it does without a base run); with nothing left to count the score is 0.
   */
  countFailingOnBase: z.boolean().optional(),
}).strict();

const CommandEvaluator = z.object({
  kind: z.literal('command'),
  command: Argv,
  exitCode: z.int().default(0),
  /** Matched against stdout (trimmed). */
  stdout: MatcherSchema.optional(),
  timeoutSec: z.int().min(1).max(3600).default(120),
}).strict();

/**
 * A diagram's structure: the nodes (by label) and edges ([from, to] or [from, to, text], by
 * their nodes' labels) a saved Mermaid flowchart must have; `exact` also refuses others.
 */
const DiagramCheck = z.object({
  format: z.literal('mermaid'),
  nodes: z.array(z.string().min(1)).max(500).default([]),
  edges: z.array(z.union([z.tuple([z.string().min(1), z.string().min(1)]), z.tuple([z.string().min(1), z.string().min(1), z.string()])])).max(2000).default([]),
  exact: z.boolean().default(false),
}).strict().refine((d) => d.nodes.length + d.edges.length > 0, { message: 'a diagram check names at least one node or edge', path: ['nodes'] });

const FileCheck = z.object({
  /** Relative to /workspace. */
  path: RelPath,
  exists: z.boolean().optional(),
  /** Exact content, or the content of a hidden file (relative to the hidden folder). */
  equals: z.string().optional(),
  equalsHidden: RelPath.optional(),
  contains: z.array(z.string()).optional(),
  notContains: z.array(z.string()).optional(),
  matches: z.array(z.string()).optional(),
  notMatches: z.array(z.string()).optional(),
  /** Parsed as JSON with comments (settings.json, launch.json) and matched. */
  json: MatcherSchema.optional(),
  /** Parsed as a Mermaid flowchart and compared by structure. */
  diagram: DiagramCheck.optional(),
  /** Compare after trimming trailing whitespace of every line and of the file. */
  ignoreTrailingWhitespace: z.boolean().default(false),
}).strict();

/**
 * Alternatives among a list of checks: it passes when one of them does. Equivalent answers
 * (two command ids that do the same thing, bound to one key) then both pass.
 */
const AnyOf = <T extends z.ZodType>(check: T) => z.object({ any: z.array(check).min(2).max(20) }).strict();
export type OrAny<T> = T | { any: T[] };

/** The checks of a list, with the alternatives of its `any` checks in their place. */
export function checkLeaves<T extends object>(checks: readonly OrAny<T>[]): T[] {
  return checks.flatMap((c) => ('any' in c ? c.any : [c]));
}

const FilesEvaluator = z.object({
  kind: z.literal('files'),
  checks: z.array(z.union([FileCheck, AnyOf(FileCheck)])).min(1).max(500),
  scoring: Scoring,
}).strict();

const DiffEvaluator = z.object({
  kind: z.literal('diff'),
  /** A hidden folder whose files are the expected final content of the same workspace paths. */
  expected: RelPath,
  /** Every other file of the original workspace must be unchanged, and no file added outside these globs. */
  unchangedElsewhere: z.boolean().default(true),
  /** Globs (relative to /workspace) that may change freely (caches, build output). */
  ignore: z.array(z.string()).default(['**/__pycache__/**', '**/.pytest_cache/**', '**/node_modules/**', '.vscode/**']),
  ignoreTrailingWhitespace: z.boolean().default(false),
}).strict();

const ideChecks = [
  z.object({
    setting: z.string().min(1),
    languageId: z.string().optional(),
    /** `effective`: what the IDE uses; or the value at one scope. */
    scope: z.enum(['effective', 'user', 'workspace', 'workspaceFolder']).default('effective'),
    value: MatcherSchema,
  }).strict(),
  z.object({
    keybinding: z.object({ key: z.string().min(1), command: z.string().min(1), when: MatcherSchema.optional() }).strict(),
    present: z.boolean().default(true),
  }).strict(),
  z.object({ extension: z.string().min(1), installed: z.boolean().default(true), enabled: z.boolean().optional() }).strict(),
  z.object({ colorTheme: MatcherSchema }).strict(),
  z.object({ iconTheme: MatcherSchema }).strict(),
  z.object({
    breakpoint: z.object({
      /** Relative to /workspace. */
      file: RelPath,
      line: z.int().min(1),
      condition: MatcherSchema.optional(),
      hitCondition: MatcherSchema.optional(),
      logMessage: MatcherSchema.optional(),
      enabled: z.boolean().optional(),
    }).strict(),
    present: z.boolean().default(true),
  }).strict(),
  /** Some launch configuration (the effective `launch` setting) matches. */
  z.object({ launch: MatcherSchema }).strict(),
  /** A file's local history has at least this many entries. */
  z.object({ timeline: z.object({ file: RelPath, minEntries: z.int().min(0) }).strict() }).strict(),
] as const;
const IdeCheck = z.union(ideChecks);
export type IdeCheck = z.infer<typeof IdeCheck>;

const IdeEvaluator = z.object({
  kind: z.literal('ide'),
  // One flat union (not a union inside one), so a mistake is reported against the closest check.
  checks: z.array(z.union([...ideChecks, AnyOf(IdeCheck)])).min(1).max(200),
  scoring: Scoring,
}).strict();

const AnswerEvaluator = z.object({
  kind: z.literal('answer'),
  expected: z.union([z.string(), z.number()]),
  /** exact (after trimming; case-insensitive unless caseSensitive), regex, numeric (with tolerance), contains. */
  match: z.enum(['exact', 'regex', 'numeric', 'contains']).default('exact'),
  tolerance: z.number().min(0).default(0),
  caseSensitive: z.boolean().default(false),
}).strict();

const ImageEvaluator = z.object({
  kind: z.literal('image'),
  /** How the candidate image comes to be: rendered from an HTML file, made by a command, or a file as is. */
  candidate: z.union([
    z.object({ html: RelPath, width: z.int().min(16).max(4096), height: z.int().min(16).max(4096) }).strict(),
    z.object({ command: Argv, output: RelPath, timeoutSec: z.int().min(1).max(600).default(120) }).strict(),
    z.object({ file: RelPath }).strict(),
  ]),
  /** The reference image, relative to the hidden folder. */
  reference: RelPath,
  /** Similarity in [0,1] at or above which the task counts as solved. */
  threshold: z.number().min(0).max(1).default(0.95),
}).strict();

/**
 * Design2Code's published scores (evaluation/design2CodeGrader.ts): the agent's page and the
 * original page are both rendered at this viewport and their text blocks compared.
 */
const Design2CodeEvaluator = z.object({
  kind: z.literal('design2code'),
  /** The agent's page, relative to /workspace. */
  html: RelPath,
  /** The original page, relative to the hidden folder. */
  reference: RelPath,
  width: z.int().min(16).max(4096),
  height: z.int().min(16).max(4096),
  /** The low-level score (mean of block-match, text, position, colour and the renders' SSIM) at or above which the task counts as solved. */
  threshold: z.number().min(0).max(1).default(0.9),
}).strict();

/** ChartMimic's published low-level scores (evaluation/chartMimicGrader.ts): both scripts run traced, their drawings compared. */
const ChartMimicEvaluator = z.object({
  kind: z.literal('chartmimic'),
  /** The agent's matplotlib script, relative to /workspace. */
  script: RelPath,
  /** The original script, relative to the hidden folder. */
  reference: RelPath,
  timeoutSec: z.int().min(1).max(600).default(120),
  /** The low-level score (mean of the text, layout, type and colour F1 and the renders' SSIM) at or above which the task counts as solved. */
  threshold: z.number().min(0).max(1).default(0.9),
}).strict();

/**
 * A competition metric of a submission CSV (evaluation/metricGrader.ts), scored as DSBench's
 * Relative Performance Gap between a baseline and a gold value of that metric.
 */
const MetricEvaluator = z.object({
  kind: z.literal('metric'),
  /** The agent's submission, relative to /workspace. */
  predictions: RelPath,
  /** The answers, relative to the hidden folder. */
  answers: RelPath,
  /** The column that pairs a prediction with its answer, and the column scored. */
  id: z.string().min(1).max(200),
  target: z.string().min(1).max(200),
  metric: z.enum(METRICS),
  /** The metric's value for the baseline (gap 0) and for the gold solution (gap 1). */
  baseline: z.number(),
  gold: z.number(),
  /** The gap, 0-1, at or above which the task counts as solved. */
  threshold: z.number().min(0).max(1).default(1),
}).strict().refine((e) => e.baseline !== e.gold, { message: 'baseline and gold must differ', path: ['gold'] });

const SqlEvaluator = z.object({
  kind: z.literal('sql'),
  /** The pristine database, relative to the hidden folder. */
  database: RelPath,
  /** The gold query: a file of the hidden folder, or the query itself. */
  gold: RelPath.optional(),
  goldQuery: z.string().min(1).max(100_000).optional(),
  /** Where the agent's query is: a workspace file, or its final answer. */
  predicted: z.union([z.object({ file: RelPath }).strict(), z.literal('answer')]),
  /** Row order matters (ORDER BY questions). */
  ordered: z.boolean().default(false),
  timeoutSec: z.int().min(1).max(600).default(60),
}).strict().refine((e) => (e.gold === undefined) !== (e.goldQuery === undefined), { message: 'give either gold (a hidden file) or goldQuery', path: ['gold'] });

type Leaf = z.infer<typeof TestsEvaluator> | z.infer<typeof CommandEvaluator> | z.infer<typeof FilesEvaluator> | z.infer<typeof DiffEvaluator>
  | z.infer<typeof IdeEvaluator> | z.infer<typeof AnswerEvaluator> | z.infer<typeof ImageEvaluator> | z.infer<typeof SqlEvaluator>
  | z.infer<typeof Design2CodeEvaluator> | z.infer<typeof ChartMimicEvaluator> | z.infer<typeof MetricEvaluator>;
/** `all`: solved when every part is; `any`: solved when one part is (equivalent answers, e.g. two command ids for one keybinding). */
export type Evaluator = Leaf | { kind: 'all' | 'any'; evaluators: Evaluator[] };

export const EVALUATOR_KINDS = ['tests', 'command', 'files', 'diff', 'ide', 'answer', 'image', 'sql', 'design2code', 'chartmimic', 'metric', 'all', 'any'] as const;

export const EvaluatorSchema: z.ZodType<Evaluator> = z.lazy(() => z.discriminatedUnion('kind', [
  TestsEvaluator, CommandEvaluator, FilesEvaluator, DiffEvaluator, IdeEvaluator, AnswerEvaluator, ImageEvaluator, SqlEvaluator,
  Design2CodeEvaluator, ChartMimicEvaluator, MetricEvaluator,
  z.object({ kind: z.literal('all'), evaluators: z.array(EvaluatorSchema).min(1).max(20) }).strict(),
  z.object({ kind: z.literal('any'), evaluators: z.array(EvaluatorSchema).min(1).max(20) }).strict(),
])) as z.ZodType<Evaluator>;

export type TestsEvaluator = z.infer<typeof TestsEvaluator>;
export type CommandEvaluator = z.infer<typeof CommandEvaluator>;
export type FilesEvaluator = z.infer<typeof FilesEvaluator>;
export type FileCheck = z.infer<typeof FileCheck>;
export type DiffEvaluator = z.infer<typeof DiffEvaluator>;
export type IdeEvaluator = z.infer<typeof IdeEvaluator>;
export type AnswerEvaluator = z.infer<typeof AnswerEvaluator>;
export type ImageEvaluator = z.infer<typeof ImageEvaluator>;
export type SqlEvaluator = z.infer<typeof SqlEvaluator>;
export type Design2CodeEvaluator = z.infer<typeof Design2CodeEvaluator>;
export type ChartMimicEvaluator = z.infer<typeof ChartMimicEvaluator>;
export type MetricEvaluator = z.infer<typeof MetricEvaluator>;

/** Every leaf evaluator in a tree. */
export function leaves(e: Evaluator): Leaf[] {
  return 'evaluators' in e ? e.evaluators.flatMap(leaves) : [e];
}
