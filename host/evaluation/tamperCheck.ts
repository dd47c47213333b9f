// What the verifier cannot prevent, it detects. The deliverable runs inside the test runner's
// own process (the tests import it), so it could replace assertion functions, patch pytest,
// force the exit code from an exit handler or rewrite the report before the process ends; no
// sandbox stops code from changing the process it runs in. Such code has no business in a
// solution, so the lines the agent added are searched for it, and a finding scores 0 with
// the file, the line and the reason. Only added lines count: code the task shipped is the
// task's. Test files a task declares as the agent's (`grading.agentFiles`) may use the test
// framework, but not patch it.
import { globMatcher } from './glob';

export interface TamperFinding { path: string; line: number; reason: string; text: string }

// `ownSource`: the rule names a test framework by name, which a workspace that is that
// framework's own source (a SWE-bench task on pytest) uses everywhere.
interface Rule { re: RegExp; reason: string; inAgentTests?: boolean; ownSource?: boolean }

const REPORT_PATHS: Rule = { re: /\/pwp\/|\/dev\/fd\/|\/proc\/self\/fd|junitxml|junit_|test-reporter|--outputFile/i, reason: "names the grader's report or its file descriptors", inAgentTests: true };

const PYTHON: Rule[] = [
  { re: /\b_pytest\b/, reason: "reaches into pytest's internals (_pytest)", inAgentTests: true, ownSource: true },
  { re: /\bpluggy\b/, reason: "reaches into pytest's plugin manager (pluggy)", inAgentTests: true, ownSource: true },
  { re: /^\s*(?:import\s+pytest\b|from\s+pytest\b)/, reason: 'imports pytest from a file that is not a test', ownSource: true },
  { re: /\bdef\s+pytest_\w+\s*\(/, reason: 'defines a pytest hook', inAgentTests: true, ownSource: true },
  { re: /\batexit\b/, reason: 'registers an exit handler (atexit)', inAgentTests: true },
  { re: /\bos\s*\.\s*_exit\b/, reason: 'ends the process with os._exit', inAgentTests: true },
  { re: /\bsys\s*\.\s*modules\b/, reason: 'touches sys.modules', inAgentTests: true },
  { re: /\bsys\s*\.\s*(?:settrace|setprofile|addaudithook|meta_path|path_hooks|excepthook|displayhook|_getframe)\b/, reason: 'changes how the interpreter runs, imports or exits', inAgentTests: true },
  { re: /\bsys\s*\.\s*(?:stdout|stderr|__stdout__|__stderr__)\s*(?:\.\s*write\s*)?=(?!=)/, reason: "replaces the process's output streams", inAgentTests: true },
  { re: /\bimport\s+builtins\b|\bfrom\s+builtins\b|__builtins__/, reason: 'patches builtins', inAgentTests: true },
  { re: /\bgc\s*\.\s*get_(?:objects|referrers|referents)\b|\binspect\s*\.\s*(?:stack|currentframe|getouterframes)\b/, reason: "walks the interpreter's objects or frames", inAgentTests: true },
  { re: /\bctypes\b/, reason: 'uses ctypes', inAgentTests: true },
  { re: /\bos\s*\.\s*(?:fork|forkpty|setsid|dup2|kill|killpg)\b/, reason: 'forks, signals or re-plumbs file descriptors', inAgentTests: true },
  REPORT_PATHS,
];

const JS_FRAMEWORK = /(?:\bfrom\s*|\brequire\s*\(\s*|\bimport\s*\(\s*|^\s*import\s+)['"](?:node:)?(?:assert(?:\/strict)?|test|module|inspector)['"]|['"](?:jest|@jest\/[\w-]+|expect|mocha|chai|vitest)['"]/;

const JAVASCRIPT: Rule[] = [
  { re: JS_FRAMEWORK, reason: 'imports the test framework, its assertions or the module loader from a file that is not a test' },
  { re: /\bprocess\s*\.\s*(?:on|once|addListener|prependListener|prependOnceListener)\s*\(\s*['"`](?:exit|beforeExit|uncaughtException|unhandledRejection)['"`]/, reason: 'registers an exit handler', inAgentTests: true },
  { re: /\bprocess\s*\.\s*(?:exit|exitCode|reallyExit|abort|kill|binding|_linkedBinding|dlopen)\b/, reason: "controls the process's exit or internals", inAgentTests: true },
  { re: /\bprocess\s*\.\s*(?:stdout|stderr)\s*\.\s*write\s*=(?!=)|Object\s*\.\s*defineProperty\s*\(\s*process\b/, reason: "replaces the process's output", inAgentTests: true },
  { re: /\bModule\s*\.\s*_(?:load|resolveFilename|extensions|compile)\b|\brequire\s*\.\s*cache\b|\bregisterHooks\b/, reason: 'hooks module loading', inAgentTests: true },
  { re: /\bassert\w*\s*\.\s*\w+\s*=(?!=)/, reason: 'overwrites an assertion function', inAgentTests: true },
  { re: /\b(?:Object|Function|Array|Promise|Error|Reflect|String|Number)\s*\.\s*prototype\s*\.\s*\w+\s*=(?!=)/, reason: 'patches a built-in prototype', inAgentTests: true },
  { re: /\b(?:globalThis|global)\s*\.\s*\w+\s*=(?!=)|\b(?:globalThis|global)\s*\[[^\]]+\]\s*=(?!=)/, reason: 'sets a global', inAgentTests: true },
  REPORT_PATHS,
];

const GO: Rule[] = [
  { re: /\bos\s*\.\s*Exit\b/, reason: 'ends the test binary with os.Exit', inAgentTests: true },
  { re: /---\s(?:PASS|FAIL|SKIP)|===\s(?:RUN|PAUSE|CONT)/, reason: "prints go test's result lines", inAgentTests: true },
  { re: /^\s*(?:import\s+)?"testing"/, reason: 'imports the testing package from a file that is not a test' },
  REPORT_PATHS,
];

function rulesFor(path: string): Rule[] | undefined {
  if (/\.pyi?$/.test(path)) return PYTHON;
  if (/\.(?:[cm]?[jt]sx?)$/.test(path)) return JAVASCRIPT;
  if (/\.go$/.test(path)) return GO;
  return undefined;
}

/**
 * Findings in the lines `changed` files gained over `baseline` (a file the task did not have
 * is all new). `pythonModules`: top-level modules the image's pytest imports; a new Python
 * module of that name would be imported in its place.
 */
export function findTampering(
  changed: ReadonlyMap<string, Buffer>, baseline: ReadonlyMap<string, Buffer>,
  opts: { agentFiles?: string[]; pythonModules?: ReadonlySet<string> } = {},
): TamperFinding[] {
  const agentTests = globMatcher(opts.agentFiles ?? []);
  const frameworkSource = [...baseline.keys()].some((p) => /(?:^|\/)(?:_pytest|pluggy)\//.test(p));
  const out: TamperFinding[] = [];
  for (const [path, content] of changed) {
    const before = baseline.get(path);
    const module = /(?:^|\/)([A-Za-z_]\w*)(?:\.py|\/__init__\.py)$/.exec(path)?.[1];
    if (!before && module && opts.pythonModules?.has(module)) {
      out.push({ path, line: 0, reason: `shadows the installed Python module "${module}"`, text: '' });
    }
    const rules = rulesFor(path);
    if (!rules) continue;
    const isTest = agentTests(path);
    const old = new Set(before ? before.toString('utf8').split('\n').map((l) => l.trim()) : []);
    content.toString('utf8').split('\n').forEach((text, i) => {
      if (old.has(text.trim())) return;
      const rule = rules.find((r) => (!isTest || r.inAgentTests) && !(frameworkSource && r.ownSource) && r.re.test(text));
      if (rule) out.push({ path, line: i + 1, reason: rule.reason, text: text.trim().slice(0, 200) });
    });
  }
  return out;
}

export function describeFindings(findings: readonly TamperFinding[]): string {
  const shown = findings.slice(0, 5).map((f) => `${f.path}${f.line ? `:${f.line}` : ''} ${f.reason}${f.text ? ` (${JSON.stringify(f.text)})` : ''}`);
  return `${shown.join('; ')}${findings.length > 5 ? `; and ${findings.length - 5} more` : ''}`;
}
