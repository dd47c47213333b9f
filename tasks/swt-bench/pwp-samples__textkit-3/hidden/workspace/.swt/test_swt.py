# SWT-Bench's check of tests written for an issue, the half that reports: what prepare_swt.py
# (run by the verifier as root before these tests: the task's `prepare` step) found when it ran
# the agent's tests on the original code, with the gold patch and on a decoy, as three tests:
#   - the tests do not read the code they test;
#   - every one of them passes with the gold patch;
#   - at least one fails on the original code, passes with the gold patch and fails on the decoy
#     (it reproduces the issue rather than noticing a change).
# The task is solved when all three pass. Nothing here is secret: the gold patch, the copies the
# tests ran in and the script that ran them are out of this process's reach, and the results it
# reads are root's.
# Copied by host/converters/swtBench.ts to a task's hidden/workspace/.swt/test_swt.py; the verifier
# runs it as `python3 -m pytest -q --noconftest .swt/test_swt.py` from /workspace. PWP_SWT_RESULTS
# names the results (default /pwp/swt/results.json).
# The image's standard library, never a workspace module of the same name (the workspace is
# on sys.path while this file runs).
import sys

_path = list(sys.path)
sys.path[:] = [p for p in sys.path if p and not p.startswith("/workspace")]
import functools  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
sys.path[:] = _path

RESULTS = os.environ.get("PWP_SWT_RESULTS", "/pwp/swt/results.json")


@functools.lru_cache(maxsize=None)
def results():
    if not os.path.isfile(RESULTS):
        raise AssertionError("the grader's first half (prepare_swt.py) left no results at " + RESULTS)
    with open(RESULTS) as f:
        out = json.load(f)
    if out.get("error"):
        raise AssertionError(out["error"])
    return out


def quoted(output):
    """A run's output, each line marked as quoted: its summary lines are the run's, not this run's."""
    return "\n".join("  | " + line for line in output.splitlines())


def why(message):
    # A data host the verifier could not reach first (prepare_swt.py checked it): the tests that
    # need its data fail for that, and the first line of a failure is what a summary shows.
    down = results().get("unreachable")
    return (down + "; " if down else "") + message


def shown(t):
    """A test as pytest names it: file::Class::function."""
    return "%s::%s" % (t[0], t[1].replace(".", "::"))


def verdict(state, t):
    return results()["verdict"][state]["%s::%s" % tuple(t)]


def test_does_not_read_the_code_it_tests():
    reads = results()["reads"]
    assert not reads, "the tests read the code they test (refused): " + ", ".join(reads)


def test_passes_with_the_gold_patch():
    r = results()
    bad = [shown(t) for t in r["tests"] if verdict("gold", t) is not True]
    assert not bad, why("these tests do not pass with the gold patch: %s\n%s" % (", ".join(bad), quoted(r["output"].get("gold", ""))))


def test_reproduces_the_issue():
    r = results()
    fail_to_pass = [t for t in r["tests"] if verdict("original", t) is False and verdict("gold", t) is True]
    assert fail_to_pass, why("no test fails on the original code and passes with the gold patch:\n%s" % quoted(r["output"].get("original", "")))
    counted = [t for t in fail_to_pass if verdict("decoy", t) is False]
    assert counted, ("the tests that fail on the original code pass after a change that keeps behaviour "
                     "(a comment added to the patched files), so they detect a change, not the issue: %s"
                     % ", ".join(shown(t) for t in fail_to_pass))
