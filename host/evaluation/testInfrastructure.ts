// What of the workspace is the task's test infrastructure rather than the agent's deliverable,
// and the plan that puts the task's own copy of it back before grading: test files, runner
// configuration, the build files that decide which tests exist and how they report (CMake,
// Cargo, Maven, Gradle, go.mod, Lake, package.json, Makefiles), start-up hooks of the
// interpreters, shadows of the runners, run scripts and whatever the `tests` command names.
// The agent's versions never reach the verifier; files the task did not have are left out;
// the agent's changes to them are listed in the result. Parts of a build file a task declares
// as the agent's (fileParts.ts) keep the agent's version when nothing else changed. Byte-code
// and binaries the task did not ship are left out too (compiledFiles.ts). docs/test-definitions.md
// has the table per language.
import { createHash } from 'node:crypto';
import { isCompiled } from './compiledFiles';
import type { Evaluator } from './evaluatorSchema';
import { leaves } from './evaluatorSchema';
import { changedOnlyIn } from './fileParts';
import { globMatcher } from './glob';

/** Paths (relative to /workspace) that are test infrastructure unless the task says they are the agent's. */
export const DEFAULT_INFRASTRUCTURE: readonly string[] = [
  // test files
  '**/test_*.py', '**/*_test.py', '**/tests/**', '**/test/**', '**/__tests__/**', '**/testdata/**',
  '**/*.{test,spec}.{js,jsx,ts,tsx,mjs,cjs,mts,cts}', '**/*_test.go',
  // pytest's configuration and start-up hooks of Python (conftest.py is a plugin; .pth and
  // *customize run at interpreter start where a path is a site folder)
  '**/conftest.py', '**/pytest.ini', '**/.pytest.ini', '**/tox.ini', '**/setup.cfg', '**/pyproject.toml',
  '**/sitecustomize.py', '**/usercustomize.py', '**/*.pth',
  // copies of the runners that would be imported in their place
  '**/pytest.py', '**/pytest/**', '**/_pytest/**', '**/pluggy/**', '**/py.py',
  // JavaScript runners: their configuration, the workspace's packages and binaries
  '**/package.json', '**/.npmrc', '**/jest.config.*', '**/jest.setup.*', '**/.mocharc*', '**/babel.config.*', '**/.babelrc*',
  '**/node_modules/**',
  // JavaScript runners' other configuration (vitest also reads vite's config)
  '**/vitest.config.*', '**/vitest.workspace.*', '**/vite.config.*', '**/ava.config.*', '**/karma.conf.*', '**/.c8rc*', '**/.nycrc*',
  // C and C++: what CMake and CTest define at every level, make's targets
  '**/CMakeLists.txt', '**/*.cmake', '**/CMakePresets.json', '**/CMakeUserPresets.json',
  '**/Makefile', '**/makefile', '**/GNUmakefile', '**/*.mk', '**/meson.build', '**/meson_options.txt',
  // Rust: the manifest (autotests, [[test]], harness), build scripts, cargo's configuration
  '**/Cargo.toml', '**/build.rs', '**/.cargo/**', '**/rust-toolchain', '**/rust-toolchain.toml',
  // Java: Maven's and Gradle's builds (surefire's configuration is in the pom), their wrappers,
  // Gradle's script plugins (`apply from: 'x.gradle'`) and build logic (buildSrc, included
  // builds' settings, init scripts), and what JUnit and Maven load from the class path on their own
  '**/pom.xml', '**/.mvn/**', '**/mvnw', '**/mvnw.cmd', '**/*.gradle', '**/*.gradle.kts', '**/buildSrc/**',
  '**/gradle.properties', '**/gradle/**', '**/gradlew', '**/gradlew.bat',
  '**/junit-platform.properties', '**/META-INF/services/org.junit.*',
  // Go: the module and workspace files (replace and use redirect packages), vendored packages
  '**/go.mod', '**/go.work', '**/go.work.sum', '**/vendor/**',
  // Lean: Lake's build (a lakefile.lean is Lean code Lake runs) and its pins
  '**/lakefile.lean', '**/lakefile.toml', '**/lake-manifest.json', '**/lean-toolchain',
  // Python's other test drivers
  '**/noxfile.py', '**/.coveragerc',
  // run scripts
  '**/run_tests.sh', '**/run_tests.py', '**/runtests.py',
];

/**
 * Parts of infrastructure files that are the agent's unless a task says otherwise: a go.mod
 * that only gains requirements keeps the agent's version (its `replace` lines, which redirect
 * packages, are the task's).
 */
export const DEFAULT_AGENT_PARTS: Readonly<Record<string, readonly string[]>> = {
  '**/go.mod': ['require', 'exclude', 'go', 'toolchain'],
};

export interface RestoreRules {
  /** Globs restored besides the defaults (the task's `grading.restore`). */
  restore: string[];
  /** Globs that are the agent's deliverable even where they look like infrastructure (`grading.agentFiles`). */
  agentFiles: string[];
  /** Workspace files the `tests` commands name (run_tests.sh, a test file). */
  commandFiles: string[];
  /**
   * Parts of infrastructure files that are the agent's, by glob (the task's `grading.agentParts`,
   * added to DEFAULT_AGENT_PARTS): TOML tables, JSON key paths, go.mod directives (fileParts.ts).
   */
  agentParts?: Record<string, string[]>;
}

export interface Grading { restore?: string[]; agentFiles?: string[]; agentParts?: Record<string, string[]> }

/** Arguments of the `tests` commands that are workspace-relative file paths (pytest node ids lose their `::…`). */
export function commandFiles(evaluator: Evaluator): string[] {
  const out = new Set<string>();
  for (const e of leaves(evaluator)) {
    if (e.kind !== 'tests') continue;
    for (const arg of e.command.slice(1)) {
      if (arg.startsWith('-') || arg.includes('=')) continue;
      const path = arg.split('::')[0].replace(/^(\.\/)+/, '').replace(/^\/workspace\//, '');
      if (!path || path.startsWith('/') || path.split('/').includes('..') || path.endsWith('/')) continue;
      out.add(path);
    }
  }
  return [...out];
}

/**
 * The rules for a task, or undefined when it runs nothing of the workspace: a `files`, `diff`
 * or `ide` task may have `package.json` or `pyproject.toml` as its deliverable, and nothing of
 * it runs. A `command` runs the workspace's build as well (`lake env lean` reads the lakefile).
 */
export function restoreRulesOf(evaluator: Evaluator, grading: Grading = {}): RestoreRules | undefined {
  if (!leaves(evaluator).some((e) => e.kind === 'tests' || e.kind === 'command')) return undefined;
  return { restore: grading.restore ?? [], agentFiles: grading.agentFiles ?? [], commandFiles: commandFiles(evaluator), agentParts: grading.agentParts ?? {} };
}

/** The parts of `path` that are the agent's, from the defaults and the task's declarations. */
function partsMatcher(declared: Record<string, string[]> = {}): (path: string) => string[] {
  const entries = [...Object.entries(DEFAULT_AGENT_PARTS), ...Object.entries(declared)].map(([glob, parts]) => [globMatcher([glob]), parts] as const);
  return (path) => [...new Set(entries.flatMap(([m, parts]) => (m(path) ? parts : [])))];
}

/**
 * A file as planning sees it without its content: the digest of its bytes and its first bytes
 * (what tells compiled code). Planning never needs a whole file but a build file with declared
 * parts, whose two versions come separately (partsCandidates).
 */
export interface FileFacts { digest: string; head: Buffer }

/** One entry of the agent's final workspace archive, by path relative to /workspace: its content, or its facts. */
export interface WorkspaceEntry { path: string; type: string; content?: Buffer; digest?: string; head?: Buffer }

const digestOf = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const factsOf = (v: Buffer | FileFacts): FileFacts => (Buffer.isBuffer(v) ? { digest: digestOf(v), head: v } : v);
const entryFacts = (e: WorkspaceEntry): FileFacts | undefined => (e.digest ? { digest: e.digest, head: e.head ?? Buffer.alloc(0) } : e.content ? factsOf(e.content) : undefined);

/** `binary`: byte-code or native code the task did not ship, left out (compiledFiles.ts). */
export type InfrastructureChange = { path: string; change: 'added' | 'modified' | 'deleted' | 'binary' };

export interface RestorePlan<B = Buffer> {
  /** Entries of the agent's archive left out of the verifier. */
  drop: Set<string>;
  /** The task's copies put back (from the initial workspace), by path. */
  restore: Map<string, B>;
  /** What the agent did to the infrastructure, compared with the task's copy. */
  changes: InfrastructureChange[];
  /** Regular files the agent added or changed that stay (the deliverable). */
  deliverable: Set<string>;
}

/** Both versions of a build file whose declared parts the agent may change, by path. */
export type PartsContent = ReadonlyMap<string, { before: Buffer; after: Buffer }>;

function matchers(hidden: ReadonlySet<string>, rules: RestoreRules) {
  const infra = globMatcher([...DEFAULT_INFRASTRUCTURE, ...rules.restore]);
  const agents = globMatcher(rules.agentFiles);
  const named = new Set(rules.commandFiles);
  return { isInfra: (p: string) => hidden.has(p) || ((infra(p) || named.has(p)) && !agents(p)), partsOf: partsMatcher(rules.agentParts) };
}

/**
 * Build files the agent changed that have parts declared as its own: their two versions must be
 * read (both small: a manifest) before planning can say whose version stays.
 */
export function partsCandidates(final: readonly WorkspaceEntry[], baseline: ReadonlyMap<string, Buffer | FileFacts>, hidden: ReadonlySet<string>, rules: RestoreRules): string[] {
  const { isInfra, partsOf } = matchers(hidden, rules);
  return final.filter((e) => {
    if (e.type !== 'file' || hidden.has(e.path) || !isInfra(e.path) || !partsOf(e.path).length) return false;
    const theirs = baseline.get(e.path);
    return theirs !== undefined && factsOf(theirs).digest !== entryFacts(e)?.digest;
  }).map((e) => e.path);
}

/**
 * A grader's own folders: hidden ones (a name starting with a dot: `.swt`, `.resq`) that only the
 * task's hidden files bring, none of its workspace files being in them. A folder of hidden tests
 * beside the agent's code (a Go package's) is not one: the agent's files there are its own.
 */
function graderFolders(baseline: Iterable<string>, hidden: Iterable<string>): Set<string> {
  const ancestors = (paths: Iterable<string>) => new Set([...paths].flatMap((p) => p.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))));
  const taskFolders = ancestors(baseline);
  return new Set([...ancestors(hidden)].filter((d) => !taskFolders.has(d) && d.split('/').pop()!.startsWith('.')));
}

/**
 * `final`: the agent's workspace entries; `baseline`: the task's initial workspace files (their
 * contents, or their facts); `hidden`: paths the hidden overlay writes (always the task's);
 * `parts`: both versions of the files partsCandidates named.
 */
export function planRestore<B extends Buffer | FileFacts>(
  final: readonly WorkspaceEntry[], baseline: ReadonlyMap<string, B>, hidden: ReadonlySet<string>, rules: RestoreRules, parts?: PartsContent,
): RestorePlan<B> {
  const { isInfra, partsOf } = matchers(hidden, rules);
  // Byte-code and runner caches under test folders go like the rest, without being listed.
  const cache = globMatcher(['**/__pycache__/**', '**/.pytest_cache/**', '**/*.pyc']);
  // Folders on the way to a file the task puts back: an agent's symlink or file there would
  // redirect or block the task's copy.
  const taskPaths = [...[...baseline.keys()].filter(isInfra), ...hidden];
  const ancestors = new Set(taskPaths.flatMap((p) => p.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))));
  // What the agent put in a grader's own folder (.swt/, .pwp-idebench/) would run beside the
  // task's grader: it goes, as infrastructure.
  const taskOnly = [...graderFolders(baseline.keys(), hidden)].map((d) => `${d}/`);
  const inTaskFolder = (p: string) => !hidden.has(p) && taskOnly.some((d) => p.startsWith(d));
  const drop = new Set<string>();
  const droppedDirs: string[] = [];
  const changes: InfrastructureChange[] = [];
  const deliverable = new Set<string>();
  const seen = new Set<string>();
  // The task's byte-code and binaries the agent replaced: put back like infrastructure.
  const binaries = new Set<string>();
  const agentsVersion = new Set<string>();
  for (const e of final) {
    if (e.type === 'directory') {
      // A folder where the task has a file hides it: the folder and all below it go.
      if (isInfra(e.path) && (baseline.has(e.path) || hidden.has(e.path))) { drop.add(e.path); droppedDirs.push(`${e.path}/`); }
      continue;
    }
    if (droppedDirs.some((d) => e.path.startsWith(d))) { drop.add(e.path); continue; }
    seen.add(e.path);
    const theirs = baseline.get(e.path);
    const facts = entryFacts(e);
    const same = e.type === 'file' && theirs !== undefined && facts !== undefined && factsOf(theirs).digest === facts.digest;
    const both = parts?.get(e.path) ?? (Buffer.isBuffer(theirs) && e.content ? { before: theirs, after: e.content } : undefined);
    if (inTaskFolder(e.path)) {
      drop.add(e.path);
      if (!cache(e.path)) changes.push({ path: e.path, change: 'added' });
    } else if (e.type === 'file' && !same && theirs !== undefined && both && !hidden.has(e.path) && isInfra(e.path)
      && changedOnlyIn(e.path, both.before, both.after, partsOf(e.path))) {
      // Only the agent's declared parts changed: its version stays, as deliverable.
      deliverable.add(e.path);
      agentsVersion.add(e.path);
    } else if (isInfra(e.path) || (e.type !== 'file' && ancestors.has(e.path))) {
      drop.add(e.path);
      if (!same && !cache(e.path)) changes.push({ path: e.path, change: theirs === undefined ? 'added' : 'modified' });
    } else if (e.type === 'file' && !same && isCompiled(e.path, facts?.head)) {
      // Byte-code caches go unlisted: Python writes them for every module it imports.
      drop.add(e.path);
      if (!e.path.split('/').includes('__pycache__')) changes.push({ path: e.path, change: 'binary' });
      if (theirs !== undefined) binaries.add(e.path);
    } else if (e.type === 'file' && !same && facts) {
      deliverable.add(e.path);
    }
  }
  const restore = new Map<string, B>();
  for (const [path, content] of baseline) {
    if ((!isInfra(path) && !binaries.has(path)) || hidden.has(path) || agentsVersion.has(path)) continue;
    restore.set(path, content);
    if (!seen.has(path)) changes.push({ path, change: 'deleted' });
  }
  changes.sort((a, b) => a.path.localeCompare(b.path));
  return { drop, restore, changes, deliverable };
}
