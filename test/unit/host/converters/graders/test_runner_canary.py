# swe-bench/runner_canary.py: the checks of the inner runners' canary on the output an honest run
# gives and on what a deliverable that impersonates the runner leaves (the same runs for real:
# test/unit/host/converters/sweBenchMultilingual.test.ts; through pwp's verifier:
# test/integration/toolchainTampering.test.ts).
import importlib.util
import json
import os
import pathlib
import re
import shutil

import pytest
import subprocess
import sys

from conftest import GRADERS


@pytest.fixture
def rc():
    spec = importlib.util.spec_from_file_location("runner_canary", GRADERS / "swe-bench" / "runner_canary.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---- ctest ---------------------------------------------------------------------------------

def ctest_line(i, n, name, outcome):
    return "%d/%d Test #%d: %s ........   %s    0.01 sec" % (i, n, i, name, outcome)


@pytest.fixture
def ctest(rc, tmp_path, monkeypatch):
    monkeypatch.setattr(rc, "_which", lambda name, env: "/usr/bin/" + name)
    c = rc.CtestCanary(tmp_path, {"PATH": "/usr/bin"}, tmp_path)
    # One executable with the canary's main, which every test runs with its name.
    (tmp_path / "prog").write_text("")
    (c.dir / "exe_0_.txt").write_text(str(tmp_path / "prog"))
    yield c
    for fd in c.pass_fds:
        try:
            os.close(fd)
        except OSError:
            pass


def channel(c, lines):
    """What the run's processes wrote on the canary's channel, which then closes."""
    for line in lines:
        os.write(c.fd, line.encode())
    os.close(c.fd)


def fnv(args):
    # FNV-1a, 32 bits, over each argument and its NUL (C_MAIN's hash, written out again here).
    h = 0x811C9DC5
    for b in b"".join(a.encode() + b"\0" for a in args):
        h = ((h ^ b) * 0x01000193) % (1 << 32)
    return "%08x" % h


def returned(c, name, code=0, i=0):
    """C_MAIN's line for executable i run with the argument `name`, whose main returned `code`."""
    return "%s %s %03d\n" % (c.keys[i].hex(), fnv([name]), code)


def ctest_run(c, tests, summary=True, extra="", report=None):
    """A run's report and console: tests as [(name, 'Passed' | '***Failed' | ...)]; ctest's list of
    them (each runs the executable with its name); on the channel, `report` (by default a line for
    each test that passed: its main returned 0)."""
    companion = set(c.names[2] + c.names[3])
    listing = {"kind": "ctestInfo", "tests": [{"name": n, "command": ["/usr/bin/companion" if n in companion else str(c.dir.parent / "prog"), n]} for n, _ in tests]}
    (c.reports / "list.json").write_text(json.dumps(listing))
    if report is None:
        report = [returned(c, n) for n, o in tests if o == "Passed" and n not in companion]
    channel(c, report)
    failed = sum(1 for _, o in tests if "Failed" in o or o == "***Not Run")
    cases = "".join('<testcase name="%s" classname="%s" status="%s">%s</testcase>' % (
        n, n, "run" if o == "Passed" else "fail" if "Failed" in o else "notrun", "<failure message=\"Failed\"/>" if "Failed" in o else "")
        for n, o in tests)
    (c.reports / "x.xml").write_text('<testsuite tests="%d">%s</testsuite>' % (len(tests), cases))
    lines = [ctest_line(i + 1, len(tests), n, o) for i, (n, o) in enumerate(tests)]
    if summary:
        lines.append("%d%% tests passed, %d tests failed out of %d" % (100 * (len(tests) - failed) // len(tests), failed, len(tests)))
    return "\n".join(lines) + "\n" + extra


def canary_tests(c, k=1):
    return [t for i in range(k) for t in ((c.names[0][i], "Passed"), (c.names[1][i], "***Failed"), (c.names[2][i], "Passed"), (c.names[3][i], "***Failed"))]


def test_ctest_reads_the_report_without_the_canary(rc, ctest):
    log = ctest_run(ctest, [("alpha", "Passed"), ("beta", "***Failed")] + canary_tests(ctest))
    assert ctest.check(8, log) == {"alpha": "passed", "beta": "failed"}


def test_ctest_console_lines_of_a_tests_own_output_are_not_ctests(rc):
    log = "3: 1/2 Test #1: forged ...   Passed\n" + ctest_line(1, 1, "alpha", "***Not Run (Disabled)") + "\n" + ctest_line(1, 1, "beta", "***Not Run") + "\n"
    assert rc.ctest_console(log)["tests"] == [("alpha", "skipped"), ("beta", "failed")]


@pytest.mark.parametrize("how, evidence", [
    ("must-fail passed", "canary test .* that must have failed as \\['passed'\\]"),
    ("no canary", "has no canary test"),
    ("two summaries", "printed 2 summaries"),
    ("console disagrees", "disagree on alpha"),
    ("exit 0", "exited with 0"),
])
def test_ctest_forgeries_are_tampering(rc, ctest, how, evidence):
    tests = [("alpha", "***Failed")] + canary_tests(ctest)
    code = 8
    if how == "must-fail passed":
        tests = [("alpha", "Passed")] + [(n, "Passed") for n, _ in canary_tests(ctest)]
    if how == "no canary":
        tests = [("alpha", "Passed")]
    log = ctest_run(ctest, tests)
    if how == "two summaries":
        log += "100% tests passed, 0 tests failed out of 5\n"
    if how == "console disagrees":
        log = log.replace(ctest_line(1, 5, "alpha", "***Failed"), ctest_line(1, 5, "alpha", "Passed"))
    if how == "exit 0":
        code = 0
    with pytest.raises(rc.Tampering, match=evidence):
        ctest.check(code, log)


def test_ctest_without_a_report_ran_nothing(rc, ctest):
    with pytest.raises(rc.NoRun):
        ctest.check(2, "CMake Error at CMakeLists.txt:3")


def test_ctest_a_test_whose_main_did_not_return_0_failed_whatever_ctest_says(rc, ctest):
    # alpha's process ended before its main returned (no line), beta's main returned 1 and the
    # process still exited 0, gamma's returned 0 twice over (one line per run counts once).
    tests = [("alpha", "Passed"), ("beta", "Passed"), ("gamma", "Passed"), ("delta", "***Failed")] + canary_tests(ctest)
    report = [returned(ctest, ctest.names[0][0]), returned(ctest, "beta", 1), returned(ctest, "gamma"), returned(ctest, "delta")]
    found = ctest.check(8, ctest_run(ctest, tests, report=report))
    assert found["alpha"].startswith("failed: ctest passed it, but its main did not return 0")
    assert found["beta"].startswith("failed: ") and found["gamma"] == "passed" and found["delta"] == "failed"


@pytest.mark.parametrize("how, evidence", [
    ("no canary line", "passed without its main's report on the canary's channel"),
    ("a line of its own", "a line that no canary main wrote"),
    ("another executable's key", "a line that no canary main wrote"),
])
def test_ctest_the_channel_carries_only_the_canarys_mains(rc, ctest, how, evidence):
    tests = [("alpha", "Passed")] + canary_tests(ctest)
    report = [returned(ctest, "alpha")]
    if how != "no canary line":
        report.append(returned(ctest, ctest.names[0][0]))
    if how == "a line of its own":
        report.append("%s %s 000\n" % ("0" * 32, fnv(["alpha"])))
    if how == "another executable's key":
        report.append("%s %s 000\n" % (ctest.keys[0].hex()[::-1], fnv(["alpha"])))
    with pytest.raises(rc.Tampering, match=evidence):
        ctest.check(8, ctest_run(ctest, tests, report=report))


def test_ctest_what_the_shim_found_defined_is_tampering(rc, ctest):
    log = "[100%] Built target test_x\npwp canary: /b/test_x defines strcmp, a function of the C library the tests compare, report or end with\n"
    channel(ctest, [])
    with pytest.raises(rc.Tampering, match="test_x defines strcmp"):
        ctest.check(3, log)


def test_the_replayed_includes_keep_the_order_find_quoted_headers_beside_their_source_and_leave_sources_out(rc, tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "a.h").write_text("")
    src = tmp_path / "t.c"
    src.write_text('#include "a.h"\n#include <stdio.h>\n  #  include "missing.h"\n#include "../src/impl.c"\n#include "a.h"\n')
    text = rc.replayed_includes([str(src)])
    assert text.split("\n")[0:2] == ['#if __has_include("%s")' % (tmp_path / "a.h"), '#include "%s"' % (tmp_path / "a.h")]
    assert text.index("<stdio.h>") < text.index('"missing.h"')
    assert "impl.c" not in text and text.count("a.h") == 2


# ---- cargo test -----------------------------------------------------------------------------

@pytest.fixture
def cargo(rc, tmp_path):
    return rc.CargoCanary(tmp_path, {}, tmp_path)


def binary(header, results, summary=None, captured=""):
    passed = sum(1 for _, s in results if s == "ok")
    failed = sum(1 for _, s in results if s == "FAILED")
    lines = ["     %s" % header, "", "running %d tests" % len(results)] + ["test %s ... %s" % r for r in results]
    if failed:
        lines += ["", "failures:", "", "---- x stdout ----", captured, "", "failures:", "    x", ""]
    lines.append(summary or "test result: %s. %d passed; %d failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s" % ("FAILED" if failed else "ok", passed, failed))
    return "\n".join(lines) + "\n"


def honest(c, extra=()):
    return [("parses", "ok"), ("orders", "FAILED"), (c.passing, "ok"), (c.failing, "FAILED")] + list(extra)


def test_cargo_reads_each_binary_without_the_canary_and_leaves_doc_tests_alone(cargo):
    log = ("   Compiling x v0.1.0\n" + binary("Running unittests src/lib.rs (target/debug/deps/x-1)", [(cargo.passing, "ok"), (cargo.failing, "FAILED")])
           + binary("Running tests/version.rs (target/debug/deps/version-2)", honest(cargo), captured="test orders ... ok\ntest result: ok. 9 passed; 0 failed")
           + binary("Doc-tests x", [("src/lib.rs - parse (line 3)", "ok")]))
    assert cargo.check(101, log) == {"parses": "passed", "orders": "failed", "src/lib.rs - parse (line 3)": "passed"}


def test_cargo_a_binary_that_did_not_finish_counts_nothing_and_is_not_tampering(cargo):
    log = binary("Running tests/version.rs (t)", honest(cargo)).split("failures:")[0] + "error: test failed (signal: 11)\n"
    assert cargo.check(101, log) == {}


@pytest.mark.parametrize("how, evidence", [
    ("init_array", "canary test .* as missing"),
    ("second summary", "summaries"),
    ("extra line", "result lines"),
    ("before any binary", "outside any test binary"),
    ("exit 0", "exited with 0"),
    ("twice", "twice"),
])
def test_cargo_forgeries_are_tampering(cargo, rc, how, evidence):
    head = "Running tests/version.rs (t)"
    log, code = binary(head, honest(cargo)), 101
    if how == "init_array":
        log = binary(head, [("parses", "ok"), ("orders", "ok")])
    if how == "second summary":
        log += "test result: ok. 4 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n"
    if how == "extra line":
        log = log.replace("test parses ... ok\n", "test parses ... ok\ntest orders ... ok\n")
    if how == "before any binary":
        log = "test orders ... ok\n" + log
    if how == "exit 0":
        code = 0
    if how == "twice":
        log = binary(head, honest(cargo)[:-1] + [("parses", "FAILED")] + [(cargo.failing, "FAILED")]).replace("running 5 tests", "running 5 tests")
    with pytest.raises(rc.Tampering, match=evidence):
        cargo.check(code, log)


@pytest.fixture
def rustc():
    # The verifier's rustc wrapper, which the cargo canary names (RUSTC_CANARY).
    path = GRADERS.parents[1] / "evaluation" / "verifierScripts" / "pwp_rustc.py"
    spec = importlib.util.spec_from_file_location("pwp_rustc", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cargo_canary_names_the_verifiers_rustc_wrapper_and_writes_its_names(cargo, rustc):
    assert cargo.env["RUSTC_WORKSPACE_WRAPPER"] == os.environ.get("PWP_RUSTC_CANARY", "/pwp/runner/cargo/pwp_rustc")
    names = json.loads((pathlib.Path(cargo.env["PWP_CANARY_DIR"]) / "canary.json").read_text())
    assert names == {"pass": [cargo.passing], "fail": [cargo.failing]}
    source = rustc.canary_source(names)
    assert "fn %s()" % cargo.passing in source and "fn %s()" % cargo.failing in source and source.count("#[test]") == 2


def test_rustc_mirror_keeps_relative_paths(rustc, tmp_path):
    ws = tmp_path / "ws"
    (ws / "tests" / "common").mkdir(parents=True)
    (ws / "tests" / "version.rs").write_text("mod common;")
    (ws / "tests" / "common" / "mod.rs").write_text("")
    (ws / "README.md").write_text("readme")
    copy = rustc.mirror(str(ws / "tests" / "version.rs"), str(ws), str(tmp_path / "m"))
    assert copy == str(tmp_path / "m" / "tests" / "version.rs")
    assert not (tmp_path / "m" / "tests" / "version.rs").exists()
    assert (tmp_path / "m" / "tests" / "common" / "mod.rs").exists() and (tmp_path / "m" / "README.md").read_text() == "readme"


FAKE_RUSTC = """import json, sys
args = sys.argv[1:]
root = next((a for a in args if a.endswith(".rs")), None)
print(json.dumps({"root": root, "text": open(root).read() if root else None}))
"""


def test_rustc_sealed_run_compiles_an_empty_crate_for_a_hidden_root_first_and_only_those_crates_second(tmp_path):
    # A sealed cargo run's two builds (host/evaluation/cargoRun.ts), with a rustc that says what it got.
    wrapper = GRADERS.parents[1] / "evaluation" / "verifierScripts" / "pwp_rustc.py"
    ws = tmp_path / "ws"
    (ws / "tests").mkdir(parents=True)
    (ws / "src").mkdir()
    (ws / "tests" / "hidden.rs").write_text("#[test]\nfn secret() {}\n")
    (ws / "src" / "lib.rs").write_text("pub fn f() {}\n")
    fake = tmp_path / "rustc.py"
    fake.write_text(FAKE_RUSTC)
    opened = tmp_path / "open"
    env = dict(os.environ, PWP_CARGO_SEALED=json.dumps([str(ws / "tests" / "hidden.rs")]), PWP_CARGO_OPEN=str(opened), PWP_RUSTC_WORK=str(tmp_path / "work"))
    env.pop("PWP_CANARY_DIR", None)

    def compile_(root):
        args = [sys.executable, str(wrapper), sys.executable, str(fake), "--crate-name", "x", "--test", root] if root else [sys.executable, str(wrapper), sys.executable, str(fake), "-vV"]
        r = subprocess.run(args, cwd=ws, env=env, capture_output=True, text=True)
        return r.returncode, (json.loads(r.stdout) if r.returncode == 0 else r.stderr)

    code, hidden = compile_("tests/hidden.rs")
    assert code == 0 and hidden["text"] == "" and not hidden["root"].startswith(str(ws)), "an empty crate in its place, elsewhere"
    assert compile_("src/lib.rs") == (0, {"root": "src/lib.rs", "text": "pub fn f() {}\n"})
    opened.write_text("")
    assert compile_("tests/hidden.rs") == (0, {"root": "tests/hidden.rs", "text": "#[test]\nfn secret() {}\n"})
    code, said = compile_("src/lib.rs")
    assert code == 1 and "pwp: refused to compile src/lib.rs with the hidden tests readable" in said
    assert compile_(None) == (0, {"root": None, "text": None}), "a query of rustc's passes"


# ---- surefire -------------------------------------------------------------------------------

@pytest.fixture
def surefire(rc, tmp_path):
    test = tmp_path / "src" / "test" / "java" / "p" / "ATest.java"
    test.parent.mkdir(parents=True)
    test.write_text("package p;\nimport org.junit.jupiter.api.Test;\nclass ATest {}\n")
    (tmp_path / "src" / "main" / "java" / "p").mkdir(parents=True)
    (tmp_path / "src" / "main" / "java" / "p" / "A.java").write_text("package p;\nclass A {}\n")
    return rc.SurefireCanary(tmp_path, {}, tmp_path, ["p.ATest#ok", "p.ATest#bad"])


def surefire_run(tmp_path, c, a_cases, console=None):
    reports = tmp_path / "target" / "surefire-reports"
    reports.mkdir(parents=True, exist_ok=True)
    xml = lambda cls, cases: '<testsuite name="%s">%s</testsuite>' % (cls, "".join(
        '<testcase classname="%s" name="%s">%s</testcase>' % (cls, n, "<failure/>" if s == "failed" else "") for n, s in cases))
    (reports / "TEST-p.ATest.xml").write_text(xml("p.ATest", a_cases))
    canary = "p." + c.cls
    (reports / ("TEST-%s.xml" % canary)).write_text(xml(canary, [(c.passing, "passed"), (c.failing, "failed")]))
    fails = sum(1 for _, s in a_cases if s == "failed")
    console = console if console is not None else (
        "[INFO] Running p.ATest\n[ERROR] Tests run: %d, Failures: %d, Errors: 0, Skipped: 0, Time elapsed: 0.1 s <<< FAILURE! - in p.ATest\n"
        "[ERROR] Tests run: 2, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.1 s <<< FAILURE! - in %s\n"
        "[INFO]  T E S T S\n[ERROR] Tests run: %d, Failures: %d, Errors: 0, Skipped: 0\n" % (len(a_cases), fails, canary, len(a_cases) + 2, fails + 1))
    return sorted(reports.glob("TEST-*.xml")), console


def test_surefire_places_the_canary_beside_the_tests_loading_the_main_classes(surefire, tmp_path):
    src = (tmp_path / "src" / "test" / "java" / "p" / (surefire.cls + ".java")).read_text()
    assert src.startswith("package p;") and "org.junit.jupiter" in src and 'Class.forName("p.A")' in src
    assert surefire.names() == {"p." + surefire.cls}
    surefire.cleanup()
    assert not (tmp_path / "src" / "test" / "java" / "p" / (surefire.cls + ".java")).exists()


def test_surefire_reads_the_reports_without_the_canary(surefire, tmp_path):
    names = surefire.names()
    reports, console = surefire_run(tmp_path, surefire, [("ok", "passed"), ("bad", "failed")])
    assert surefire.check(0, console, reports, names) == {"p.ATest#ok": "passed", "p.ATest#bad": "failed"}


@pytest.mark.parametrize("how, evidence", [
    ("report rewritten", "not what the console says"),
    ("canary missing", "canary test .* as missing"),
    ("no console line", "not once"),
])
def test_surefire_forgeries_are_tampering(surefire, rc, tmp_path, how, evidence):
    names = surefire.names()
    reports, console = surefire_run(tmp_path, surefire, [("ok", "passed"), ("bad", "failed")])
    if how == "report rewritten":
        next(r for r in reports if r.name == "TEST-p.ATest.xml").write_text(
            '<testsuite name="p.ATest"><testcase classname="p.ATest" name="ok"/><testcase classname="p.ATest" name="bad"/></testsuite>')
    if how == "canary missing":
        next(r for r in reports if surefire.cls in r.name).unlink()
        reports = [r for r in reports if r.exists()]
    if how == "no console line":
        console = "\n".join(l for l in console.splitlines() if surefire.cls not in l)
    with pytest.raises(rc.Tampering, match=evidence):
        surefire.check(0, console, reports, names)


# ---- gradle --------------------------------------------------------------------------------

@pytest.fixture
def gradle(rc, tmp_path):
    test = tmp_path / "tasks" / "t" / "ClampTest.java"
    test.parent.mkdir(parents=True)
    test.write_text("")
    return rc.GradleCanary(tmp_path, {"PATH": "/usr/bin"}, tmp_path, None, {str(test): b"package p;\nimport org.junit.Test;\npublic class ClampTest {}\n"})


def gradle_run(tmp_path, c, cases, printed=None):
    """Gradle's XML report of the class and the canary, and its console with the mark's lines."""
    reports = tmp_path / "build" / "test-results" / "test"
    reports.mkdir(parents=True, exist_ok=True)
    canary = "p." + c.cls
    every = [("p.ClampTest", n, s) for n, s in cases] + [(canary, c.passing, "passed"), (canary, c.failing, "failed")]
    for cls in ("p.ClampTest", canary):
        (reports / ("TEST-%s.xml" % cls)).write_text('<testsuite name="%s">%s</testsuite>' % (cls, "".join(
            '<testcase classname="%s" name="%s">%s</testcase>' % (k, n, "<failure/>" if s == "failed" else "") for k, n, s in every if k == cls)))
    word = {"passed": "SUCCESS", "failed": "FAILURE", "skipped": "SKIPPED"}
    lines = printed if printed is not None else ["%s %s#%s %s" % (c.mark, k, n, word[s]) for k, n, s in every]
    return sorted(reports.glob("TEST-*.xml")), ":test\nWARNING: from the test JVM\n" + "\n".join(lines) + "\n4 tests completed, 2 failed\n"


def test_gradle_init_script_prints_each_result_marked_and_forks_the_graders_javac(gradle):
    init = pathlib.Path(gradle.args[gradle.args.index("--init-script") + 1]).read_text()
    assert 'println("%s " + d.className' % gradle.mark in init and "options.forkOptions.executable = '%s'" % gradle.javac in init
    assert gradle.args[2:] == ["--console=plain", "--continue"] and gradle.placed[0].parent.name == "t"


def test_gradle_reads_the_report_without_the_canary(gradle, tmp_path):
    names = gradle.names()
    reports, console = gradle_run(tmp_path, gradle, [("low", "failed"), ("inside", "passed")])
    assert gradle.check(1, console, reports, names) == {"p.ClampTest#low": "failed", "p.ClampTest#inside": "passed"}


@pytest.mark.parametrize("how, evidence", [
    ("report rewritten", "disagree on p.ClampTest#low .report .'passed'., console .'failed'."),
    ("a second line printed", "disagree on p.ClampTest#low"),
    ("canary missing", "canary test .* as missing"),
    ("no reports", "wrote no test report"),
])
def test_gradle_forgeries_are_tampering(gradle, rc, tmp_path, how, evidence):
    names = gradle.names()
    reports, console = gradle_run(tmp_path, gradle, [("low", "failed"), ("inside", "passed")])
    if how == "report rewritten":
        # The task's report by its name: the canary's class name is random and may sort first.
        next(r for r in reports if r.name == "TEST-p.ClampTest.xml").write_text(
            '<testsuite name="p.ClampTest"><testcase classname="p.ClampTest" name="low"/><testcase classname="p.ClampTest" name="inside"/></testsuite>')
    if how == "a second line printed":
        console += "%s p.ClampTest#low SUCCESS\n" % gradle.mark
    if how == "canary missing":
        next(r for r in reports if gradle.cls in r.name).unlink()
        reports = [r for r in reports if r.exists()]
    if how == "no reports":
        reports = []
    with pytest.raises(rc.NoRun if how == "no reports" else rc.Tampering, match=evidence):
        gradle.check(1, console, reports, names)


# ---- go test -json ----------------------------------------------------------------------------

@pytest.fixture
def go(rc, tmp_path):
    (tmp_path / "size_test.go").write_text("package units\n")
    return rc.GoCanary(tmp_path, {}, tmp_path, ["go", "test", "-v", "."])


def events(pkg, results, end="fail"):
    out = []
    for name, action in results:
        out.append({"Action": "output", "Package": pkg, "Test": name, "Output": "--- %s: %s (0.00s)\n" % (action.upper(), name)})
        out.append({"Action": action, "Package": pkg, "Test": name})
    out.append({"Action": end, "Package": pkg})
    return "\n".join(json.dumps(e) for e in out) + "\n"


def test_go_adds_json_the_overlay_and_vet_off_after_test(go):
    assert go.argv[:3] == ["go", "test", "-json"] and go.argv[3].startswith("-overlay=") and go.argv[4:] == ["-vet=off", "-v", "."]
    overlay = json.loads(open(go.argv[3].split("=", 1)[1]).read())["Replace"]
    assert len(overlay) == 1 and "package units" in open(list(overlay.values())[0]).read()


def test_go_reads_the_events_without_the_canary(go):
    log = events("m", [("TestA", "pass"), ("TestB/sub", "fail"), (go.passing, "pass"), (go.failing, "fail")])
    assert go.check(1, log) == {"TestA": "passed", "TestB/sub": "failed"}


@pytest.mark.parametrize("how, evidence", [("init", "as missing"), ("two ends", "ended 2 times"), ("exit 0", "exited with 0")])
def test_go_forgeries_are_tampering(go, rc, how, evidence):
    log, code = events("m", [("TestA", "pass"), (go.passing, "pass"), (go.failing, "fail")]), 1
    if how == "init":
        log = events("m", [("TestA", "pass")], end="pass")
    if how == "two ends":
        log += json.dumps({"Action": "pass", "Package": "m"}) + "\n"
    if how == "exit 0":
        code = 0
    with pytest.raises(rc.Tampering, match=evidence):
        go.check(code, log)


def test_ctest_sealed_sources_are_compiled_from_copies_the_tests_never_see(rc, tmp_path, monkeypatch):
    # The verifier's broker gave the grader the hidden sources: the compiler launcher compiles a
    # sealed one from its copy, as if from its own folder, and leaves every other compilation alone.
    monkeypatch.setattr(rc, "_which", lambda name, env: "/usr/bin/" + name)
    sealed = {"/workspace/tests/t.c": b"int main(void) { return 0; }\n", "/workspace/tests/t.h": b"#define X 1\n"}
    c = rc.CtestCanary(tmp_path, {"PATH": "/usr/bin"}, tmp_path, sealed)
    spec = json.loads((c.dir / "spec.json").read_text())
    copy = spec["sealed"]["/workspace/tests/t.c"]
    assert copy.startswith(str(c.dir / "s")) and pathlib.Path(copy).read_bytes() == sealed["/workspace/tests/t.c"]
    assert pathlib.Path(spec["sealed"]["/workspace/tests/t.h"]).parent == pathlib.Path(copy).parent
    launcher = re.search(r'set\(PWP_LAUNCHER "(.*)"\)', (c.dir / "canary.cmake").read_text()).group(1)
    assert os.access(launcher, os.X_OK) and '"/workspace/tests/t.c;/workspace/tests/t.h"' in (c.dir / "canary.cmake").read_text()
    ran = []
    monkeypatch.setattr(rc.os, "execvp", lambda f, args: ran.append(args))
    rc.compile_shim(str(c.dir), ["/usr/bin/cc", "-Iinclude", "-o", "t.c.o", "-c", "/workspace/tests/t.c"])
    rc.compile_shim(str(c.dir), ["/usr/bin/cc", "-o", "lib.c.o", "-c", "/workspace/src/lib.c"])
    assert ran[0] == ["/usr/bin/cc", "-iquote", "/workspace/tests", "-ffile-prefix-map=%s/s=" % c.dir, "-Iinclude", "-o", "t.c.o", "-c", copy]
    assert ran[1] == ["/usr/bin/cc", "-o", "lib.c.o", "-c", "/workspace/src/lib.c"]
    for fd in c.pass_fds:
        os.close(fd)


def test_ctest_the_grader_asks_the_broker_once_and_keeps_its_socket_from_the_tests(rc, monkeypatch):
    asked = []

    class Sealed:
        @staticmethod
        def read():
            asked.append(os.environ.pop("PWP_SEAL_BROKER"))
            return {"/workspace/tests/t.c": b"x"}

    monkeypatch.setitem(sys.modules, "pwp_sealed", Sealed)
    env = {"PWP_SEAL_BROKER": "/pwp/seal/x.sock", "PATH": "/usr/bin"}
    assert rc.sealed_sources(env) == {"/workspace/tests/t.c": b"x"}
    assert asked == ["/pwp/seal/x.sock"] and "PWP_SEAL_BROKER" not in env
    assert rc.sealed_sources({"PATH": "/usr/bin"}) == {}


def test_surefire_sealed_sources_are_compiled_from_copies_removed_once_compiled(rc, tmp_path, monkeypatch):
    # Maven forks the canary's javac with an argument file: a sealed source is compiled from its
    # copy, every other argument goes as it came, and the copies it used are gone when it returns.
    test = tmp_path / "src/test/java/org/x/XTest.java"
    test.parent.mkdir(parents=True)
    test.write_text("")
    text = b'package org.x;\nimport org.junit.jupiter.api.Test;\nclass XTest { @Test void t() { String s = "a \\"b\\" c"; } }\n'
    c = rc.SurefireCanary(tmp_path, {"PATH": "/usr/bin"}, tmp_path, ["org.x.XTest#t"], {str(test): text})
    assert c.compiler[0] == "-Dmaven.compiler.fork=true" and c.placed, "the canary class beside it, its flavour read from the copy"
    assert "org.junit.jupiter" in c.placed[0].read_text()
    shim = c.compiler[1].split("=", 1)[1]
    folder = os.path.dirname(shim)
    copy = c.copies[str(test)]
    argfile = tmp_path / "args"
    argfile.write_text('"-d"\n"/w/target/test-classes"\n"-sourcepath"\n"/w/src/test/java:"\n"%s"\n"C:\\\\odd \\"name\\""\n' % test)
    assert rc.javac_arguments(argfile.read_text())[-1] == 'C:\\odd "name"'
    assert rc.javac_arguments('-sourcepath\n""\n-proc:none\n/w/A.java\n') == ["-sourcepath", "", "-proc:none", "/w/A.java"], "Gradle's file, its empty argument kept"
    seen = {}

    def javac(argv):
        seen["args"] = rc.javac_arguments(pathlib.Path(argv[1][1:]).read_text())
        return subprocess.CompletedProcess(argv, 0)

    monkeypatch.setattr(rc.subprocess, "run", javac)
    monkeypatch.setattr(rc.shutil, "which", lambda name, path=None: "/usr/bin/javac")
    with pytest.raises(SystemExit) as end:
        rc.javac_shim(folder, "/usr/bin", ["@" + str(argfile)])
    assert end.value.code == 0
    assert seen["args"] == ["-d", "/w/target/test-classes", "-sourcepath", "/w/src/test/java:", copy, 'C:\\odd "name"']
    assert not os.path.exists(copy), "the copy is gone before surefire runs the tests"


def test_surefire_without_a_list_places_the_canary_beside_each_sealed_java_source_in_its_package(rc, tmp_path):
    # IDE-Bench's detected Maven: the tests are the task's files wherever the pom's
    # testSourceDirectory is, known only as the sealed sources.
    test = tmp_path / "tasks/task-1/task_tests.java"
    test.parent.mkdir(parents=True)
    test.write_text("")
    (tmp_path / "src/main/java/gauge").mkdir(parents=True)
    (tmp_path / "src/main/java/gauge/Gauge.java").write_text("package gauge;\npublic class Gauge {}\n")
    data = tmp_path / "tasks/task-1/expected.txt"
    sealed = {str(test): b"package gauge;\n\nimport org.junit.jupiter.api.Test;\nclass ClampTest {}\n", str(data): b"5\n"}
    c = rc.SurefireCanary(tmp_path, {"PATH": "/usr/bin"}, tmp_path, None, sealed)
    assert [p.parent for p in c.placed] == [test.parent], "one canary, beside the Java source only"
    src = c.placed[0].read_text()
    assert src.startswith("package gauge;") and "org.junit.jupiter" in src and 'Class.forName("gauge.Gauge")' in src
    assert c.names() == {"gauge." + c.cls}
    with pytest.raises(FileNotFoundError, match="no hidden Java source"):
        rc.SurefireCanary(tmp_path, {"PATH": "/usr/bin"}, tmp_path, None, {str(data): b"5\n"})


@pytest.mark.parametrize("compiler, ext, flags", [
    ("gcc", "c", ["-std=c89", "-pedantic", "-Wall", "-Wextra", "-Wconversion", "-Wsign-conversion", "-Wcast-qual"]),
    ("g++", "cc", ["-std=c++98", "-pedantic", "-Wall", "-Wextra", "-Wold-style-cast", "-Wconversion", "-Wsign-conversion", "-Wuseless-cast"]),
])
def test_ctest_the_canarys_main_compiles_under_an_executables_strictest_warnings(rc, tmp_path, compiler, ext, flags):
    # main_N is a source of the project's own executable: its warning options, -Werror included, apply.
    if not shutil.which(compiler):
        pytest.skip("no %s here" % compiler)
    (tmp_path / "executables.txt").write_text("0\tt\t%s\t/dev/null\n" % ("CXX" if ext == "cc" else "C"))
    rc.write_c_sources(tmp_path, {"names": [["aa_bb"], ["cc_dd"], ["ee_ff"], ["gg_hh"]], "keys": [["00" * 16, "ff" * 16]], "fd": 123, "sealed": {}})
    r = subprocess.run([compiler, "-Werror"] + flags + ["-c", str(tmp_path / ("main_0." + ext)), "-o", str(tmp_path / "main.o")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
