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
#
# In a sealed cargo run (host/evaluation/cargoRun.ts) it is the RUSTC_WRAPPER of every crate and
# $PWP_CARGO_SEALED lists the hidden test sources: while $PWP_CARGO_OPEN does not exist (the
# first build, the sources closed) a crate whose root is one of them is compiled from an empty
# file instead; once it exists (root made it, the sources open) only those crates compile, and
# any other is refused, so nothing of the agent's is compiled while they are readable.
import hashlib
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


def source_at(args):
    """The index of the crate's root file among rustc's arguments, or None (a query, stdin)."""
    for i, a in enumerate(args):
        if a.endswith(".rs") and not a.startswith("-") and (i == 0 or args[i - 1] not in RUSTC_VALUE_OPTIONS):
            return i
    return None


def compile_from(rustc, args, at, text, keep=None):
    """Runs rustc with the crate's root replaced by `text`, in a mirror of its folder: a fresh one,
    removed after, or the one `keep` names, kept (the crate's dep-info names it: cargo takes a
    crate whose files are gone for changed, and a sealed run's second build must find the crates
    of its first unchanged)."""
    work = keep or tempfile.mkdtemp(prefix="pwp-rustc-")
    if keep:
        shutil.rmtree(keep, ignore_errors=True)
        os.makedirs(keep)
    try:
        copy = mirror(args[at], os.getcwd(), work)
        with open(copy, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
        if keep:
            # cargo takes a file newer than the start of its compile for changed: the copy is as old as its source.
            st = os.stat(args[at])
            os.utime(copy, ns=(st.st_atime_ns, st.st_mtime_ns))
        inside = not os.path.relpath(os.path.abspath(args[at]), os.getcwd()).startswith("..")
        remap = "--remap-path-prefix=%s=%s" % (work, os.getcwd() if inside else os.path.dirname(os.path.abspath(args[at])))
        return subprocess.run([rustc] + args[:at] + [copy, remap] + args[at + 1:]).returncode
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)


def main(args):
    rustc, args = args[0], args[1:]
    at = source_at(args)
    sealed = json.loads(os.environ.get("PWP_CARGO_SEALED") or "[]")
    if at is not None and sealed:
        root = os.path.abspath(args[at])
        if not os.path.exists(os.environ["PWP_CARGO_OPEN"]):
            if root in sealed:
                # The first build: an empty crate stands in; its dep-info names a file gone when this
                # ends, so cargo compiles the real one in the second.
                sys.exit(compile_from(rustc, args, at, ""))
        elif root not in sealed:
            sys.stderr.write("pwp: refused to compile %s with the hidden tests readable: only their own crates build then "
                             "(it was not built before they were opened)\n" % args[at])
            sys.exit(1)
    if at is None or "--test" not in args or not os.environ.get("PWP_CANARY_DIR"):
        os.execvp(rustc, [rustc] + args)
    with open(os.path.join(os.environ["PWP_CANARY_DIR"], "canary.json"), encoding="utf-8") as f:
        names = json.load(f)
    with open(args[at], encoding="utf-8", errors="surrogateescape") as f:
        text = f.read()
    # In a sealed run the mirror stays (in the build's own folder) for the second build.
    keep = os.path.join(os.environ["PWP_RUSTC_WORK"], hashlib.sha256("\0".join(args).encode()).hexdigest()[:24]) if sealed else None
    sys.exit(compile_from(rustc, args, at, text + canary_source(names), keep))


if __name__ == "__main__":
    main(sys.argv[1:])
