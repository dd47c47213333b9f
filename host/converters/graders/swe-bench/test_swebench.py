# SWE-bench's grading of a repository with its own test runner: run its command once, read each
# test's status from the log, and check FAIL_TO_PASS and PASS_TO_PASS one case per test. A Python
# repository in its own environment ("junit") is read from pytest's JUnit report instead, checked
# against the console's -rA lines and a canary of this file's own, after its package is found to
# be imported from the workspace. Django's and SymPy's runners ("recorder") are read from the
# result recorder in their process (pwp_recorder.py), checked against their console and a canary
# beside the repository's tests the same way.
# Copied by host/converters/sweBench.ts (sweBenchLogGrader.ts) to a task's
# hidden/workspace/.swebench/test_swebench.py, with spec.json beside it (the command, the log
# format, the tests); the verifier runs it as `python3 -m pytest -q .swebench/test_swebench.py`
# from /workspace, and each FAIL_TO_PASS and PASS_TO_PASS test is a case test_result[<test>].
# The image's standard library, never a workspace module of the same name (the workspace is
# on sys.path while this file runs).
import sys

_path = list(sys.path)
sys.path[:] = [p for p in sys.path if p and not p.startswith("/workspace")]
import ctypes  # noqa: E402
import functools  # noqa: E402
import importlib.util  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import pathlib  # noqa: E402
import re  # noqa: E402
import secrets  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import string  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import xml.etree.ElementTree  # noqa: E402
sys.path[:] = _path

# ctest, cargo test, surefire and go test run with a canary of their own (runner_canary.py beside
# this file, loaded by its path; what it imports was imported above).
_canary_spec = importlib.util.spec_from_file_location("runner_canary", os.path.join(os.path.dirname(os.path.abspath(__file__)), "runner_canary.py"))
runner_canary = importlib.util.module_from_spec(_canary_spec)
_canary_spec.loader.exec_module(runner_canary)

import pytest  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent
WORKSPACE = HERE.parent
SPEC = json.loads((HERE / "spec.json").read_text())


def django_id(key):
    # Python 3.11 names a unittest test "name (module.Class.name)", earlier ones (and SWE-bench's
    # ids of the versions it ran on them) "name (module.Class)": one form for both.
    return re.sub(r"^(\w+) \(([\w.]+)\.\1\)$", r"\1 (\2)", key)


def parse_django(log):
    # "test_name (module.Class) ... ok", or the docstring's first line before " ... " (the id
    # SWE-bench keeps for tests that have one); "... skipped 'why'", FAIL, ERROR.
    out = {}
    for line in log.splitlines():
        m = re.match(r"^(.*?) \.\.\. (ok|OK|FAIL|ERROR|skipped.*|expected failure|unexpected success)\s*$", line)
        if m:
            word = m.group(2)
            out[django_id(m.group(1).strip())] = "passed" if word in ("ok", "OK", "expected failure") else "skipped" if word.startswith("skipped") else "failed"
    return out


def parse_sympy(log):
    # bin/test --verbose: "test_name ok", "test_name F" (failed), "E" (error), "f" (expected to
    # fail), "s" (skipped), "w" (slow, not run).
    out = {}
    for line in log.splitlines():
        m = re.match(r"^\s*(test_\w+)\s+(ok|F|E|f|s|w|X)\s*$", line)
        if m:
            word = m.group(2)
            out[m.group(1)] = "passed" if word == "ok" else "skipped" if word in ("s", "w") else "failed"
    return out


# A test reported more than once (a name in two files) passes only if it passed every time.
collect = runner_canary.collect


def parse_tap(log):
    # node --test --test-reporter=tap: "ok 1 - name", "not ok 2 - name # SKIP", subtests indented;
    # TAP escapes # and \ in names.
    out = []
    for m in re.finditer(r"^\s*(ok|not ok) \d+ - (.*)$", log, re.M):
        name, directive = re.match(r"^(.*?)(?:\s+# (SKIP|TODO)\b.*)?$", m.group(2)).groups()
        name = name.replace("\\#", "#").replace("\\\\", "\\")
        out.append((name, "skipped" if directive else "passed" if m.group(1) == "ok" else "failed"))
    return collect(out)


PYTEST_STATUSES = ("PASSED", "FAILED", "SKIPPED", "ERROR", "XFAIL", "XPASS")


def parse_rA(log):
    # SWE-bench's parse_log_pytest: "STATUS id" lines (-rA), the id cut at its first space.
    out = {}
    for line in log.splitlines():
        if line.startswith(PYTEST_STATUSES):
            words = line.replace(" - ", " ").split() if line.startswith("FAILED") else line.split()
            if len(words) > 1:
                out[words[1]] = "passed" if words[0] in ("PASSED", "XFAIL") else "skipped" if words[0] == "SKIPPED" else "failed"
    return out


def junit_cases(report):
    # (pytest's node id, name, status) per testcase of an xunit1 report: the file attribute, the
    # classname's part after the module, the name.
    out = []
    for case in xml.etree.ElementTree.parse(report).iter("testcase"):
        name, classname, path = case.get("name", ""), case.get("classname", ""), case.get("file", "")
        module = path[:-3].replace("/", ".") if path.endswith(".py") else ""
        cls = classname[len(module) + 1:] if module and classname.startswith(module + ".") else ""
        nodeid = "::".join([p for p in [path or classname] + cls.split(".") if p] + [name]) if cls or path else name
        skipped = case.find("skipped")
        if case.find("failure") is not None or case.find("error") is not None:
            status = "failed"
        elif skipped is not None:
            # An expected failure is a pass to SWE-bench (XFAIL), a skip is not.
            status = "passed" if "xfail" in (skipped.get("type", "") + skipped.get("message", "")).lower() else "skipped"
        else:
            status = "passed"
        out.append((nodeid, name, status))
    return out


def foreign_package(env):
    # The repository's package must be the workspace's, not one the image has.
    module = SPEC.get("module")
    if not module:
        return None
    probe = "import importlib, sys; print(importlib.import_module(sys.argv[1]).__file__)"
    probe_env = {k: v for k, v in env.items() if k != "PWP_SEAL_BROKER"}
    r = subprocess.run([sys.executable, "-c", probe, module], cwd=WORKSPACE, env=probe_env, capture_output=True, text=True, timeout=300)
    lines = r.stdout.strip().splitlines()
    where = os.path.realpath(lines[-1]) if r.returncode == 0 and lines else ""
    if where.startswith(str(WORKSPACE) + os.sep):
        return None
    if not where:
        error = (r.stderr.strip().splitlines() or ["?"])[-1]
        return "the repository's package %s cannot be imported with this Python (%s): %s" % (module, sys.version.split()[0], error)
    return "the repository's package %s is not the workspace's (imported from %s): the tests would not run its code" % (module, where)


def run_junit(env):
    # The canary: names drawn now, one test that must pass and one that must fail, in a file
    # beside the first test file, so the repository's conftests and hooks apply to it as to them.
    scratch = tempfile.mkdtemp(prefix="pwp-")
    good, bad = "test_" + secrets.token_hex(8), "test_" + secrets.token_hex(8)
    first = next((a for a in SPEC["command"] if a.endswith(".py") and (WORKSPACE / a).is_file()), None)
    canary = str((WORKSPACE / first).parent if first else WORKSPACE) + "/test_" + secrets.token_hex(6) + ".py"
    with open(canary, "w") as f:
        f.write("def %s():\n    pass\n\n\ndef %s():\n    assert False, 'expected failure'\n" % (good, bad))
    report = os.path.join(scratch, "report.xml")
    if env.get("PWP_SEAL_BROKER"):
        # The repository's tests are sealed (the task's innerPytest): the verifier's pytest launch,
        # first on PATH, gets their text from its broker. It runs isolated (-I, no PYTHONPATH) and
        # puts PWP_IMPORT_ROOTS on its path instead.
        argv = list(SPEC["command"])
        env = dict(env, PWP_IMPORT_ROOTS=env.get("PYTHONPATH", ""))
    else:
        argv = [sys.executable if a == "python3" else a for a in SPEC["command"]]
    # The workspace is the root the ids are relative to, wherever the canary's file is.
    argv += ["--rootdir=" + str(WORKSPACE), "--junitxml=" + report, "-o", "junit_family=xunit1", "-p", "no:cacheprovider", canary]
    r = subprocess.run(argv, cwd=WORKSPACE, env=env, capture_output=True, text=True, timeout=SPEC["timeoutSec"])
    log = r.stdout + "\n" + r.stderr
    try:
        cases = junit_cases(report)
    except (OSError, xml.etree.ElementTree.ParseError) as err:
        return {}, log[-3000:], "pytest wrote no readable JUnit report (%s)" % err
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        os.unlink(canary)
    console = parse_rA(log)
    seen = {name: status for _, name, status in cases if name in (good, bad)}
    if seen.get(good) != "passed" or seen.get(bad) != "failed":
        return {}, log[-3000:], runner_canary.tampering("pytest report", "the grader's canary is not in pytest's report as it must be (%s)" % seen)
    shown = {k.rsplit("::", 1)[-1]: v for k, v in console.items() if k.rsplit("::", 1)[-1] in (good, bad)}
    if shown.get(good) != "passed" or shown.get(bad) != "failed":
        return {}, log[-3000:], runner_canary.tampering("pytest report", "the grader's canary is not in pytest's console (-rA) as it must be (%s)" % shown)
    # The console's account of every test it names must be the report's.
    report_ids = collect((nodeid.split()[0] if nodeid.split() else nodeid, status) for nodeid, name, status in cases)
    differ = [k for k, v in console.items() if k in report_ids and report_ids[k] != v and "skipped" not in (v, report_ids[k])]
    if differ:
        return {}, log[-3000:], runner_canary.tampering("pytest report", "pytest's report and console disagree on %s" % ", ".join(differ[:3]))
    return collect((nodeid, status) for nodeid, name, status in cases if name not in (good, bad)), log[-3000:], None


def canary_for(kind, good, bad):
    # The canary's files and the argument that runs them, beside the repository's tests: Django's
    # a test app under tests/ on the repository's own SimpleTestCase (named by its label), SymPy's
    # a test file beside the first test file (named by its path).
    if kind == "unittest":
        app = "t" + secrets.token_hex(6)
        cls = "T" + secrets.token_hex(6)
        body = ("from django.test import SimpleTestCase\n\n\nclass %s(SimpleTestCase):\n    def %s(self):\n        pass\n\n"
                "    def %s(self):\n        self.fail('expected failure')\n" % (cls, good, bad))
        return {"tests/%s/__init__.py" % app: "", "tests/%s/tests.py" % app: body}, app, "tests/" + app
    first = next((a for a in SPEC["command"] if a.endswith(".py") and (WORKSPACE / a).is_file()), None)
    rel = os.path.join(os.path.dirname(first) if first else ".", "test_" + secrets.token_hex(6) + ".py")
    return {rel: "def %s():\n    pass\n\n\ndef %s():\n    assert False, 'expected failure'\n" % (good, bad)}, rel, rel


def recorded_statuses(kind, records):
    # The recorder's account, keyed as the console (and SWE-bench's ids) name the tests.
    pairs = []
    for r in records:
        if "status" not in r:
            continue
        status = "failed" if r["status"] == "xfail" and kind == "sympy" else r["status"]
        if kind == "sympy":
            pairs.append((r["name"], status))
            continue
        pairs.append(("%s (%s)" % (r["name"], r["cls"]), status))
        if r.get("doc"):
            pairs.append((r["doc"], status))
    return collect(pairs)


def read_records(fd, records):
    # One JSON object a line; anything else ends the record (its last line is then missing).
    with os.fdopen(fd) as f:
        for line in f:
            try:
                records.append(json.loads(line))
            except ValueError:
                records.append({"garbled": True})
                return


def run_recorded(env):
    kind = SPEC["recorder"]
    # This process too is beyond the reach of the tests' other processes (/proc, ptrace).
    recorder = importlib.util.spec_from_file_location("pwp_recorder", HERE / "pwp_recorder.py")
    module = importlib.util.module_from_spec(recorder)
    recorder.loader.exec_module(module)
    module.undumpable()
    good, bad = "test_" + secrets.token_hex(6), "test_" + secrets.token_hex(6)
    files, arg, cleanup = canary_for(kind, good, bad)
    for rel, text in files.items():
        (WORKSPACE / rel).parent.mkdir(parents=True, exist_ok=True)
        (WORKSPACE / rel).write_text(text)
    script, args = SPEC["command"][1], SPEC["command"][2:]
    if env.get("PWP_SEAL_BROKER") and "pwp_sealed" in sys.modules:
        # The repository's tests are sealed (the task's innerRecorder): the recorder takes their
        # text from the verifier's broker, through the verifier's own module this process loaded.
        env = dict(env, PWP_SEALED_LIB=sys.modules["pwp_sealed"].__file__)
    read, write = os.pipe()
    records = []
    try:
        proc = subprocess.Popen([sys.executable, str(HERE / "pwp_recorder.py"), str(write), kind, script] + args + [arg],
                                cwd=WORKSPACE, env=env, pass_fds=(write,), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        os.close(write)
        reader = threading.Thread(target=read_records, args=(read, records), daemon=True)
        reader.start()
        try:
            out, err = proc.communicate(timeout=SPEC["timeoutSec"])
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
        reader.join(60)
    finally:
        target = WORKSPACE / cleanup
        if target.is_dir():
            shutil.rmtree(target, ignore_errors=True)
        else:
            target.unlink(missing_ok=True)
    log = out + "\n" + err
    end = [r for r in records if r.get("end")]
    if any(r.get("garbled") for r in records):
        return {}, log[-3000:], runner_canary.tampering("result recorder", "the result recorder's channel carried a line it did not write")
    if not end:
        return {}, log[-3000:], runner_canary.tampering("result recorder", "the runner's process ended before the result recorder's last record (exit code %s)" % proc.returncode)
    if not end[-1]["intact"]:
        return {}, log[-3000:], runner_canary.tampering("result recorder", "the result recorder's hooks were replaced while the tests ran")
    recorded = recorded_statuses(kind, records)
    console = PARSERS[SPEC["log"]](log)
    shown = [resolve_name(good, recorded, kind), resolve_name(bad, recorded, kind)]
    if shown != ["passed", "failed"]:
        return {}, log[-3000:], runner_canary.tampering("result recorder", "the grader's canary is not in the result recorder's record as it must be (%s)" % shown)
    shown = [resolve_name(good, console, kind), resolve_name(bad, console, kind)]
    if shown != ["passed", "failed"]:
        return {}, log[-3000:], runner_canary.tampering("result recorder", "the grader's canary is not in the runner's console as it must be (%s)" % shown)
    # The console may say less than the record (a test's own output breaking a line), never more.
    for test in SPEC["tests"]:
        r, c = resolve(test, recorded), resolve(test, console)
        if c == "passed" and r != "passed":
            return {}, log[-3000:], runner_canary.tampering("result recorder", "the console shows %s passing, the result recorder %s" % (test, r or "never saw it"))
        if r == "passed" and c not in (None, "passed"):
            return {}, log[-3000:], runner_canary.tampering("result recorder", "the result recorder has %s passing, the console %s" % (test, c))
    return recorded, log[-3000:], None


def resolve_name(name, found, kind):
    # A canary test's status, by its function name (SymPy) or "name (module.Class)" (unittest).
    if kind == "sympy":
        return found.get(name)
    return next((v for k, v in found.items() if k.startswith(name + " (")), None)


PARSERS = {"django": parse_django, "sympy": parse_sympy, "tap": parse_tap}


@functools.lru_cache(maxsize=None)
def results():
    # Whatever the runner: this process's memory and descriptors out of the tests' reach.
    runner_canary.harden()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONSAFEPATH"}
    env.update(SPEC["env"])
    problem = foreign_package(env)
    if problem:
        return {}, "", problem
    if SPEC["log"] == "junit":
        return run_junit(env)
    if SPEC["log"] in runner_canary.CANARY_LOGS:
        return runner_canary.run_with_canary(SPEC, WORKSPACE, env)
    if SPEC["runner"] is not None:
        runner = WORKSPACE / SPEC["runner"]
        before = pathlib.Path(SPEC["initial"]) / SPEC["runner"]
        assert before.is_file(), "the initial workspace has no " + SPEC["runner"]
        assert runner.is_file() and runner.read_bytes() == before.read_bytes(), SPEC["runner"] + " was changed: it is the test runner"
    if SPEC.get("recorder"):
        return run_recorded(env)
    argv = [sys.executable if a == "python3" else a for a in SPEC["command"]]
    r = subprocess.run(argv, cwd=WORKSPACE, env=env, capture_output=True, text=True, timeout=SPEC["timeoutSec"])
    log = r.stdout + "\n" + r.stderr
    return PARSERS[SPEC["log"]](log), log[-3000:], None


def quoted(tail):
    # The runner's output inside a failure message, each line marked as quoted: its summary
    # lines ("3 failed, 2 passed in 0.1s") must not read as the summary of the verifier's run.
    return "\n".join("  | " + line for line in tail.splitlines())


@functools.lru_cache(maxsize=None)
def unreachable():
    # Where the tests download data (the task's verifierNetwork), whether this verifier can
    # reach it: a machine without the outside network fails those tests, and the grade says why.
    host = SPEC.get("fetchHost")
    if not host:
        return None
    name, _, port = host.rpartition(":") if ":" in host else (host, "", "443")
    try:
        socket.create_connection((name, int(port)), timeout=15).close()
        return None
    except OSError as err:
        return "the tests download data from %s, which this verifier could not reach (%s): tests that need it fail without the outside network" % (host, err)


def why(message):
    # The unreachable host first: the first line of a failure is what a summary shows. Not before
    # tampering evidence: that line must begin the failure for the verifier's grade to quote it.
    if message.startswith(runner_canary.TAMPERING_START):
        return message
    down = unreachable()
    return (down + "; " if down else "") + message


def resolve(test, found):
    # SWE-bench's _resolve_case: the id itself, or for an id cut inside its parameter (more "["
    # than "]") the tests it begins, which must all agree; none found is a failure.
    if SPEC["log"] == "django":
        test = django_id(test)
    if test in found:
        return found[test]
    if test.count("[") > test.count("]"):
        matches = {v for k, v in found.items() if k.startswith(test)}
        if matches:
            return matches.pop() if len(matches) == 1 else "failed"
    return None


# Without a list of tests (`tests` null: IDE-Bench's rows graded by a detected runner), the cases
# are the tests the run reports, drawn when this file is collected, and RUN alone when it
# reports none (its failure says why).
RUN = "(the run)"


def case_id(test):
    # sweBenchLogGrader.ts caseParam.
    return re.sub(r"[^A-Za-z0-9_.,:()<>=' -]", "_", test)


def pytest_generate_tests(metafunc):
    if SPEC["tests"] is not None or "test" not in metafunc.fixturenames:
        return
    found, _tail, problem = results()
    tests = sorted(found) if problem is None and found else [RUN]
    metafunc.parametrize("test", tests, ids=[case_id(t) for t in tests])


def listed(f):
    return pytest.mark.parametrize("test", SPEC["tests"], ids=SPEC["ids"])(f) if SPEC["tests"] is not None else f


@listed
def test_result(test):
    found, tail, problem = results()
    assert problem is None, why("%s\n%s" % (problem, quoted(tail[-1500:])))
    status = resolve(test, found)
    assert status is not None, why("%s: not in the runner's log:\n%s" % ("no test" if test == RUN else test, quoted(tail[-1000:])))
    kept = status == "skipped" and SPEC.get("passToPassFrom") is not None and SPEC["tests"].index(test) >= SPEC["passToPassFrom"]
    assert status == "passed" or kept, why("%s: %s" % (test, status))
