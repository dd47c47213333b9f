# SWT-Bench's check of tests written for an issue, judged on behaviour; the half that runs them.
# The verifier runs it as root before the tests (the task's `prepare` step), with the task's
# hidden folder readable by root alone; it writes what it found to results.json, which the other
# half (test_swt.py, run as the tests by the verifier's runner) reports.
#
# The agent's tests are the test functions it added or changed in test files. Each is run, per
# test, in three states of the code, each a fresh copy of the workspace as the agent received it
# with only the agent's test files added:
#   original  the code as it was: a test that reproduces the issue fails here;
#   gold      the gold patch applied: every one of the agent's tests must pass here;
#   decoy     the original with a change that keeps behaviour (a comment appended to each text
#             file the gold patch touches, a blank line where the language's comments are not
#             known): a test that reproduces the issue still fails here,
#             while one that only notices that the source changed (hashing the file) passes.
# A test counts when it fails on the original, passes with the gold patch and fails on the decoy.
# Each state is run SPEC["repeats"] times, in an order drawn now, so tests that keep state between
# runs (fail the first time, pass the next) cannot tell the states apart.
#
# Who can read what: the copies are root's and read-only; the tests run as another user (nobody,
# uid 65534), who is neither root nor the IDE user, so the gold patch (in the hidden folder, and in
# the gold copy only while that copy's run lasts), this script and its results are out of their
# reach, as is every other run's copy. Between runs every process of that user is killed and
# every file it left where it could write is removed. The agent's files are read here as data,
# never followed through a link, never run as root.
#
# Reading the code under test from a test is refused: the test files are read as parsed code for
# what reads code (a function's __code__, inspect's source readers, linecache, dis, a module's
# loader), and an audit hook in the test process denies opening a file the gold patch touches,
# or naming it to another process, from any call made by the agent's test files, except
# importing it.
#
# SWT-Bench's metrics go to components.json beside the results, for the grade to report beside its
# reward: applicability (some test file was added or changed, the counterpart of the published
# harness's test patch applying), fail-to-pass (the grade above) and change coverage: the share of
# the gold patch's executable changed lines (swt.json's `changed`; lines a code object of the file
# has) that the agent's tests run, removed lines in the runs of the original code and added ones in
# those with the gold patch. A line tracer in the tests' process, limited to the files the patch
# changes, records the lines each test runs (its set-up, call and tear-down; for a test file the
# agent added, its import too). It runs in that process, so code in the tests could alter it: a test
# file that names what reaches it (REACHING), or a call from the tests that does (sys.settrace,
# gc.get_objects…, seen by the audit hook), leaves the coverage not believed (null, with why). The
# coverage never decides the reward.
#
# Tests that download data (swt.json's fetchHost: the task has the verifier's network) need that
# host: whether this verifier reaches it is recorded, for the report to name it when they fail.
#
# Copied by host/converters/swtBench.ts to a task's hidden/swt/prepare_swt.py, with swt.json (test
# file patterns, gold files, the lines the gold patch changes, repeats, the initial workspace, fetchHost) and gold/ (the gold patch's files)
# beside it. Environment (for its own tests): PWP_SWT_SPEC, PWP_SWT_WORKSPACE, PWP_SWT_ROOT (where
# copies and results go), PWP_SWT_UID (empty: run the tests as this process's user).
import ast
import fnmatch
import json
import os
import random
import secrets
import shutil
import socket
import stat
import subprocess
import sys
import xml.etree.ElementTree

SPEC_FILE = os.environ.get("PWP_SWT_SPEC", "/pwp/hidden/swt/swt.json")
HERE = os.path.dirname(os.path.abspath(SPEC_FILE))
WORKSPACE = os.environ.get("PWP_SWT_WORKSPACE", "/workspace")
ROOT = os.environ.get("PWP_SWT_ROOT", "/pwp/swt")
UID = os.environ.get("PWP_SWT_UID", "65534")
STATES = ("original", "gold", "decoy")
MAX_FILE = 4 * 1024 * 1024
# Where the tests' user can write: swept after each run.
WRITABLE = ["/tmp", "/var/tmp", "/dev/shm", "/pwp/out", WORKSPACE]

AUDIT_LAUNCH = r"""
import sys, os, json
# Lists of paths come as JSON: an environment variable cannot hold the NUL that would part them.
GUARDED = set(json.loads(os.environ.pop('PWP_SWT_GUARDED')))
NAMES = {os.path.basename(p) for p in GUARDED}
TESTS = set(json.loads(os.environ.pop('PWP_SWT_TESTS')))
MARK = os.environ.pop('PWP_SWT_MARK')
# The process's stderr before pytest captures fds 1 and 2: what is written here reaches the
# grader whether or not the test fails.
REPORT = os.dup(2)
IMPORTING = {'_find_and_load', '_find_and_load_unlocked', '_load_unlocked', 'exec_module', '_call_with_frames_removed'}
SPAWNS = {'subprocess.Popen', 'os.system', 'os.exec', 'os.posix_spawn', 'os.spawn', 'pty.spawn'}
def from_tests():
    # A call made by the agent's test files, not by the import system on their behalf.
    f = sys._getframe(2)
    while f is not None:
        if f.f_code.co_filename.startswith('<frozen importlib') and f.f_code.co_name in IMPORTING:
            return False
        if os.path.realpath(f.f_code.co_filename) in TESTS:
            return True
        f = f.f_back
    return False
def deny(what):
    os.write(REPORT, (MARK + what + '\n').encode())
    raise PermissionError('pwp: a test may not read the code it tests: ' + what)
def words(args):
    for a in args:
        if isinstance(a, (str, bytes, os.PathLike)):
            yield os.fsdecode(a)
        elif isinstance(a, (list, tuple)):
            yield from words(a)
# Lines of the traced files (the gold patch's) run while each test runs, for change coverage.
# Hits are kept in a closure, reported when pytest ends; a test that reaches for the tracer or
# for every object of the process is reported, and its coverage is not believed.
TRACED = set(json.loads(os.environ.pop('PWP_SWT_TRACED')))
COVERAGE = os.environ.pop('PWP_SWT_COVERAGE')
REACHES = {'sys.settrace', 'sys.setprofile', 'gc.get_objects', 'gc.get_referrers', 'gc.get_referents'}
def traced():
    import json, threading
    root = os.path.realpath(os.getcwd()) + os.sep
    hits, now, known = {}, [None], {}
    def rel(path):
        path = os.path.realpath(str(path))
        return path[len(root):] if path.startswith(root) else path
    def on_line(frame, event, arg):
        if event == 'line' and now[0] is not None:
            hits.setdefault(now[0], {}).setdefault(known[frame.f_code.co_filename], set()).add(frame.f_lineno)
        return on_line
    def on_call(frame, event, arg):
        name = frame.f_code.co_filename
        if name not in known:
            path = os.path.realpath(name)
            known[name] = rel(path) if path in TRACED else None
        return on_line if known[name] is not None else None
    class Attribute:
        # A test's own lines: its set-up, call and tear-down; a test file's import, apart.
        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_protocol(self, item, nextitem):
            path = getattr(item, 'path', None) or item.fspath
            now[0] = rel(path) + '::' + item.nodeid.split('::', 1)[-1].split('[')[0].replace('::', '.')
            yield
            now[0] = None
        @pytest.hookimpl(hookwrapper=True)
        def pytest_make_collect_report(self, collector):
            if isinstance(collector, pytest.Module):
                now[0] = rel(getattr(collector, 'path', None) or collector.fspath) + '::<import>'
            yield
            now[0] = None
        @pytest.hookimpl(trylast=True)
        def pytest_unconfigure(self, config):
            sys.settrace(None)
            threading.settrace(None)
            with open(COVERAGE, 'w') as f:
                json.dump({t: {p: sorted(ls) for p, ls in files.items()} for t, files in hits.items()}, f)
    threading.settrace(on_call)
    sys.settrace(on_call)
    return Attribute()
def hook(event, args):
    if event in REACHES:
        if from_tests():
            os.write(REPORT, (MARK + 'reaches:' + event + '\n').encode())
        return
    if event == 'open' and args and isinstance(args[0], (str, bytes, os.PathLike)):
        try:
            path = os.path.realpath(os.fsdecode(args[0]))
        except Exception:
            return
        if path in GUARDED and from_tests():
            deny(path)
    elif event in SPAWNS:
        named = [n for w in words(args) for n in NAMES if n in w]
        if named and from_tests():
            deny(named[0])
sys.addaudithook(hook)
import pytest
sys.exit(pytest.main(sys.argv[1:], plugins=[traced()]))
"""

# What reads code instead of running it: a function's code object, inspect's source readers,
# linecache, dis, a module's loader.
INTROSPECTION = {"__code__", "co_code", "co_consts", "co_names", "co_varnames", "co_lines", "co_positions", "getsource",
                 "getsourcelines", "getsourcefile", "findsource", "getlines", "getline", "linecache", "dis", "__loader__",
                 "get_data", "get_source", "get_code", "getfile"}


def read_regular(path):
    """A regular file's bytes, never through a link (root reads what the agent made)."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError("%s is not a regular file" % path)
        if st.st_size > MAX_FILE:
            raise OSError("%s is larger than %d bytes" % (path, MAX_FILE))
        chunks = []
        while True:
            b = os.read(fd, 1 << 20)
            if not b:
                return b"".join(chunks)
            chunks.append(b)
    finally:
        os.close(fd)


def is_test_file(rel):
    return any(fnmatch.fnmatch(os.path.basename(rel), pattern.split("/")[-1]) for pattern in SPEC["testFiles"])


def functions_of(source):
    """Test functions of a file by qualified name (`test_x`, `TestA.test_y`), with their code as parsed."""
    out = {}
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            out[node.name] = ast.dump(node)
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name.startswith("test"):
                    out[node.name + "." + item.name] = ast.dump(item)
    return out


# What reaches the line tracer's records in the tests' process (its function, its closure, every
# object, the frames): a test file that names one has its change coverage not believed.
REACHING = {"gettrace", "settrace", "setprofile", "getprofile", "__closure__", "cell_contents", "get_objects", "get_referrers",
            "get_referents", "_current_frames", "f_locals", "f_globals", "f_back", "ctypes"}


def names_in(tree):
    """Every name, attribute and imported module a parsed file mentions, with its line."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            yield node.lineno, node.attr
        elif isinstance(node, ast.Name):
            yield node.lineno, node.id
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                yield node.lineno, a.name.split(".")[0]
            if isinstance(node, ast.ImportFrom) and node.module:
                yield node.lineno, node.module.split(".")[0]


def reaching(rel, tree):
    return ["%s:%d %s" % (rel, line, name) for line, name in names_in(tree) if name in REACHING]


def introspection(rel, tree):
    """Where a test file reads code instead of running it."""
    return ["%s:%d %s" % (rel, line, name) for line, name in names_in(tree) if name in INTROSPECTION]


class Refused(Exception):
    def __init__(self, why, applicable=True):
        super().__init__(why)
        # SWT-Bench's applicability: the agent's tests could be put in the code (some test file was added or changed).
        self.applicable = applicable


def agent_tests():
    """The agent's test files (path -> bytes), the test functions it added or changed, and where they read code."""
    files, tests, reads, reaches = {}, {}, [], []
    for folder, dirs, names in os.walk(WORKSPACE):
        rel_dir = os.path.relpath(folder, WORKSPACE)
        dirs[:] = sorted(d for d in dirs if d not in (".git", "__pycache__") and not d.startswith(".swt"))
        for name in sorted(names):
            rel = os.path.normpath(os.path.join(rel_dir, name))
            if not name.endswith(".py") or not is_test_file(rel):
                continue
            path = os.path.join(WORKSPACE, rel)
            if not stat.S_ISREG(os.lstat(path).st_mode):
                continue
            data = read_regular(path)
            before_path = os.path.join(SPEC["initial"], rel)
            before = read_regular(before_path) if os.path.isfile(before_path) and not os.path.islink(before_path) else None
            if before == data:
                continue
            try:
                tree = ast.parse(data)
                now = functions_of(data)
            except SyntaxError as err:
                raise Refused("%s does not parse: %s" % (rel, err))
            try:
                old = functions_of(before) if before is not None else {}
            except SyntaxError:
                old = {}
            files[rel] = data
            reads += introspection(rel, tree)
            reaches += reaching(rel, tree)
            for qual, code in now.items():
                if old.get(qual) != code:
                    tests[(rel, qual)] = True
    if not files:
        raise Refused("no test file (" + ", ".join(SPEC["testFiles"]) + ") was added or changed", applicable=False)
    if not tests:
        raise Refused("the changed test files add or change no test function: " + ", ".join(sorted(files)))
    return files, sorted(tests), reads, reaches


def as_tests():
    return ["setpriv", "--reuid=" + UID, "--regid=" + UID, "--clear-groups", "--"] if UID else []


def end_tests():
    """Every process of the tests' user gone (kill -1 as that user needs no capability)."""
    if UID:
        for _ in range(20):
            subprocess.run(as_tests() + ["kill", "-s", "KILL", "--", "-1"], stderr=subprocess.DEVNULL)
            left = subprocess.run(["pgrep", "-u", UID], stdout=subprocess.PIPE)
            if left.returncode != 0:
                return


def sweep(home):
    """What the tests' user left where it could write, removed (as that user: root may not write its folders)."""
    if UID:
        subprocess.run(as_tests() + ["find", *[d for d in WRITABLE if os.path.isdir(d)], "-xdev", "-user", UID, "-delete"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    shutil.rmtree(home, ignore_errors=True)


# How a line comment is written, by file name ending; a file of another kind gets a blank line at its
# end (whitespace), and one that is not text (a NUL in it) is left as it is.
COMMENTS = (
    ((".py", ".pyi", ".pyx", ".pxd", ".pxi", ".sh", ".bash", ".cfg", ".toml", ".yaml", ".yml", ".ini", ".conf", ".pth",
      ".r", ".rb", ".pl", ".cmake", "Makefile", "CMakeLists.txt", ".mk", ".gitignore", ".dockerignore"), "# %s\n"),
    ((".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".js", ".mjs", ".cjs", ".ts", ".jsx", ".tsx", ".java", ".go", ".rs", ".kt", ".scala", ".swift", ".cs"), "// %s\n"),
    ((".css", ".scss", ".less"), "/* %s */\n"),
    ((".html", ".htm", ".xml", ".svg", ".md"), "<!-- %s -->\n"),
    ((".rst",), "\n.. %s\n"),
)


def real_paths(repo, rels):
    """Workspace files as the tests' process sees them, a JSON list (an environment variable holds no NUL to part them)."""
    return json.dumps([os.path.realpath(os.path.join(repo, rel)) for rel in rels])


def decoy(repo):
    """A change that keeps behaviour in each file of the gold patch that exists: a comment in its
    language appended, or a blank line where pwp does not know how it writes comments; a test that
    notices any change of those files passes here, whatever their language."""
    for rel in SPEC["goldFiles"]:
        path = os.path.join(repo, rel)
        if os.path.islink(path) or not os.path.isfile(path):
            continue
        with open(path, "rb") as f:
            head = f.read(MAX_FILE)
        if b"\0" in head:
            continue
        mark = "pwp: a change that keeps behaviour (%s)" % secrets.token_hex(4)
        comment = next((form % mark for endings, form in COMMENTS if os.path.basename(rel).endswith(endings)), "\n")
        with open(path, "a") as f:
            f.write(("" if head.endswith(b"\n") or not head else "\n") + comment)


def outcomes_of(report, files):
    """(file, qualified name) -> passed?, from pytest's JUnit report; parametrised cases all must pass."""
    out = {}
    try:
        root = xml.etree.ElementTree.fromstring(read_regular(report))
    except (OSError, xml.etree.ElementTree.ParseError):
        return out
    modules = {rel[:-3].replace("/", "."): rel for rel in files}
    for case in root.iter("testcase"):
        classname, name = case.get("classname", ""), case.get("name", "").split("[")[0]
        for module, rel in modules.items():
            if classname == module or classname.startswith(module + "."):
                qual = (classname[len(module) + 1:] + "." + name) if classname != module else name
                ok = not any(child.tag in ("failure", "error", "skipped") for child in case)
                out[(rel, qual)] = out.get((rel, qual), True) and ok
    return out


def traced_files():
    """The Python files whose lines SWT-Bench's change coverage counts: those the gold patch changes."""
    changed = SPEC.get("changed", {})
    names = set(changed.get("removed", {})) | set(changed.get("added", {}))
    return sorted(n for n in names if n.endswith(".py"))


def hits_of(path):
    """What the tracer in the tests' process recorded: test -> traced file -> lines run ({} when it wrote nothing)."""
    try:
        data = json.loads(read_regular(path))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {t: {f: {n for n in ls if isinstance(n, int)} for f, ls in files.items() if isinstance(ls, list)}
            for t, files in data.items() if isinstance(t, str) and isinstance(files, dict)}


def executable_lines(source):
    """The lines of a Python source that run as code (those a line tracer can report): every line of its code objects."""
    try:
        code = compile(source, "<gold>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return set()
    out, todo = set(), [code]
    while todo:
        c = todo.pop()
        out.update(line for _, _, line in c.co_lines() if line)
        todo.extend(k for k in c.co_consts if hasattr(k, "co_lines"))
    return out


def changed_executable():
    """SWT-Bench's executable changed lines: (file, line) removed from the original and added by the gold patch."""
    changed = SPEC.get("changed", {})
    out = {}
    for side, base in (("removed", SPEC["initial"]), ("added", os.path.join(HERE, "gold"))):
        lines = set()
        for rel, numbers in changed.get(side, {}).items():
            path = os.path.join(base, rel)
            if rel.endswith(".py") and os.path.isfile(path) and not os.path.islink(path):
                runnable = executable_lines(read_regular(path))
                lines.update((rel, n) for n in numbers if n in runnable)
        out[side] = lines
    return out


def change_coverage(tests, new_files, hits):
    """
    The share of the gold patch's executable changed lines that the agent's tests run: removed lines
    in the runs of the original code, added lines in those with the gold patch. A test's lines are
    those run in its set-up, call and tear-down; a test file the agent added also has the lines its
    import ran (a changed file's import ran before the change too).
    """
    lines = changed_executable()
    total = len(lines["removed"]) + len(lines["added"])
    if not total:
        return {"value": None, "absent": "the gold patch changes no executable Python line"}
    keys = {"%s::%s" % t for t in tests} | {f + "::<import>" for f in new_files}
    covered = {}
    for side, state in (("removed", "original"), ("added", "gold")):
        run_lines = {(f, n) for key in keys for f, ns in hits.get(state, {}).get(key, {}).items() for n in ns}
        covered[side] = sorted(lines[side] & run_lines)
    n = len(covered["removed"]) + len(covered["added"])
    return {"value": n / total, "covered": n, "executable": total,
            "lines": {side: {"run": ["%s:%d" % x for x in covered[side]], "not run": ["%s:%d" % x for x in sorted(lines[side] - set(covered[side]))]}
                      for side in lines}}


def make_home():
    """A fresh folder of the tests' user for HOME, TMPDIR and the report (readable by root)."""
    if not UID:
        home = os.path.join(ROOT, "home-" + secrets.token_hex(8))
        os.mkdir(home)
        return home
    home = "/tmp/swt-home-" + secrets.token_hex(8)
    subprocess.run(as_tests() + ["mkdir", "-m", "755", home], check=True)
    return home


def run(files, state):
    scratch = os.path.join(ROOT, "run-" + secrets.token_hex(8))
    os.mkdir(scratch, 0o755)
    home = None
    try:
        repo = os.path.join(scratch, "repo")
        shutil.copytree(SPEC["initial"], repo, symlinks=True)
        for rel, data in files.items():
            os.makedirs(os.path.dirname(os.path.join(repo, rel)), exist_ok=True)
            with open(os.path.join(repo, rel), "wb") as f:
                f.write(data)
        if state == "gold":
            for rel in SPEC["goldFiles"]:
                os.makedirs(os.path.dirname(os.path.join(repo, rel)), exist_ok=True)
                shutil.copyfile(os.path.join(HERE, "gold", rel), os.path.join(repo, rel))
            for rel in SPEC["goldDeletes"]:
                if os.path.exists(os.path.join(repo, rel)):
                    os.remove(os.path.join(repo, rel))
        elif state == "decoy":
            decoy(repo)
        for folder, dirs, names in os.walk(repo):
            os.chmod(folder, 0o755)
            for n in names:
                p = os.path.join(folder, n)
                if not os.path.islink(p):
                    os.chmod(p, 0o644 | (os.stat(p).st_mode & 0o111))
        home = make_home()
        report = os.path.join(home, "report.xml")
        mark = "@pwp-swt-read-%s@" % secrets.token_hex(8)
        env = {
            "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "TMPDIR": home, "USER": "nobody", "LOGNAME": "nobody", "LANG": "C.UTF-8",
            "PYTHONDONTWRITEBYTECODE": "1", "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", "PWP_SWT_MARK": mark,
            "GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "safe.directory", "GIT_CONFIG_VALUE_0": "*",
            "PWP_SWT_GUARDED": real_paths(repo, [rel for rel in SPEC["goldFiles"] if rel.endswith(".py")]),
            "PWP_SWT_TESTS": real_paths(repo, files),
            "PWP_SWT_TRACED": real_paths(repo, traced_files()),
            "PWP_SWT_COVERAGE": os.path.join(home, "coverage.json"),
        }
        try:
            r = subprocess.run(as_tests() + ["/usr/bin/python3", "-c", AUDIT_LAUNCH, "-q", "-p", "no:cacheprovider", "--junitxml=" + report, *files],
                               cwd=repo, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, errors="replace", timeout=SPEC["timeoutSec"])
            output = r.stdout + r.stderr
        except subprocess.TimeoutExpired as err:
            partial = err.stdout.decode("utf-8", "replace") if isinstance(err.stdout, bytes) else err.stdout or ""
            output = "timed out after %s s\n%s" % (SPEC["timeoutSec"], partial[-3000:])
        end_tests()
        marked = {line[len(mark):].replace(os.path.realpath(repo) + "/", "") for line in output.splitlines() if line.startswith(mark)}
        reads = sorted(m for m in marked if not m.startswith("reaches:"))
        reaches = sorted(m[len("reaches:"):] for m in marked if m.startswith("reaches:"))
        return outcomes_of(report, files), reads, output[-3000:], hits_of(os.path.join(home, "coverage.json")), reaches
    finally:
        end_tests()
        if home:
            sweep(home)
        shutil.rmtree(scratch, ignore_errors=True)


def unreachable(host):
    """Why this verifier cannot reach the host the tests download data from ("name" or "name:port"), or None."""
    name, _, port = host.rpartition(":") if ":" in host else (host, "", "443")
    try:
        socket.create_connection((name, int(port)), timeout=15).close()
        return None
    except OSError as err:
        return "the tests download data from %s, which this verifier could not reach (%s): tests that need it fail without the outside network" % (host, err)


def main():
    os.chdir("/")
    os.makedirs(ROOT, exist_ok=True)
    os.chmod(ROOT, 0o711)
    # Nothing an earlier grading left may stand for this one's.
    for name in ("results.json", "components.json"):
        if os.path.lexists(os.path.join(ROOT, name)):
            os.remove(os.path.join(ROOT, name))
    end_tests()
    results = {"tests": [], "verdict": {}, "reads": [], "output": {}}
    if SPEC.get("fetchHost"):
        results["unreachable"] = unreachable(SPEC["fetchHost"])
    try:
        files, tests, reads, reaches = agent_tests()
    except (Refused, OSError) as err:
        results["error"] = str(err)
        applicable = getattr(err, "applicable", False)
        coverage = change_coverage([], [], {})
        if coverage["value"] is not None:
            coverage.update(value=0.0, covered=0)
    else:
        applicable = True
        order = list(STATES) * SPEC["repeats"]
        random.SystemRandom().shuffle(order)
        passed = {s: {t: [] for t in tests} for s in STATES}
        hits = {s: {} for s in STATES}
        seen, reached = set(reads), set(reaches)
        for state in order:
            got, read, out, ran, reach = run(files, state)
            seen.update(read)
            reached.update(reach)
            results["output"][state] = out
            for t in tests:
                passed[state][t].append(got.get(t, False))
            for key, by_file in ran.items():
                for f, ns in by_file.items():
                    hits[state].setdefault(key, {}).setdefault(f, set()).update(ns)
        # A test's outcome in a state: passed every time, failed every time, or neither (flaky: null).
        results["tests"] = [list(t) for t in tests]
        results["verdict"] = {s: {"%s::%s" % t: (True if all(v) else False if not any(v) else None) for t, v in passed[s].items()} for s in STATES}
        results["reads"] = sorted(seen)
        new_files = [rel for rel in files if not os.path.lexists(os.path.join(SPEC["initial"], rel))]
        coverage = change_coverage(tests, new_files, hits)
        if reached and coverage["value"] is not None:
            coverage = {"value": None, "absent": "not believed: the tests reach for the tracer or the process's objects (%s)" % ", ".join(sorted(reached)[:5])}
    results["coverage"] = coverage
    write(os.path.join(ROOT, "results.json"), results)
    # SWT-Bench's metrics, which the grade reports beside its reward (the task's `prepare.components`).
    write(os.path.join(ROOT, "components.json"), {"metric": "SWT-Bench", "components": [
        {"name": "applicability", "value": 1.0 if applicable else 0.0},
        {"name": "fail-to-pass", "value": 1.0 if resolved(results) else 0.0},
        {"name": "change coverage", "value": coverage["value"], **({"absent": coverage["absent"]} if "absent" in coverage else {})},
    ]})


def resolved(results):
    """SWT-Bench's success as test_swt.py grades it: one test fails on the original, passes with the gold patch and fails on
    the decoy; all pass with the gold patch; none reads the code it tests."""
    if results.get("error") or results["reads"] or not results["tests"]:
        return False
    v = results["verdict"]
    keys = ["%s::%s" % tuple(t) for t in results["tests"]]
    return all(v["gold"][k] is True for k in keys) and any(v["original"][k] is False and v["decoy"][k] is False for k in keys)


def write(path, data):
    with open(path + ".new", "w") as f:
        json.dump(data, f)
    os.chmod(path + ".new", 0o644)
    os.replace(path + ".new", path)


SPEC = json.loads(read_regular(SPEC_FILE))

if __name__ == "__main__":
    main()
