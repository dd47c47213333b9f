// Test reports as test cases: JUnit XML (pytest --junitxml, node --test-reporter=junit, most
// JVM and .NET runners), Jest's and Mocha's JSON reporters, `go test -json`, and cargo test's
// console (libtest writes no report on stable Rust). Each case
// carries the ids it can be named by, so a task's expected list (`tests/test_x.py::test_a`,
// `TestFoo/sub`, `suite name > title`) finds it whichever runner wrote it.
import { XMLParser } from 'fast-xml-parser';

export type TestStatus = 'passed' | 'failed' | 'skipped';
export interface TestCase {
  /** The most specific id: file::Class::name for pytest, the full title for JS runners. */
  id: string;
  /** Other names it answers to. */
  aliases: string[];
  status: TestStatus;
  message?: string;
  durationMs?: number;
}

// ---- JUnit XML ------------------------------------------------------------------------------

// An XML parser, not patterns: a case's captured output (system-out, CDATA) may hold any
// text, `<failure` included, and only the element structure says what failed.
const xml = new XMLParser({
  preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: '', parseAttributeValue: false,
  parseTagValue: false, trimValues: false, processEntities: true, htmlEntities: true,
});
type XmlNode = Record<string, unknown> & { ':@'?: Record<string, string> };

const tagOf = (n: XmlNode): string | undefined => Object.keys(n).find((k) => k !== ':@');
const childrenOf = (n: XmlNode): XmlNode[] => { const t = tagOf(n); const c = t ? n[t] : undefined; return Array.isArray(c) ? (c as XmlNode[]) : []; };
const textOf = (nodes: readonly XmlNode[]): string => nodes.map((n) => (typeof n['#text'] === 'string' ? n['#text'] : textOf(childrenOf(n)))).join('');

/** The id pytest gives a case: path::Class::name, from xunit1's file attribute or the classname. */
function pytestIds(a: Record<string, string>): { id: string; aliases: string[] } {
  const name = a.name ?? '';
  const classname = a.classname ?? '';
  const aliases = new Set<string>([name]);
  if (classname) { aliases.add(`${classname}::${name}`); aliases.add(`${classname}.${name}`); }
  // xunit1 reports name the file; otherwise the module is the classname up to its first
  // capitalised part (a test class), as pytest's own classnames are built.
  let file = a.file;
  let classPart = '';
  const parts = classname ? classname.split('.') : [];
  const firstClass = parts.findIndex((p) => /^[A-Z]/.test(p));
  const moduleParts = firstClass === -1 ? parts : parts.slice(0, firstClass);
  if (file) {
    const mod = file.replace(/\.py$/, '').split('/').join('.');
    classPart = classname.startsWith(`${mod}.`) ? classname.slice(mod.length + 1) : '';
  } else if (moduleParts.length) {
    file = `${moduleParts.join('/')}.py`;
    classPart = parts.slice(moduleParts.length).join('.');
  }
  const id = file ? `${file}::${classPart ? `${classPart.split('.').join('::')}::` : ''}${name}` : name;
  aliases.delete(id);
  return { id, aliases: [...aliases] };
}

/** A case is classname::name when it has a classname, else its suites and name (node --test). */
function junitIds(attrs: Record<string, string>, suites: readonly string[]): { id: string; aliases: string[] } {
  const name = attrs.name ?? '';
  // node --test writes classname="test" on every case: a placeholder, not a class.
  const classname = attrs.classname === 'test' ? '' : attrs.classname ?? '';
  // The classname is what Surefire, Gradle, pytest and mocha's xunit reporter identify a case
  // by; their <testsuite> names are often just the runner's ("pytest", "Mocha Tests").
  const bySuites = suites.length ? [...suites, name].join(' > ') : '';
  const id = classname ? `${classname}::${name}` : bySuites || name;
  const aliases = new Set([name, ...(classname ? [`${classname}.${name}`, `${classname} ${name}`] : []), ...(bySuites ? [bySuites] : [])]);
  aliases.delete(id);
  return { id, aliases: [...aliases] };
}

/** `pythonIds`: name cases as pytest does (path::Class::name); otherwise classname::name, or by suites and name. */
export function parseJUnitXml(text: string, opts: { pythonIds?: boolean } = {}): TestCase[] {
  const cases: TestCase[] = [];
  const walk = (nodes: readonly XmlNode[], suites: readonly string[]): void => {
    for (const n of nodes) {
      const tag = tagOf(n);
      const a = n[':@'] ?? {};
      if (tag === 'testsuite') walk(childrenOf(n), [...suites, a.name ?? '']);
      else if (tag === 'testsuites') walk(childrenOf(n), suites);
      else if (tag === 'testcase') {
        const body = childrenOf(n);
        const failure = body.find((c) => tagOf(c) === 'failure' || tagOf(c) === 'error');
        const skipped = body.some((c) => tagOf(c) === 'skipped');
        const status: TestStatus = failure ? 'failed' : skipped ? 'skipped' : 'passed';
        const { id, aliases } = opts.pythonIds ? pytestIds(a) : junitIds(a, suites.filter(Boolean));
        const message = failure ? ((failure[':@'] ?? {}).message ?? textOf(childrenOf(failure)).trim()).slice(0, 2000) : undefined;
        const seconds = a.time !== undefined ? Number(a.time) : NaN;
        cases.push({ id, aliases, status, message, durationMs: Number.isFinite(seconds) ? Math.round(seconds * 1000) : undefined });
      }
    }
  };
  walk(xml.parse(text) as XmlNode[], []);
  return cases;
}

// ---- Jest and Mocha JSON --------------------------------------------------------------------

/** Where the verifier runs the tests (verifier.ts): reports name files by absolute path. */
const WORKSPACE = '/workspace/';

/** `file::title` with the file as the report names it and relative to the workspace. */
function fileAliases(file: string | undefined, title: string): string[] {
  if (!file) return [];
  return [`${file}::${title}`, ...(file.startsWith(WORKSPACE) ? [`${file.slice(WORKSPACE.length)}::${title}`] : [])];
}

interface JestReport {
  testResults?: {
    name?: string;
    message?: string;
    assertionResults?: { ancestorTitles?: string[]; title: string; fullName?: string; status: string; failureMessages?: string[]; duration?: number }[];
  }[];
}

export function parseJestJson(text: string): TestCase[] {
  const r = JSON.parse(text) as JestReport;
  const cases: TestCase[] = [];
  for (const file of r.testResults ?? []) {
    for (const t of file.assertionResults ?? []) {
      const full = t.fullName ?? [...(t.ancestorTitles ?? []), t.title].join(' ');
      const status: TestStatus = t.status === 'passed' ? 'passed' : t.status === 'failed' ? 'failed' : 'skipped';
      cases.push({
        id: full,
        aliases: [t.title, [...(t.ancestorTitles ?? []), t.title].join(' > '), ...fileAliases(file.name, full)],
        status,
        message: t.failureMessages?.join('\n').slice(0, 2000) || undefined,
        durationMs: t.duration ?? undefined,
      });
    }
    // A file that failed to load has no assertions but a message: count it as one failure.
    if (!file.assertionResults?.length && file.message) cases.push({ id: file.name ?? 'test file', aliases: [], status: 'failed', message: file.message.slice(0, 2000) });
  }
  return cases;
}

interface MochaTest { title: string; fullTitle?: string; file?: string; duration?: number; err?: { message?: string } }
interface MochaReport { passes?: MochaTest[]; failures?: MochaTest[]; pending?: MochaTest[] }

export function parseMochaJson(text: string): TestCase[] {
  // Mocha's JSON reporter writes to stdout, where console output of the tests may precede it.
  const start = text.indexOf('{\n  "stats"');
  const r = JSON.parse(start > 0 ? text.slice(start) : text) as MochaReport;
  const one = (t: MochaTest, status: TestStatus): TestCase => ({
    id: t.fullTitle ?? t.title,
    aliases: [t.title, ...fileAliases(t.file, t.fullTitle ?? t.title)],
    status,
    message: t.err?.message?.slice(0, 2000),
    durationMs: t.duration,
  });
  return [
    ...(r.passes ?? []).map((t) => one(t, 'passed')),
    // A failed hook appears here too, as a failure of its own.
    ...(r.failures ?? []).map((t) => one(t, 'failed')),
    ...(r.pending ?? []).map((t) => one(t, 'skipped')),
  ];
}

// ---- go test -json --------------------------------------------------------------------------

export function parseGoTestJson(text: string): TestCase[] {
  const cases = new Map<string, TestCase>();
  const output = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    let e: { Action?: string; Package?: string; Test?: string; Elapsed?: number; Output?: string };
    try { e = JSON.parse(line); } catch { continue; }
    if (!e.Test) continue;
    const key = `${e.Package ?? ''}::${e.Test}`;
    if (e.Action === 'output') output.set(key, ((output.get(key) ?? '') + (e.Output ?? '')).slice(-2000));
    if (e.Action === 'pass' || e.Action === 'fail' || e.Action === 'skip') {
      const status: TestStatus = e.Action === 'pass' ? 'passed' : e.Action === 'fail' ? 'failed' : 'skipped';
      cases.set(key, {
        id: key, aliases: [e.Test], status,
        message: status === 'failed' ? output.get(key) : undefined,
        durationMs: e.Elapsed !== undefined ? Math.round(e.Elapsed * 1000) : undefined,
      });
    }
  }
  return [...cases.values()];
}

// ---- cargo test's console --------------------------------------------------------------------

/**
 * The test binary a "Running" or "Doc-tests" line of cargo's starts: its source (`src/lib.rs`,
 * `tests/api.rs`) where cargo names it, else the binary's file without the hash cargo appends
 * (it changes with the build's inputs), so a case keeps its id between the base and the agent's run.
 */
function cargoBinary(line: string): string | undefined {
  const running = /^\s*Running\s+(?:unittests\s+)?(\S+)(?:\s+\((\S+)\))?\s*$/.exec(line);
  if (running) return running[2] ? running[1] : running[1].replace(/^.*\//, '').replace(/-[0-9a-f]{16}$/, '');
  const doc = /^\s*Doc-tests\s+(\S+)\s*$/.exec(line);
  return doc ? `doctests ${doc[1]}` : undefined;
}

/**
 * `cargo test`'s console: one case per "test name ... ok|FAILED|ignored" line, its id the test
 * binary and the name (`tests/api.rs::parses`: the same name can run in two binaries), the name
 * alone an alias; a failed case's message is its output from the failures section. cargo names
 * each binary on stderr as it starts it while the binaries print their results on stdout, so the
 * n-th "running N tests" block is the n-th binary named there (or, when both streams were one,
 * the name just before it).
 */
export function parseCargoTest(stdout: string, stderr = ''): TestCase[] {
  const named = stderr.split('\n').map(cargoBinary).filter((b): b is string => b !== undefined);
  const cases = new Map<string, TestCase>();
  let binary = '';
  let inline = false;
  let block = 0;
  // The failures section follows its binary's results: "---- name stdout ----", then the output.
  let failing: { id: string; out: string[] } | undefined;
  const close = () => {
    const c = failing && cases.get(failing.id);
    if (c?.status === 'failed') c.message = failing!.out.join('\n').trim().slice(-2000);
    failing = undefined;
  };
  for (const line of stdout.split('\n')) {
    const b = cargoBinary(line);
    if (b !== undefined) { close(); binary = b; inline = true; continue; }
    if (/^running \d+ tests?$/.test(line)) {
      close();
      block++;
      if (!inline) binary = named[block - 1] ?? `test binary ${block}`;
      inline = false;
      continue;
    }
    const t = /^test (.+?) \.\.\. (ok|FAILED|ignored)\b/.exec(line);
    if (t) {
      const id = `${binary}::${t[1]}`;
      cases.set(id, { id, aliases: [t[1]], status: t[2] === 'ok' ? 'passed' : t[2] === 'FAILED' ? 'failed' : 'skipped' });
      continue;
    }
    const out = /^---- (.+?) stdout ----$/.exec(line);
    if (out) { close(); failing = { id: `${binary}::${out[1]}`, out: [] }; continue; }
    if (failing && /^(failures:|test result:)/.test(line)) close();
    else failing?.out.push(line);
  }
  close();
  return [...cases.values()];
}

// ---- counting -------------------------------------------------------------------------------

export interface TestTally {
  passed: number;
  failed: number;
  skipped: number;
  /** What the pass rate divides by: the expected tests, or every case reported (skipped ones too). */
  total: number;
  /** Expected ids no case answers to (they count as failed). */
  missing: string[];
}

/** Finds the case an id names (its id or an alias). */
export function findCase(cases: readonly TestCase[], id: string): TestCase | undefined {
  return cases.find((c) => c.id === id) ?? aliasedCase(cases, id) ?? truncatedCase(cases, id);
}

/**
 * The cases an alias names (a go test's bare name, which two packages can share, as SWE-bench's
 * lists name them): passed only when all of them pass.
 */
function aliasedCase(cases: readonly TestCase[], id: string): TestCase | undefined {
  const found = cases.filter((c) => c.aliases.includes(id));
  if (found.length <= 1) return found[0];
  return found.find((c) => c.status === 'failed') ?? found.find((c) => c.status === 'skipped') ?? found[0];
}

/**
 * An id cut inside its parameter (more `[` than `]`: SWE-bench's log parser cuts ids at their
 * first space) stands for the cases it begins, as SWE-bench's grading matches it: passed when
 * they all pass, failed otherwise.
 */
function truncatedCase(cases: readonly TestCase[], id: string): TestCase | undefined {
  if (id.split('[').length <= id.split(']').length) return undefined;
  const found = cases.filter((c) => c.id.startsWith(id));
  if (!found.length) return undefined;
  const status = found.every((c) => c.status === 'passed') ? 'passed' : found.every((c) => c.status === 'skipped') ? 'skipped' : 'failed';
  return { id, aliases: [], status, message: found.find((c) => c.status === status)?.message };
}

export function tally(cases: readonly TestCase[], expected?: readonly string[]): TestTally {
  if (expected?.length) {
    let passed = 0;
    let skipped = 0;
    const missing: string[] = [];
    for (const id of expected) {
      const c = findCase(cases, id);
      if (!c) missing.push(id);
      else if (c.status === 'passed') passed++;
      else if (c.status === 'skipped') skipped++;
    }
    return { passed, skipped, failed: expected.length - passed - skipped, total: expected.length, missing };
  }
  // A skipped test did not pass: the deliverable runs inside the tests and can skip the ones it
  // would fail (unittest.SkipTest, pytest.xfail), and a test that did not run proves nothing.
  // A suite whose tests skip for reasons of their own names those that count (`expected`).
  const passed = cases.filter((c) => c.status === 'passed').length;
  const skipped = cases.filter((c) => c.status === 'skipped').length;
  return { passed, skipped, failed: cases.length - passed - skipped, total: cases.length, missing: [] };
}
