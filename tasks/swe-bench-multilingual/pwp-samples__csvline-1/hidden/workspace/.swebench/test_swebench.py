# SWE-bench's grading of a repository with its own test runner: run its command once, read each
# test's status from the log, and check FAIL_TO_PASS and PASS_TO_PASS one case per test.
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
import shutil  # noqa: E402
import subprocess  # noqa: E402
import xml.etree.ElementTree  # noqa: E402
sys.path[:] = _path

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


def status_of(statuses):
    # A test reported more than once (a name in two files) passes only if it passed every time.
    return "passed" if all(s == "passed" for s in statuses) else "skipped" if all(s == "skipped" for s in statuses) else "failed"


def collect(pairs):
    seen = {}
    for name, status in pairs:
        seen.setdefault(name, []).append(status)
    return {k: status_of(v) for k, v in seen.items()}


def parse_go(log):
    # go test -v: "--- PASS: TestName (0.00s)", subtests indented as "--- FAIL: TestName/sub".
    return collect(
        (m.group(2), {"PASS": "passed", "SKIP": "skipped"}.get(m.group(1), "failed"))
        for m in re.finditer(r"^\s*--- (PASS|FAIL|SKIP): (\S+)", log, re.M)
    )


def parse_cargo(log):
    # cargo test: "test path::to::name ... ok", "... FAILED", "... ignored" (a doc test's name has spaces).
    return collect(
        (m.group(1), {"ok": "passed", "ignored": "skipped"}.get(m.group(2), "failed"))
        for m in re.finditer(r"^test (.+?) \.\.\. (ok|FAILED|ignored)\b", log, re.M)
    )


def parse_tap(log):
    # node --test --test-reporter=tap: "ok 1 - name", "not ok 2 - name # SKIP", subtests indented;
    # TAP escapes # and \ in names.
    out = []
    for m in re.finditer(r"^\s*(ok|not ok) \d+ - (.*)$", log, re.M):
        name, directive = re.match(r"^(.*?)(?:\s+# (SKIP|TODO)\b.*)?$", m.group(2)).groups()
        name = name.replace("\\#", "#").replace("\\\\", "\\")
        out.append((name, "skipped" if directive else "passed" if m.group(1) == "ok" else "failed"))
    return collect(out)


def parse_ctest(log):
    # ctest: "1/3 Test #1: name .......   Passed    0.01 sec", "***Failed", "***Not Run (Disabled)", "***Skipped".
    return collect(
        (m.group(1), "passed" if m.group(2) == "Passed" else "skipped" if re.search(r"Skipped|Disabled", m.group(2)) else "failed")
        for m in re.finditer(r"^\s*\d+/\d+ Test\s+#\d+: (\S+) \.*\s*(Passed\b|\*\*\*.*)", log, re.M)
    )


def surefire_reports():
    return [p for p in WORKSPACE.rglob("TEST-*.xml") if p.parent.name == "surefire-reports"]


def parse_surefire(log):
    # Maven surefire's XML reports: one testcase per test, named "classname#name" here.
    out = []
    for report in surefire_reports():
        for case in xml.etree.ElementTree.parse(report).iter("testcase"):
            name = case.get("classname", "") + "#" + case.get("name", "").split("(")[0]
            bad = any(case.find(t) is not None for t in ("failure", "error"))
            out.append((name, "failed" if bad else "skipped" if case.find("skipped") is not None else "passed"))
    return collect(out)

PARSERS = {"django": parse_django, "sympy": parse_sympy, "go": parse_go, "cargo": parse_cargo, "tap": parse_tap, "ctest": parse_ctest, "surefire": parse_surefire}


@functools.lru_cache(maxsize=None)
def results():
    if SPEC["runner"] is not None:
        runner = WORKSPACE / SPEC["runner"]
        before = pathlib.Path(SPEC["initial"]) / SPEC["runner"]
        assert before.is_file(), "the initial workspace has no " + SPEC["runner"]
        assert runner.is_file() and runner.read_bytes() == before.read_bytes(), SPEC["runner"] + " was changed: it is the test runner"
    # Reports left in the workspace are not this run's.
    for report in surefire_reports() if SPEC["log"] == "surefire" else []:
        shutil.rmtree(report.parent, ignore_errors=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONSAFEPATH"}
    env.update(SPEC["env"])
    argv = [sys.executable if a == "python3" else a for a in SPEC["command"]]
    r = subprocess.run(argv, cwd=WORKSPACE, env=env, capture_output=True, text=True, timeout=SPEC["timeoutSec"])
    log = r.stdout + "\n" + r.stderr
    return PARSERS[SPEC["log"]](log), log[-3000:]


@pytest.mark.parametrize("test", SPEC["tests"], ids=SPEC["ids"])
def test_result(test):
    found, tail = results()
    assert test in found, "%s: not in the runner's log:\n%s" % (test, tail)
    assert found[test] == "passed", "%s: %s" % (test, found[test])
