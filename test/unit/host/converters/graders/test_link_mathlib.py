# minictx/link_mathlib.py: a supplied, built Mathlib (and the packages it was built with) linked
# into a task's project, with their manifest entries and Mathlib's lean-toolchain.
import json
import subprocess
import sys


def test_links_mathlib_and_its_packages_and_merges_the_manifest(graders, tmp_path):
    mathlib = tmp_path / "opt" / "abc1234"
    for dep in ("batteries", "aesop"):
        (mathlib / ".lake" / "packages" / dep).mkdir(parents=True)
    (mathlib / "lean-toolchain").write_text("leanprover/lean4:v4.8.0-rc1\n")
    (mathlib / "lake-manifest.json").write_text(json.dumps({"packages": [
        {"name": "batteries", "rev": "b1", "inherited": False}, {"name": "aesop", "rev": "a1", "inherited": False}]}))
    project = tmp_path / "ws"
    project.mkdir()
    (project / "lean-toolchain").write_text("leanprover/lean4:v4.9.0\n")
    (project / "lake-manifest.json").write_text(json.dumps({"packages": [{"name": "mathlib", "rev": "abc1234", "inherited": False}]}))
    for _ in range(2):  # a second set-up (a reset) finds the links there
        r = subprocess.run([sys.executable, "-I", str(graders / "minictx/link_mathlib.py"), str(mathlib), str(project)], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
    packages = project / ".lake" / "packages"
    assert {p.name: p.resolve() for p in packages.iterdir()} == {"mathlib": mathlib, "batteries": mathlib / ".lake/packages/batteries", "aesop": mathlib / ".lake/packages/aesop"}
    manifest = json.loads((project / "lake-manifest.json").read_text())
    assert [(p["name"], p["rev"], p["inherited"]) for p in manifest["packages"]] == [("mathlib", "abc1234", False), ("batteries", "b1", True), ("aesop", "a1", True)]
    assert (project / "lean-toolchain").read_text() == "leanprover/lean4:v4.8.0-rc1\n"
