# SWE-bench's grading of a repository with its own test runner: run its command once, read each
# test's status from the log, and check FAIL_TO_PASS and PASS_TO_PASS one case per test. A Python
# repository in its own environment ("junit") is read from pytest's JUnit report instead, checked
# against the console's -rA lines and a canary of this file's own, after its package is found to
# be imported from the workspace.
# Copied by host/converters/sweBench.ts (sweBenchLogGrader.ts) to a task's
# hidden/workspace/.swebench/test_swebench.py, with spec.json beside it (the command, the log
# format, the tests); the verifier runs it as `python3 -m pytest -q .swebench/test_swebench.py`
# from /workspace, and each FAIL_TO_PASS and PASS_TO_PASS test is a case test_result[<test>].
# The image's standard library, never a workspace module of the same name (the workspace is
# on sys.path while this file runs).
import sys

_path = list(sys.path)
sys.path[:] = [p for p in sys.path if p and not p.startswith("/workspace")]
import functools  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import pathlib  # noqa: E402
import re  # noqa: E402
import secrets  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import xml.etree.ElementTree  # noqa: E402
import ctypes  # noqa: E402
import importlib.util  # noqa: E402
import signal  # noqa: E402
import string  # noqa: E402
import threading  # noqa: E402
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


def parse_django(log):
    # "test_name (module.Class) ... ok", or the docstring's first line before " ... " (the id
    # SWE-bench keeps for tests that have one); "... skipped 'why'", FAIL, ERROR.
    out = {}
    for line in log.splitlines():
        m = re.match(r"^(.*?) \.\.\. (ok|OK|FAIL|ERROR|skipped.*|expected failure|unexpected success)\s*$", line)
        if m:
            word = m.group(2)
            out[m.group(1).strip()] = "passed" if word in ("ok", "OK", "expected failure") else "skipped" if word.startswith("skipped") else "failed"
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


def run_junit(env):
    # The repository's package must be the workspace's, not one the image has.
    module = SPEC.get("module")
    if module:
        probe = "import importlib, sys; print(importlib.import_module(sys.argv[1]).__file__)"
        r = subprocess.run([sys.executable, "-c", probe, module], cwd=WORKSPACE, env=env, capture_output=True, text=True, timeout=300)
        lines = r.stdout.strip().splitlines()
        where = os.path.realpath(lines[-1]) if r.returncode == 0 and lines else ""
        if not where.startswith(str(WORKSPACE) + os.sep):
            why = "imported from " + where if where else "not importable: " + (r.stderr.strip().splitlines() or ["?"])[-1]
            return {}, "", "the repository's package %s is not the workspace's (%s): the tests would not run its code" % (module, why)
    # The canary: names drawn now, one test that must pass and one that must fail, in a file
    # beside the first test file, so the repository's conftests and hooks apply to it as to them.
    scratch = tempfile.mkdtemp(prefix="pwp-")
    good, bad = "test_" + secrets.token_hex(8), "test_" + secrets.token_hex(8)
    first = next((a for a in SPEC["command"] if a.endswith(".py") and (WORKSPACE / a).is_file()), None)
    canary = str((WORKSPACE / first).parent if first else WORKSPACE) + "/test_" + secrets.token_hex(6) + ".py"
    with open(canary, "w") as f:
        f.write("def %s():\n    pass\n\n\ndef %s():\n    assert False, 'expected failure'\n" % (good, bad))
    report = os.path.join(scratch, "report.xml")
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
        return {}, log[-3000:], "tampering suspected: the grader's canary is not in pytest's report as it must be (%s)" % seen
    shown = {k.rsplit("::", 1)[-1]: v for k, v in console.items() if k.rsplit("::", 1)[-1] in (good, bad)}
    if shown.get(good) != "passed" or shown.get(bad) != "failed":
        return {}, log[-3000:], "tampering suspected: the grader's canary is not in pytest's console (-rA) as it must be (%s)" % shown
    # The console's account of every test it names must be the report's.
    report_ids = collect((nodeid.split()[0] if nodeid.split() else nodeid, status) for nodeid, name, status in cases)
    differ = [k for k, v in console.items() if k in report_ids and report_ids[k] != v and "skipped" not in (v, report_ids[k])]
    if differ:
        return {}, log[-3000:], "tampering suspected: pytest's report and console disagree on %s" % ", ".join(differ[:3])
    return collect((nodeid, status) for nodeid, name, status in cases if name not in (good, bad)), log[-3000:], None


PARSERS = {"django": parse_django, "sympy": parse_sympy, "tap": parse_tap}


@functools.lru_cache(maxsize=None)
def results():
    env = {k: v for k, v in os.environ.items() if k != "PYTHONSAFEPATH"}
    env.update(SPEC["env"])
    if SPEC["log"] == "junit":
        return run_junit(env)
    if SPEC["log"] in runner_canary.CANARY_LOGS:
        return runner_canary.run_with_canary(SPEC, WORKSPACE, env)
    if SPEC["runner"] is not None:
        runner = WORKSPACE / SPEC["runner"]
        before = pathlib.Path(SPEC["initial"]) / SPEC["runner"]
        assert before.is_file(), "the initial workspace has no " + SPEC["runner"]
        assert runner.is_file() and runner.read_bytes() == before.read_bytes(), SPEC["runner"] + " was changed: it is the test runner"
    argv = [sys.executable if a == "python3" else a for a in SPEC["command"]]
    r = subprocess.run(argv, cwd=WORKSPACE, env=env, capture_output=True, text=True, timeout=SPEC["timeoutSec"])
    log = r.stdout + "\n" + r.stderr
    return PARSERS[SPEC["log"]](log), log[-3000:], None


def resolve(test, found):
    # SWE-bench's _resolve_case: the id itself, or for an id cut inside its parameter (more "["
    # than "]") the tests it begins, which must all agree; none found is a failure.
    if test in found:
        return found[test]
    if test.count("[") > test.count("]"):
        matches = {v for k, v in found.items() if k.startswith(test)}
        if matches:
            return matches.pop() if len(matches) == 1 else "failed"
    return None


@pytest.mark.parametrize("test", SPEC["tests"], ids=SPEC["ids"])
def test_result(test):
    found, tail, problem = results()
    assert problem is None, "%s\n%s" % (problem, tail[-1500:])
    status = resolve(test, found)
    assert status is not None, "%s: not in the runner's log:\n%s" % (test, tail)
    kept = status == "skipped" and SPEC.get("passToPassFrom") is not None and SPEC["tests"].index(test) >= SPEC["passToPassFrom"]
    assert status == "passed" or kept, "%s: %s" % (test, status)
