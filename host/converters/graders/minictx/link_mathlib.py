# Links a supplied, built Mathlib into a miniCTX task's Lean project, so that Lake finds every
# package offline: Mathlib itself and each package its own build used (its .lake/packages/)
# become .lake/packages/<name> of the project, their entries from Mathlib's lake-manifest.json
# are added to the project's (as inherited), and the project's lean-toolchain becomes Mathlib's.
# The records name Mathlib by a short commit (theoremCreated.commit, ten digits); Lake compares a
# package's HEAD with its manifest's rev as strings and, when they differ, fetches (which fails
# offline): the manifest gets the supplied checkout's full commit, once it is shown to be that one.
# Copied by host/converters/miniCtx.ts to a task's setup/link_mathlib.py; set-up runs it in the
# task container as `python3 -I link_mathlib.py MATHLIB_DIR PROJECT_DIR`.
import json
import os
import pathlib
import shutil
import subprocess
import sys

mathlib, project = (pathlib.Path(p) for p in sys.argv[1:3])
manifest_file = project / "lake-manifest.json"
manifest = json.loads(manifest_file.read_text())
head = subprocess.run(["git", "-c", "safe.directory=*", "-C", str(mathlib), "rev-parse", "HEAD"], capture_output=True, text=True)
if head.returncode != 0:
    sys.exit("the supplied Mathlib %s is not a git checkout (Lake reads its commit): %s" % (mathlib, head.stderr.strip()))
head = head.stdout.strip()
for p in manifest["packages"]:
    if p["name"] == "mathlib":
        if not head.startswith(p["rev"]):
            sys.exit("the supplied Mathlib %s is at commit %s, not at %s as the records name" % (mathlib, head, p["rev"]))
        p["rev"] = head
packages = project / ".lake" / "packages"
packages.mkdir(parents=True, exist_ok=True)
links = {"mathlib": mathlib}
for dep in sorted((mathlib / ".lake" / "packages").glob("*")):
    links[dep.name] = dep
for name, target in links.items():
    link = packages / name
    if link.is_symlink() or link.exists():
        link.unlink()
    os.symlink(target, link)
theirs = json.loads((mathlib / "lake-manifest.json").read_text())
have = {p["name"] for p in manifest["packages"]}
for p in theirs.get("packages", []):
    if p["name"] not in have:
        manifest["packages"].append({**p, "inherited": True})
manifest_file.write_text(json.dumps(manifest, indent=2) + "\n")
if (mathlib / "lean-toolchain").exists():
    shutil.copyfile(mathlib / "lean-toolchain", project / "lean-toolchain")
print("linked %s into %s" % (", ".join(sorted(links)), packages))
