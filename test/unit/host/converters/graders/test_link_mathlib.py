# minictx/link_mathlib.py: a supplied, built Mathlib (and the packages it was built with) linked
# into a task's project, with their manifest entries and Mathlib's lean-toolchain, and the records'
# short commit made the checkout's full one (Lake compares HEAD with the manifest's rev verbatim).
import json
import subprocess
import sys

import pytest


def mathlib_checkout(at):
    """A git checkout with one commit, as a supplied Mathlib is; returns its full commit."""
    for dep in ("batteries", "aesop"):
        (at / ".lake" / "packages" / dep).mkdir(parents=True)
    (at / "lean-toolchain").write_text("leanprover/lean4:v4.8.0-rc1\n")
    (at / "lake-manifest.json").write_text(json.dumps({"packages": [
        {"name": "batteries", "rev": "b1" * 20, "inherited": False}, {"name": "aesop", "rev": "a1" * 20, "inherited": False}]}))
    git = ["git", "-C", str(at), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "lean-toolchain", "lake-manifest.json"], check=True)
    subprocess.run(git + ["commit", "-q", "-m", "m"], check=True)
    return subprocess.run(git + ["rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()


def project_naming(tmp_path, rev):
    project = tmp_path / "ws"
    project.mkdir()
    (project / "lean-toolchain").write_text("leanprover/lean4:v4.9.0\n")
    (project / "lake-manifest.json").write_text(json.dumps({"packages": [{"name": "mathlib", "rev": rev, "inputRev": rev, "inherited": False}]}))
    return project


def link(graders, mathlib, project):
    return subprocess.run([sys.executable, "-I", str(graders / "minictx/link_mathlib.py"), str(mathlib), str(project)], capture_output=True, text=True)


def test_links_mathlib_and_its_packages_and_merges_the_manifest_at_the_full_commit(graders, tmp_path):
    mathlib = tmp_path / "opt" / "short"
    full = mathlib_checkout(mathlib)
    project = project_naming(tmp_path, full[:10])
    for _ in range(2):  # a second set-up (a reset) finds the links there
        r = link(graders, mathlib, project)
        assert r.returncode == 0, r.stderr
    packages = project / ".lake" / "packages"
    assert {p.name: p.resolve() for p in packages.iterdir()} == {"mathlib": mathlib, "batteries": mathlib / ".lake/packages/batteries", "aesop": mathlib / ".lake/packages/aesop"}
    manifest = json.loads((project / "lake-manifest.json").read_text())
    assert [(p["name"], p["rev"], p["inherited"]) for p in manifest["packages"]] == [("mathlib", full, False), ("batteries", "b1" * 20, True), ("aesop", "a1" * 20, True)]
    assert manifest["packages"][0]["inputRev"] == full[:10], "the lakefile's revision, as written"
    assert (project / "lean-toolchain").read_text() == "leanprover/lean4:v4.8.0-rc1\n"


@pytest.mark.parametrize("case", ["another commit", "not a checkout"])
def test_a_supplied_mathlib_that_is_not_the_named_commit_is_refused(graders, tmp_path, case):
    mathlib = tmp_path / "opt" / "m"
    if case == "another commit":
        mathlib_checkout(mathlib)
        rev = "0123456789"
    else:
        mathlib.mkdir(parents=True)
        (mathlib / "lake-manifest.json").write_text(json.dumps({"packages": []}))
        rev = "0123456789"
    project = project_naming(tmp_path, rev)
    r = link(graders, mathlib, project)
    assert r.returncode != 0
    assert ("not at 0123456789" if case == "another commit" else "is not a git checkout") in r.stderr, r.stderr
    assert json.loads((project / "lake-manifest.json").read_text())["packages"][0]["rev"] == rev, "nothing written"
    assert not (project / ".lake").exists(), "nothing linked"
