#!/usr/bin/python3 -I
# RUSTC_WORKSPACE_WRAPPER of a cargo test run with the grading canary (docs/grading-canary.md):
# the verifier's runner sets it for a `cargo` tests evaluator, and the SWE-bench log grader's
# runner canary for the cargo test it starts. Cargo runs `pwp_rustc rustc ARGS` for the
# workspace's own crates only; every test crate (--test) is compiled from a copy of its root file
# with the canary's tests appended, at the crate root, so they resolve the macros they use
# (assert!, assert_eq!, assert_ne!, panic!) as the crate's own tests do: a deliverable macro
# imported over them changes the canary's outcome. The copy lies in a mirror of its folder
# (links to everything beside it, and up to the workspace's root), so `mod x;` and
# include_str!("../y") find what they found; paths in panics, file!() and debug info are the
# real ones. The canary's names: canary.json ({"pass": [...], "fail": [...]}) in $PWP_CANARY_DIR.
import json
import os
import shutil
import subprocess
import sys
import tempfile

PASSING = """

#[test]
#[allow(unused, clippy::all)]
fn @PASS@() {
    let a: u32 = "7".parse().unwrap();
    assert_eq!(a, 7);
    assert!(a == 7);
    assert_ne!(a, 8);
}
"""

FAILING = """
#[test]
#[allow(unused, clippy::all)]
fn @FAIL@() {
    let a: u32 = "7".parse().unwrap();
    let held = [
        std::panic::catch_unwind(|| { assert_eq!(a, 8); }).is_err(),
        std::panic::catch_unwind(|| { assert!(a == 8); }).is_err(),
        std::panic::catch_unwind(|| { assert_ne!(a, 7); }).is_err(),
    ];
    if held.iter().all(|h| *h) {
        panic!("expected failure");
    }
}
"""

# rustc's options whose value is the next argument.
RUSTC_VALUE_OPTIONS = {"--crate-name", "--crate-type", "--out-dir", "-o", "-L", "-l", "--extern", "--cap-lints", "--cfg", "--check-cfg", "--target",
                       "-C", "--codegen", "-W", "-A", "-D", "-F", "--edition", "--emit", "--error-format", "--json", "--explain", "--print", "--sysroot"}


def mirror(source, root, into):
    """A folder under `into` laid out like `root` down to `source`'s folder, each level holding
    links to what the real one holds; returns where the copy of `source` goes."""
    source, root = os.path.abspath(source), os.path.abspath(root)
    rel = os.path.relpath(source, root)
    if rel.startswith(".."):
        root, rel = os.path.dirname(source), os.path.basename(source)
    parts = rel.split(os.sep)
    real, fake = root, into
    for i, part in enumerate(parts):
        os.makedirs(fake, exist_ok=True)
        for entry in os.listdir(real):
            if entry != part and not os.path.lexists(os.path.join(fake, entry)):
                os.symlink(os.path.join(real, entry), os.path.join(fake, entry))
        if i < len(parts) - 1:
            real, fake = os.path.join(real, part), os.path.join(fake, part)
    return os.path.join(fake, parts[-1])


def canary_source(names):
    """The canary's tests for `names` ({"pass": [...], "fail": [...]}), as Rust source."""
    return "".join([PASSING.replace("@PASS@", n) for n in names["pass"]] + [FAILING.replace("@FAIL@", n) for n in names["fail"]])


def main(args):
    rustc, args = args[0], args[1:]
    at = None
    if "--test" in args:
        for i, a in enumerate(args):
            if a.endswith(".rs") and not a.startswith("-") and (i == 0 or args[i - 1] not in RUSTC_VALUE_OPTIONS):
                at = i
                break
    if at is None:
        os.execvp(rustc, [rustc] + args)
    with open(os.path.join(os.environ["PWP_CANARY_DIR"], "canary.json"), encoding="utf-8") as f:
        names = json.load(f)
    work = tempfile.mkdtemp(prefix="pwp-rustc-")
    try:
        copy = mirror(args[at], os.getcwd(), work)
        with open(args[at], encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
        with open(copy, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text + canary_source(names))
        inside = not os.path.relpath(os.path.abspath(args[at]), os.getcwd()).startswith("..")
        remap = "--remap-path-prefix=%s=%s" % (work, os.getcwd() if inside else os.path.dirname(os.path.abspath(args[at])))
        code = subprocess.run([rustc] + args[:at] + [copy, remap] + args[at + 1:]).returncode
    finally:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(code)


if __name__ == "__main__":
    main(sys.argv[1:])
