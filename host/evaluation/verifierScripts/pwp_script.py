# A test script run as `python SCRIPT ARGS...` runs it (its folder first on sys.path, run as
# __main__), for a test command the verifier gives a completion mark (RES-Q's test scripts):
#     /usr/bin/python3 -I /pwp/runner/python/pwp_script.py SCRIPT [ARGS...]
# with the run's mark on file descriptor 3 (the verifier's root-owned runner writes it there
# and closes its end; runTests.js). Before any code of the workspace runs, the mark is read,
# the descriptor closed, and then:
#
# - the script's calls of _pwp_reached_end() print the mark once, and only when called from
#   the script's own code at one of the lines where the script has that call: the mark is in
#   no file, argument, environment variable or command line of this process, and the
#   deliverable, imported by the script, cannot ask for it from anywhere else;
# - the script's comparisons go through pwp_equality.compare and unittest's equality
#   assertions check what they let pass (pwp_equality.py);
# - the task's hidden Python files are sealed (root's alone while the run lasts: the deliverable
#   would read the script's expected values from `sys.argv[0]`): their text comes on the
#   descriptor PWP_SEALED_FD names, read here before the mark is used or anything of the
#   workspace runs; the script is compiled from it and a hidden module it imports is loaded from
#   it, each once, so nothing in the process keeps the text.
#
# The grader decides outside this process (testsGrader.ts): the mark on stdout exactly once
# and exit code 0. Code that walks this process's frames or objects can still find the mark
# or re-run the script's code: that is for the parsed-code check (pythonCodeCheck.ts).
import ast
import linecache
import os
import sys
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pwp_equality  # noqa: E402
import pwp_sealed  # noqa: E402
import pwp_sources  # noqa: E402,F401 (no modules from archives in the workspace)
del sys.path[0]

END = "_pwp_reached_end"


def read_mark(fd=3):
    chunks = []
    try:
        while True:
            b = os.read(fd, 4096)
            if not b:
                break
            chunks.append(b)
        os.close(fd)
    except OSError:
        pass
    return b"".join(chunks).decode("utf-8", "replace").strip()


def code_objects(code):
    out = {id(code)}
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            out |= code_objects(c)
    return out


def end_lines(tree):
    return {n.lineno for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == END}


def reached_end(mark, codes, lines):
    printed = []

    def _pwp_reached_end():
        caller = sys._getframe(1)
        if printed or not mark or id(caller.f_code) not in codes or caller.f_lineno not in lines:
            return
        printed.append(True)
        # Straight to the descriptor: nothing of the deliverable's stands between.
        sys.stdout.flush()
        os.write(1, (mark + "\n").encode())
    return _pwp_reached_end


def main():
    mark = read_mark()
    texts = pwp_sealed.read()
    if len(sys.argv) < 2:
        sys.exit("usage: pwp_script.py SCRIPT [ARGS...]")
    path = os.path.abspath(sys.argv[1])
    source = texts.pop(path, None)
    if source is None:
        with open(path, "rb") as f:
            source = f.read()
    elif not os.path.exists(path):
        # A script handed over only as text (CanItEdit's program with its tests): inspect and
        # tracebacks take its lines from here, as no file holds them.
        linecache.cache[path] = (len(source), None, source.decode("utf-8", "replace").splitlines(True), path)
    if texts:
        # A helper module beside the script, sealed with it.
        pwp_sealed.serve(texts, lambda module, origin, text: exec(compile(text, origin, "exec", dont_inherit=True), module.__dict__))
    tree = ast.parse(source, filename=path)
    lines = end_lines(tree)
    pwp_equality.instrument(tree, import_self=False, skip_asserts=False)
    code = compile(tree, path, "exec", dont_inherit=True)
    pwp_equality.install_unittest()
    main_module = types.ModuleType("__main__")
    main_module.__dict__.update(__file__=path, __builtins__=__builtins__, __spec__=None, __loader__=None)
    main_module.__dict__[pwp_equality.NAME] = pwp_equality
    main_module.__dict__[END] = reached_end(mark, code_objects(code), lines)
    sys.modules["__main__"] = main_module
    sys.argv = sys.argv[1:]
    sys.path.insert(0, os.path.dirname(path))
    exec(code, main_module.__dict__)


main()
