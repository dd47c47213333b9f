# The inner runners' canary (docs/grading-canary.md): how test_swebench.py runs ctest, cargo test,
# Maven's surefire, Gradle's test task and go test, whose test processes run the deliverable's code. Each run gets
# tests under names drawn now, at least one that must pass and one that must fail, put into the
# same binary (C/C++: main wrapped in every executable; Rust: appended to every test crate), JVM
# (a JUnit class in the tests' package) or package (Go: an overlay file) as the task's tests, and
# the runner's structured report (ctest's JUnit XML, surefire's XML, go test -json; cargo: the
# console counted per test binary) must show them as they must be, once, and agree with the
# console. Otherwise every case fails with "tampering suspected" and the evidence.
#
# Loaded by test_swebench.py from its own folder while the workspace is off sys.path: standard
# library only. Runs as the tests' user, like the deliverable, so it holds what it must hide in
# memory (not readable by the tests' processes: see harden()) and in files under a folder named
# at random; what it cannot hide is in docs/grading-canary.md.
import ctypes
import json
import os
import pathlib
import re
import secrets
import shutil
import signal
import string
import subprocess
import sys
import tempfile
import threading
import xml.etree.ElementTree


# How a grader script's tampering evidence begins (canary.ts GRADER_TAMPERING).
TAMPERING_START = "tampering suspected ("


def tampering(source, evidence):
    """A grader script's tampering evidence, as the first line of a failure: the verifier's grade
    quotes that line and no other, so what a run printed, quoted below it, is never taken for
    evidence. `source` names the check that found it."""
    return "%s%s): %s" % (TAMPERING_START, source, evidence)


# How a failure this canary found begins.
TAMPERING = tampering("runner canary", "")
# At most this many executables get a canary of their own (each adds two tests).
MAX_EXECUTABLES = 200


def word(n):
    return "".join(secrets.choice(string.ascii_lowercase) for _ in range(n))


def snake():
    # Named as C, C++ and Rust tests are: lowercase words joined by "_".
    return "%s_%s" % (word(secrets.choice((5, 6, 7))), word(secrets.choice((6, 7, 8))))


def harden():
    """This process: not dumpable (its memory and environment are root's to read in /proc, not
    the tests'), and the reaper of every process the run leaves (a daemon that outlives the
    runner is reparented here and killed before anything is read)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(4, 0, 0, 0, 0)   # PR_SET_DUMPABLE
        libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        pass


def _children():
    me = os.getpid()
    out = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % pid) as f:
                stat = f.read()
        except OSError:
            continue
        # The command name may hold spaces and parentheses: the fields follow the last ")".
        fields = stat[stat.rfind(")") + 2:].split()
        if len(fields) > 1 and int(fields[1]) == me and fields[0] != "Z":
            out.append(int(pid))
    return out


def reap():
    """Kills every process left under this one (the subreaper's orphans included); how many."""
    killed = 0
    for _ in range(100):
        left = _children()
        if not left:
            break
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except OSError:
                pass
        while True:
            try:
                pid, _status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
    return killed


def run(argv, cwd, env, timeout, pass_fds=()):
    """The command with stdout and stderr on one pipe (the order cargo's lines need): its exit
    code (None when it timed out) and output. Whatever it leaves running is killed once it
    exits, before its reports are read. `pass_fds` go to the command and are closed here once
    it has started (their readers see the end when its processes are gone)."""
    try:
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, pass_fds=pass_fds)
    finally:
        for fd in pass_fds:
            os.close(fd)
    chunks = []

    def read():
        for chunk in iter(lambda: proc.stdout.read(65536), b""):
            chunks.append(chunk)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        code = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        code = None
    reap()
    reader.join(30)
    return code, b"".join(chunks).decode("utf-8", "replace")


def collect(pairs):
    # A test reported more than once (a name in two binaries) passes only if it passed every time.
    seen = {}
    for name, status in pairs:
        seen.setdefault(name, []).append(status)
    return {k: "passed" if all(s == "passed" for s in v) else "skipped" if all(s == "skipped" for s in v) else "failed" for k, v in seen.items()}


class Tampering(Exception):
    pass


class NoRun(Exception):
    """The runner did not run the tests (a build that failed): nothing passed, nobody forged."""


def _script(path, text):
    path.write_text(text)
    path.chmod(0o700)


def shim(function, *args):
    """A program that calls this file's `function` with `args` and its own arguments: Python
    isolated from the tests' environment (-I), this file loaded by its path."""
    return ("#!%s -I\nimport importlib.util, sys\nspec = importlib.util.spec_from_file_location('runner_canary', %r)\n"
            "module = importlib.util.module_from_spec(spec)\nspec.loader.exec_module(module)\nmodule.%s(*%r, sys.argv[1:])\n"
            % (sys.executable, os.path.abspath(__file__), function, args))


def _which(name, env):
    found = shutil.which(name, path=env.get("PATH", os.defpath))
    if not found:
        raise FileNotFoundError("%s is not on the tests' PATH" % name)
    return found


def copy_sealed(sealed, place):
    """The sealed sources ({path: text}) written where `place(path, i)` says: {path: copy}."""
    copies = {}
    for path, text in sorted(sealed.items()):
        copy = place(os.path.normpath(path), len(copies))
        copy.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        copy.write_bytes(text)
        copies[os.path.normpath(path)] = str(copy)
    return copies


def _is_open(fd):
    try:
        os.fstat(fd)
        return True
    except OSError:
        return False


# ---- ctest (C and C++) ------------------------------------------------------------------------
#
# A `cmake` first on PATH configures with CMAKE_PROJECT_INCLUDE set to a file that, once the
# top-level CMakeLists.txt is processed (cmake_language DEFER), gives every executable of the
# project (a) a main of the canary's (ld --wrap=main) that answers the canary's two arguments
# and hands every other run to the program's own main, and (b) a companion executable compiled
# in the executable's own setting (include folders, definitions, options, libraries) whose
# source includes what the executable's sources include, in their order, then makes the same
# comparisons tests make (strcmp, memcmp, ==, if, return): a header that neuters them changes
# its outcome. Each gets a test that must pass and one that must fail, under drawn names. A
# `ctest` first on PATH adds --output-junit; the PATH the tests see is the original one.

CTEST_CANARY_CMAKE = r"""
function(pwp_canary_targets dir out)
  get_property(t DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(s IN LISTS subs)
    pwp_canary_targets("${s}" more)
    list(APPEND t ${more})
  endforeach()
  set(${out} ${t} PARENT_SCOPE)
endfunction()

function(pwp_canary_add)
  enable_testing()
  pwp_canary_targets("${CMAKE_SOURCE_DIR}" all)
  list(SORT all)
  # A target that compiles a sealed source compiles through the grader's launcher (compile_shim).
  foreach(t IN LISTS all)
    get_target_property(type ${t} TYPE)
    get_target_property(imported ${t} IMPORTED)
    if(NOT PWP_SEALED OR imported OR NOT type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY)$")
      continue()
    endif()
    get_target_property(srcs ${t} SOURCES)
    get_target_property(sdir ${t} SOURCE_DIR)
    foreach(s IN LISTS srcs)
      get_filename_component(s "${s}" ABSOLUTE BASE_DIR "${sdir}")
      if(s IN_LIST PWP_SEALED)
        set_target_properties(${t} PROPERTIES C_COMPILER_LAUNCHER "${PWP_LAUNCHER}" CXX_COMPILER_LAUNCHER "${PWP_LAUNCHER}")
        break()
      endif()
    endforeach()
  endforeach()
  get_property(langs GLOBAL PROPERTY ENABLED_LANGUAGES)
  set(i 0)
  foreach(t IN LISTS all)
    get_target_property(type ${t} TYPE)
    get_target_property(imported ${t} IMPORTED)
    get_target_property(excluded ${t} EXCLUDE_FROM_ALL)
    if(NOT type STREQUAL "EXECUTABLE" OR imported OR excluded OR i GREATER_EQUAL @MAX@)
      continue()
    endif()
    get_target_property(srcs ${t} SOURCES)
    get_target_property(sdir ${t} SOURCE_DIR)
    set(lang "")
    set(files "")
    foreach(s IN LISTS srcs)
      if(s MATCHES "^\\$<")
        continue()
      endif()
      if(NOT IS_ABSOLUTE "${s}")
        set(s "${sdir}/${s}")
      endif()
      if(s MATCHES "\\.(cc|cpp|cxx|c\\+\\+|C)$")
        set(lang CXX)
      elseif(s MATCHES "\\.c$" AND NOT lang)
        set(lang C)
      endif()
      list(APPEND files "${s}")
    endforeach()
    if(NOT lang OR NOT lang IN_LIST langs)
      continue()
    endif()
    if(lang STREQUAL "CXX")
      set(ext cc)
    else()
      set(ext c)
    endif()
    list(GET PWP_PASS ${i} pass)
    list(GET PWP_FAIL ${i} fail)
    list(GET PWP_HPASS ${i} hpass)
    list(GET PWP_HFAIL ${i} hfail)
    string(REPLACE ";" "|" joined "${files}")
    file(APPEND "@DIR@/executables.txt" "${i}\t${t}\t${lang}\t${joined}\n")
    set(main "@DIR@/main_${i}.${ext}")
    set(hdr "@DIR@/headers_${i}.${ext}")
    # Written empty now (a source must exist when the build is generated), filled in by the
    # cmake shim once the configuration has run.
    file(WRITE "${main}" "")
    file(WRITE "${hdr}" "")
    target_sources(${t} PRIVATE "${main}")
    target_link_options(${t} PRIVATE "LINKER:--wrap=main")
    # Where it is built: the tests that run it are found by it in ctest's list.
    file(GENERATE OUTPUT "@DIR@/exe_${i}_$<CONFIG>.txt" CONTENT "$<TARGET_FILE:${t}>")
    add_test(NAME ${pass} COMMAND ${t} ${pass})
    add_test(NAME ${fail} COMMAND ${t} ${fail})
    # The headers' companion, in the executable's own setting.
    set(h "${hpass}_${hfail}")
    add_executable(${h} "${hdr}")
    get_target_property(libs ${t} LINK_LIBRARIES)
    if(libs)
      target_link_libraries(${h} PRIVATE ${libs})
    endif()
    target_include_directories(${h} PRIVATE "$<TARGET_PROPERTY:${t},INCLUDE_DIRECTORIES>")
    target_compile_definitions(${h} PRIVATE "$<TARGET_PROPERTY:${t},COMPILE_DEFINITIONS>")
    target_compile_options(${h} PRIVATE "$<TARGET_PROPERTY:${t},COMPILE_OPTIONS>")
    foreach(p C_STANDARD CXX_STANDARD C_EXTENSIONS CXX_EXTENSIONS)
      get_target_property(v ${t} ${p})
      if(v)
        set_target_properties(${h} PROPERTIES ${p} "${v}")
      endif()
    endforeach()
    add_test(NAME ${hpass} COMMAND ${h} ${hpass})
    add_test(NAME ${hfail} COMMAND ${h} ${hfail})
    math(EXPR i "${i} + 1")
  endforeach()
endfunction()
pwp_canary_add()
"""

CTEST_INJECT_CMAKE = """get_property(_pwp_deferred GLOBAL PROPERTY PWP_CANARY_DEFERRED)
if(NOT _pwp_deferred)
  set_property(GLOBAL PROPERTY PWP_CANARY_DEFERRED 1)
  cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL include "@DIR@/canary.cmake")
endif()
"""

# The main of every executable: the canary's two runs, and every other run the program's own,
# whose outcome counts only when that main returned: a line on the grader's channel (a pipe the
# tests inherit, which none of them can read) with the executable's key, a hash of the run's
# arguments and the status. A process that ends any other way (exit or _exit from the
# deliverable's code, a constructor's, a signal) leaves none, and its test fails. The key is
# kept in two halves whose exclusive or it is: it is in no file the tests can read as such.
C_MAIN = r"""/* pwp's canary (docs/grading-canary.md). */
#include <string.h>
#include <unistd.h>
@EXTERN@ int __real_main(int, char **, char **);
static const unsigned char pwp_k1[16] = {@K1@}, pwp_k2[16] = {@K2@};
static int pwp_is(const char *a, const char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}
static void pwp_report(int argc, char **argv, int code)
{
    /* No casts and no narrowing: the executable's own warning options (-Werror with
       -Wold-style-cast, -Wconversion...) apply to this file too. */
    static const char hex[] = "0123456789abcdef";
    unsigned long h = 2166136261UL;
    char line[64];
    size_t n = 0;
    int i;
    /* FNV-1a (32 bits: C90 has no wider type) over the arguments after the program's name,
       each with its NUL. */
    for (i = 1; i < argc; i++) {
        const char *p = argv[i];
        unsigned char c;
        do {
            memcpy(&c, p, 1);
            h ^= c;
            h = (h * 16777619UL) & 0xffffffffUL;
        } while (*p++);
    }
    for (i = 0; i < 16; i++) {
        int c = pwp_k1[i] ^ pwp_k2[i];
        line[n++] = hex[c >> 4];
        line[n++] = hex[c & 15];
    }
    line[n++] = ' ';
    for (i = 28; i >= 0; i -= 4)
        line[n++] = hex[(h >> i) & 15];
    line[n++] = ' ';
    /* The status the process exits with. */
    code &= 255;
    line[n++] = hex[code / 100];
    line[n++] = hex[code / 10 % 10];
    line[n++] = hex[code % 10];
    line[n++] = '\n';
    /* One write of less than PIPE_BUF: never interleaved with another process's. */
    if (write(@FD@, line, n) < 0)
        return;
}
@EXTERN@ int __wrap_main(int argc, char **argv, char **envp)
{
    int code;
    if (argc == 2 && pwp_is(argv[1], "@FAIL@"))
        return 1;
    code = (argc == 2 && pwp_is(argv[1], "@PASS@")) ? 0 : __real_main(argc, argv, envp);
    pwp_report(argc, argv, code);
    return code;
}
"""


def args_hash(args):
    """C_MAIN's hash of a run's arguments (after the program's name)."""
    h = 2166136261
    for a in args:
        for b in a.encode("utf-8", "surrogateescape") + b"\0":
            h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    return "%08x" % h


# Names a test's headers must not define as macros: the keywords and functions tests compare
# and report with, and main.
SHADOWED = ("if", "else", "for", "while", "do", "switch", "case", "return", "break", "continue", "goto", "int", "char", "long",
            "unsigned", "signed", "void", "static", "const", "volatile", "sizeof", "struct", "main", "exit", "_exit", "_Exit",
            "abort", "strcmp", "strncmp", "memcmp", "strcasecmp", "strncasecmp", "strlen", "abs", "labs", "fabs", "fprintf", "printf")

# The headers' companion: after the executable's own includes, comparisons as tests make them.
C_HEADERS = r"""/* pwp's canary (docs/grading-canary.md): what the tests' headers do to a test's comparisons. */
@INCLUDES@
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
@SHADOW@
static volatile int pwp_one = 1;

static int pwp_is(const char *a, const char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}

static int pwp_checks(int must_equal)
{
    char a[16] = "pwp-canary", b[16] = "pwp-canary";
    int hold = 0, n = 0;
    if (!must_equal)
        b[4] = (char)('A' + pwp_one);
    n++; if ((strcmp(a, b) == 0) == must_equal) hold++;
    n++; if ((strncmp(a, b, 10) == 0) == must_equal) hold++;
    n++; if ((memcmp(a, b, 10) == 0) == must_equal) hold++;
    n++; if ((strlen(a) == strlen(b) && a[4] == b[4]) == must_equal) hold++;
    n++; if (((pwp_one + (must_equal ? 0 : 1)) == 1) == must_equal) hold++;
    return hold == n;
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
#ifdef PWP_SHADOWED
    fprintf(stderr, "macros over names tests use: %s\n", PWP_SHADOWED);
    return 3;
#endif
    /* Each outcome says whether the comparisons behaved: the one that must fail passes when they did not. */
    if (pwp_is(argv[1], "@HPASS@"))
        return pwp_checks(1) ? 0 : 1;
    if (pwp_is(argv[1], "@HFAIL@")) {
        if (!pwp_checks(0))
            return 0;
        fprintf(stderr, "expected failure\n");
        return 1;
    }
    return 4;
}
"""

INCLUDE_LINE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"]+)[>"]', re.M)
HEADER_EXT = re.compile(r"\.(c|cc|cpp|cxx|c\+\+|C|m|mm|s|S)$")


def replayed_includes(files, sealed=None):
    """The #include lines of the executable's sources, in order, each guarded by __has_include
    (a quoted one as found beside its source), leaving out included sources (.c, .cc...). A
    sealed source is read from its copy (`sealed`: path -> copy)."""
    out, seen = [], set()
    for f in files:
        try:
            text = pathlib.Path((sealed or {}).get(f, f)).read_text(errors="replace")
        except OSError:
            continue
        for m in INCLUDE_LINE.finditer(text):
            kind, name = m.groups()
            if HEADER_EXT.search(name):
                continue
            if kind == '"':
                beside = os.path.join(os.path.dirname(f), name)
                spelled = '"%s"' % (os.path.abspath(beside) if os.path.isfile(beside) else name)
            else:
                spelled = "<%s>" % name
            if spelled in seen:
                continue
            seen.add(spelled)
            out.append("#if __has_include(%s)\n#include %s\n#endif" % (spelled, spelled))
    return "\n".join(out)


def shadow_check():
    """Defines PWP_SHADOWED (the names, at run time) when an included header made a macro of a
    name tests compare and report with."""
    cond = " || ".join("defined(%s)" % n for n in SHADOWED)
    each = "\n".join("#ifdef %s\n    strcat(s, \" %s\");\n#endif" % (n, n) for n in SHADOWED)
    return ("#if %s\nstatic const char *pwp_shadowed(void)\n{\n    static char s[512];\n%s\n    return s;\n}\n"
            "#define PWP_SHADOWED pwp_shadowed()\n#endif" % (cond, each))


class CtestCanary:
    """ctest's canary. `sealed`: the hidden test sources the verifier sealed ({path: text}: root's
    alone while the tests' user runs anything), which the compiler launcher (compile_shim)
    compiles from copies in the canary's folder, a folder no source can name (.incbin and
    #include take no pattern); the ctest shim removes the copies before any test runs."""

    def __init__(self, workspace, env, scratch, sealed=None):
        self.workspace, self.scratch = workspace, scratch
        self.dir = scratch / ("c" + word(16))
        self.dir.mkdir(mode=0o700)
        self.reports = scratch / ("r" + word(16))
        self.reports.mkdir(mode=0o700)
        bins = scratch / ("b" + word(16))
        bins.mkdir(mode=0o700)
        self.names = [[snake() for _ in range(MAX_EXECUTABLES)] for _ in range(4)]
        self.keys = [secrets.token_bytes(16) for _ in range(MAX_EXECUTABLES)]
        self.env = dict(env)
        # The channel C_MAIN reports on: a pipe's writing end at a number drawn now, which every
        # process of the run inherits; its reading end is this process's alone.
        read, write = os.pipe()
        fd = 100 + secrets.randbelow(800)
        while _is_open(fd):
            fd = 100 + secrets.randbelow(800)
        os.dup2(write, fd, inheritable=True)
        os.close(write)
        self.pass_fds, self.fd = (fd,), fd
        self.reported = []
        self._reader = threading.Thread(target=self._read_channel, args=(read,), daemon=True)
        self._reader.start()
        cmake, ctest = _which("cmake", env), _which("ctest", env)
        lists = "\n".join('set(%s "%s")' % (k, ";".join(v)) for k, v in zip(("PWP_PASS", "PWP_FAIL", "PWP_HPASS", "PWP_HFAIL"), self.names))
        (self.dir / "inject.cmake").write_text(CTEST_INJECT_CMAKE.replace("@DIR@", str(self.dir)))
        # What the cmake shim needs to write the canary's sources; the ctest shim removes them
        # (and this) before any test runs.
        split = [secrets.token_bytes(16) for _ in self.keys]
        halves = [[k1.hex(), bytes(a ^ b for a, b in zip(k1, k)).hex()] for k1, k in zip(split, self.keys)]
        # Under the same paths below a folder of the canary's, so that a quoted include of one
        # sealed file by another finds its copy.
        copies = copy_sealed(sealed or {}, lambda path, i: self.dir / "s" / path.lstrip("/"))
        if copies:
            # Not named as a compiler: this folder is first on the tests' PATH.
            _script(bins / "pwp-compile", shim("compile_shim", str(self.dir)))
            lists += '\nset(PWP_SEALED "%s")\nset(PWP_LAUNCHER "%s")' % (";".join(copies), bins / "pwp-compile")
        (self.dir / "canary.cmake").write_text(lists + CTEST_CANARY_CMAKE.replace("@DIR@", str(self.dir)).replace("@MAX@", str(MAX_EXECUTABLES)))
        (self.dir / "spec.json").write_text(json.dumps({"dir": str(self.dir), "names": self.names, "keys": halves, "fd": fd, "sealed": copies}))
        _script(bins / "cmake", shim("cmake_shim", cmake, str(self.dir), env.get("PATH", "")))
        _script(bins / "ctest", shim("ctest_shim", ctest, str(self.reports), str(self.dir), env.get("PATH", "")))
        self.env["PATH"] = str(bins) + os.pathsep + env.get("PATH", "")

    def _read_channel(self, fd):
        with os.fdopen(fd, "rb") as f:
            for line in f:
                self.reported.append(line)

    def runs(self):
        """What reached the channel: {(executable index, arguments' hash): [status]}, and the
        lines that are not C_MAIN's (none in an honest run)."""
        self._reader.join(60)
        by_key = {k.hex(): i for i, k in enumerate(self.keys)}
        out, foreign = {}, []
        for line in self.reported:
            words = line.decode("ascii", "replace").split()
            if len(words) == 3 and words[0] in by_key and re.fullmatch(r"[0-9a-f]{8}", words[1]) and re.fullmatch(r"\d{3}", words[2]):
                out.setdefault((by_key[words[0]], words[1]), []).append(int(words[2]))
            else:
                foreign.append(line[:80])
        return out, foreign

    def commands(self):
        """ctest's tests as the ctest shim listed them: {name: [argument, ...]} for each test whose
        command runs an executable with the canary's main (index, the arguments after it)."""
        exes = canary_executables(self.dir)
        out = {}
        for listing in self.reports.glob("*.json"):
            try:
                tests = json.loads(listing.read_text()).get("tests", [])
            except (OSError, ValueError, AttributeError) as err:
                raise Tampering("ctest's list of its tests cannot be read: %s" % err)
            for t in tests:
                command = t.get("command") or []
                at = next((j for j, a in enumerate(command) if os.path.realpath(a) in exes), None)
                if at is not None:
                    out[t.get("name", "")] = (exes[os.path.realpath(command[at])], command[at + 1:])
        return out

    def used(self):
        """The executables that got a canary, by index: [(index, target)]."""
        try:
            lines = (self.dir / "executables.txt").read_text().splitlines()
        except OSError:
            return []
        return [(int(l.split("\t")[0]), l.split("\t")[1]) for l in lines if l.count("\t") >= 3]

    def check(self, code, log):
        said = re.search(r"^%s(.* defines .*)$" % SHIM_SAYS, log, re.M)
        if said:
            raise Tampering(said.group(1))
        reports = sorted(self.reports.glob("*.xml"))
        if not reports:
            raise NoRun("ctest did not run the tests (it wrote no JUnit report)")
        cases = []
        for r in reports:
            try:
                root = xml.etree.ElementTree.parse(r).getroot()
            except xml.etree.ElementTree.ParseError as err:
                raise Tampering("ctest's JUnit report cannot be read: %s" % err)
            for case in root.iter("testcase"):
                status = case.get("status", "")
                bad = case.find("failure") is not None or case.find("error") is not None
                skip = case.find("skipped")
                # "notrun" is a skip (SKIP_RETURN_CODE, SKIP_REGULAR_EXPRESSION) or a test that
                # could not start (no executable, a failed fixture), which ctest counts as failed.
                skipped = status == "disabled" or (skip is not None and skip.get("message", "").upper().startswith("SKIP"))
                cases.append((case.get("name", ""), "failed" if bad or status in ("fail", "notrun") and not skipped else "skipped" if skipped else "passed"))
        console = ctest_console(log)
        expected = {}
        for i in range(MAX_EXECUTABLES):
            for names, must in ((self.names[0], "passed"), (self.names[1], "failed"), (self.names[2], "passed"), (self.names[3], "failed")):
                expected[names[i]] = must
        in_report = [(n, s) for n, s in cases if n in expected]
        in_console = [(n, s) for n, s in console["tests"] if n in expected]
        # Executables get the canary in order: the first k pairs of each list, none after.
        k = len({n for n, _ in in_report if n in self.names[0]})
        want = {self.names[j][i]: expected[self.names[j][i]] for i in range(k) for j in range(4)}
        if not k:
            raise Tampering("ctest's report has no canary test (%s, %s must have run)" % (self.names[0][0], self.names[1][0]))
        for label, found in (("report", in_report), ("console", in_console)):
            got = {}
            for n, s in found:
                got.setdefault(n, []).append(s)
            for n, must in want.items():
                if got.get(n) != [must]:
                    raise Tampering("ctest's %s shows the canary test %s that must have %s as %s" % (label, n, must, got.get(n, "missing")))
            extra = [n for n in got if n not in want]
            if extra:
                raise Tampering("ctest's %s shows canary names no executable was given: %s" % (label, extra[0]))
        # The report and the console tell the same run, and ctest's summary is said once.
        if len(console["summaries"]) != 1:
            raise Tampering("ctest printed %d summaries (\"N tests failed out of M\"), one is not its own: %s" % (len(console["summaries"]), console["summaries"][:3]))
        failed, total = console["summaries"][0]
        r_failed = sum(1 for _, s in cases if s == "failed")
        if total != len(cases) or failed != r_failed:
            raise Tampering("ctest's summary says %d failed out of %d, its report has %d failed out of %d" % (failed, total, r_failed, len(cases)))
        rep, con = collect(cases), collect(console["tests"])
        differ = sorted(n for n in set(rep) | set(con) if rep.get(n) != con.get(n))
        if differ:
            raise Tampering("ctest's report and console disagree on %s (report %s, console %s)" % (differ[0], rep.get(differ[0], "missing"), con.get(differ[0], "missing")))
        if code == 0:
            raise Tampering("the test command exited with 0 though the canary's tests that must fail failed")
        return self.returned(collect((n, s) for n, s in cases if n not in expected), k)

    def returned(self, found, k):
        """`found` with each test ctest passed whose program has the canary's main failed unless
        that main returned 0 (C_MAIN's line on the channel): a process the deliverable ended
        early, with exit(0) from a function the test calls or _exit(0) in a constructor, did
        not run the test."""
        runs, foreign = self.runs()
        if foreign:
            raise Tampering("a line that no canary main wrote reached the canary's channel: %r" % foreign[0])
        commands = self.commands()
        left = {key: list(v) for key, v in runs.items()}

        def reported(name):
            i, args = commands[name]
            got = left.get((i, args_hash(args)), [])
            if 0 in got:
                got.remove(0)
                return True
            return False

        for i in range(k):
            name = self.names[0][i]
            if name not in commands:
                raise NoRun("ctest's list of its tests does not have the canary test %s" % name)
            if not reported(name):
                raise Tampering("the canary test %s passed without its main's report on the canary's channel (the channel was closed, or the process ended before main returned)" % name)
        out = dict(found)
        for name, status in found.items():
            if status == "passed" and name in commands and not reported(name):
                out[name] = "failed: ctest passed it, but its main did not return 0 (the process ended some other way: exit or _exit before main's end, a constructor's, a signal)"
        return out


def ctest_console(log):
    """ctest's console: each test's result line and the summary lines (a test's own output is
    prefixed "N: " under -V, so no line of it is taken for ctest's)."""
    tests = [(m.group(1), "passed" if m.group(2) == "Passed" else "skipped" if re.search(r"Skipped|Disabled", m.group(2)) else "failed")
             for m in re.finditer(r"^\s*\d+/\d+ Test\s+#\d+: (\S+) \.*\s*(Passed\b|\*\*\*.*|Not Run.*)", log, re.M)]
    summaries = [(int(m.group(1)), int(m.group(2))) for m in re.finditer(r"^\s*\d+% tests passed, (\d+) tests? failed out of (\d+)\s*$", log, re.M)]
    return {"tests": tests, "summaries": summaries}


def cmake_shim(real, canary_dir, path, args):
    """`cmake`: a configuring run gets the canary's project include; once it has run, the
    canary's sources are written for the executables it found."""
    configures = not args or args[0] not in ("--build", "-E", "-P", "--install", "--open", "--version", "--help", "-N", "--system-information", "--find-package", "--workflow")
    if not configures:
        os.execv(real, [real] + args)
    r = subprocess.run([real, "-DCMAKE_PROJECT_INCLUDE=%s/inject.cmake" % canary_dir] + args)
    if r.returncode == 0:
        write_c_sources(pathlib.Path(canary_dir), json.loads(pathlib.Path(canary_dir, "spec.json").read_text()))
    sys.exit(r.returncode)


def canary_executables(canary_dir):
    """Where the executables with the canary's main were built (canary.cmake's exe_N files):
    {real path: N}."""
    out = {}
    for f in pathlib.Path(canary_dir).glob("exe_*.txt"):
        try:
            out[os.path.realpath(f.read_text().strip())] = int(f.name.split("_")[1])
        except (OSError, ValueError):
            continue
    return out


def c_bytes(hexed):
    return ", ".join("0x%s" % hexed[j:j + 2] for j in range(0, len(hexed), 2))


def write_c_sources(d, spec):
    names = spec["names"]
    try:
        lines = (d / "executables.txt").read_text().splitlines()
    except OSError:
        return
    for line in lines:
        i, _target, lang, files = line.split("\t", 3)
        i = int(i)
        ext = "cc" if lang == "CXX" else "c"
        extern = 'extern "C"' if lang == "CXX" else ""
        (d / ("main_%d.%s" % (i, ext))).write_text(C_MAIN.replace("@EXTERN@", extern).replace("@PASS@", names[0][i]).replace("@FAIL@", names[1][i])
                                                    .replace("@K1@", c_bytes(spec["keys"][i][0])).replace("@K2@", c_bytes(spec["keys"][i][1])).replace("@FD@", str(spec["fd"])))
        (d / ("headers_%d.%s" % (i, ext))).write_text(
            C_HEADERS.replace("@INCLUDES@", replayed_includes(files.split("|"), spec.get("sealed", {}))).replace("@SHADOW@", shadow_check())
            .replace("@HPASS@", names[2][i]).replace("@HFAIL@", names[3][i]))


# Functions of the C library the tests compare, report and end with. A program of the tests (or a
# shared library of the build) that defines one answers for them with the deliverable's code,
# which could do so only where it is not the headers' companion (by the program's name).
INTERPOSED = ("strcmp", "strncmp", "memcmp", "bcmp", "strcasecmp", "strncasecmp", "strlen", "strcoll", "wcscmp", "abs",
              "labs", "fabs", "exit", "_exit", "_Exit", "abort", "printf", "fprintf", "puts", "fputs")
# How the ctest shim says what it found, at the start of a line of the run's output (a test's own
# output is prefixed "N: ").
SHIM_SAYS = "pwp canary: "


def interposed(canary_dir, test_dir, env):
    """[(file, name)]: the canary's executables and the build's shared libraries that define one
    of INTERPOSED (nm's external symbols; a shared library's dynamic ones)."""
    nm = _which("nm", env)
    files = [(path, []) for path in canary_executables(canary_dir)]
    for root, _dirs, names in os.walk(test_dir):
        files += [(os.path.join(root, n), ["-D"]) for n in names if re.search(r"\.so(\.\d+)*$", n)]
    found = []
    for path, how in files:
        r = subprocess.run([nm, "-g", "--defined-only"] + how + [path], stdin=subprocess.DEVNULL, capture_output=True, text=True)
        for line in r.stdout.splitlines():
            words = line.split()
            # Code (T, W), an indirect function (i) or a weak object (V): what a call can land on.
            if len(words) >= 3 and words[1] in ("T", "W", "i", "V") and words[2].split("@")[0] in INTERPOSED:
                found.append((path, words[2].split("@")[0]))
    return found


def compile_shim(canary_dir, args):
    """The compiler launcher of a build with sealed sources: a compilation of one compiles its
    copy instead, as if from its own folder (quoted includes beside it, __FILE__ and debug
    information its path); any other runs as it is."""
    spec = json.loads(pathlib.Path(canary_dir, "spec.json").read_text())
    sealed = spec.get("sealed") or {}
    at = next((j for j, a in enumerate(args) if j and os.path.isabs(a) and os.path.normpath(a) in sealed), None)
    if at is not None:
        original = os.path.normpath(args[at])
        copy = sealed[original]
        args = [args[0], "-iquote", os.path.dirname(original), "-ffile-prefix-map=%s/s=" % canary_dir] + args[1:at] + [copy] + args[at + 1:]
    os.execvp(args[0], args)


def ctest_shim(real, reports, canary_dir, path, args):
    """`ctest`: its JUnit report to the grader's folder, and beside it the list of the tests as
    it will run them (which executable, which arguments: CtestCanary.commands); the canary's
    sources and their keys removed before any test runs; the tests see the original PATH."""
    env = dict(os.environ, PATH=path)
    listed = subprocess.run([real, "--show-only=json-v1"] + [a for a in args if a not in ("-V", "--verbose", "-VV", "--extra-verbose")],
                            env=env, stdin=subprocess.DEVNULL, capture_output=True)
    if listed.returncode == 0:
        pathlib.Path(reports, word(12) + ".json").write_bytes(listed.stdout)
    test_dir = args[args.index("--test-dir") + 1] if "--test-dir" in args[:-1] else os.getcwd()
    try:
        found = interposed(canary_dir, test_dir, env)
    except (OSError, ValueError) as err:
        found = []
        print("%scould not look for functions of the C library the build defines: %s" % (SHIM_SAYS, err), flush=True)
    if found:
        print("%s%s defines %s, a function of the C library the tests compare, report or end with" % (SHIM_SAYS, found[0][0], found[0][1]), flush=True)
        sys.exit(3)
    d = pathlib.Path(canary_dir)
    for f in [d / "spec.json", d / "canary.cmake"] + list(d.glob("main_*")) + list(d.glob("headers_*")):
        try:
            f.unlink()
        except OSError:
            pass
    # The sealed sources' copies too: from here on only the tests run.
    shutil.rmtree(d / "s", ignore_errors=True)
    os.execve(real, [real, "--output-junit", "%s/%s.xml" % (reports, word(12))] + args, env)


# ---- cargo test (Rust) --------------------------------------------------------------------------
#
# RUSTC_WORKSPACE_WRAPPER is the verifier's own (verifierScripts/pwp_rustc.py, at RUSTC_CANARY):
# it compiles every test crate with the canary's tests appended at its root. The build goes to
# a target folder of the grader's (nothing the agent built is run). libtest's structured output
# (--format json) needs RUSTC_BOOTSTRAP, which would also let the deliverable use unstable
# features stable cargo refuses: the console is read instead, strictly, per test binary.

# Where the verifier's runner keeps the wrapper (isolatedRunner.ts RUSTC_CANARY); a run outside
# the verifier (the grader's own tests) names the repository's copy.
RUSTC_CANARY = os.environ.get("PWP_RUSTC_CANARY") or "/pwp/runner/cargo/pwp_rustc"


CARGO_HEADER = re.compile(r"^\s+(Running|Doc-tests) (.*)$")
LIBTEST_RUNNING = re.compile(r"^running (\d+) tests?$")
LIBTEST_LINE = re.compile(r"^test (.+?) \.\.\. (ok|FAILED|ignored)\b")
LIBTEST_RESULT = re.compile(r"^test result: (ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; (\d+) measured; (\d+) filtered out")


def cargo_blocks(log):
    """The log cut at cargo's "Running X"/"Doc-tests X" lines: [(header, lines)], the lines
    before the first header under None."""
    blocks = [(None, [])]
    for line in log.splitlines():
        m = CARGO_HEADER.match(line)
        if m:
            blocks.append((m.group(1) + " " + m.group(2), []))
        else:
            blocks[-1][1].append(line)
    return blocks


def libtest_account(lines):
    """One binary's libtest output: its "running N" lines, result lines and summaries, leaving
    out the failures' report (from "failures:" to the summary: the tests' captured output)."""
    running, results, summaries = [], [], []
    in_failures = False
    for line in lines:
        s = line.rstrip("\r")
        if LIBTEST_RESULT.match(s):
            m = LIBTEST_RESULT.match(s)
            summaries.append(tuple(int(m.group(k)) for k in (2, 3, 4)))
            in_failures = False
            continue
        if in_failures:
            continue
        if s == "failures:":
            in_failures = True
            continue
        m = LIBTEST_RUNNING.match(s)
        if m:
            running.append(int(m.group(1)))
            continue
        m = LIBTEST_LINE.match(s)
        if m:
            results.append((m.group(1), {"ok": "passed", "ignored": "skipped"}.get(m.group(2), "failed")))
    return running, results, summaries


class CargoCanary:
    def __init__(self, workspace, env, scratch):
        self.dir = scratch / ("c" + word(16))
        self.dir.mkdir(mode=0o700)
        self.passing, self.failing = snake(), snake()
        (self.dir / "canary.json").write_text(json.dumps({"pass": [self.passing], "fail": [self.failing]}))
        self.env = dict(env, RUSTC_WORKSPACE_WRAPPER=RUSTC_CANARY, PWP_CANARY_DIR=str(self.dir), CARGO_TARGET_DIR=str(scratch / ("t" + word(12))))

    def check(self, code, log):
        out = []
        binaries = 0
        for header, lines in cargo_blocks(log):
            running, results, summaries = libtest_account(lines)
            where = header or "before cargo ran any test binary"
            if header is None or not header.startswith(("Running", "Doc-tests")):
                if results or summaries or running:
                    raise Tampering("a test result line outside any test binary's output (%s): %s" % (where, (results or [("", "")])[0][0]))
                continue
            if not (results or summaries or running):
                continue
            if len(summaries) != 1 or len(running) != 1:
                if len(summaries) > 1 or len(running) > 1:
                    raise Tampering("%s printed %d \"running N tests\" lines and %d summaries; libtest prints one of each" % (where, len(running), len(summaries)))
                # A binary that did not finish (a crash, a timeout): none of its results count.
                continue
            n = running[0]
            passed, failed, ignored = summaries[0]
            counts = (sum(1 for _, s in results if s == "passed"), sum(1 for _, s in results if s == "failed"), sum(1 for _, s in results if s == "skipped"))
            if len(results) != n or counts != (passed, failed, ignored):
                raise Tampering("%s: %d result lines (%d passed, %d failed, %d ignored) under \"running %d tests\" and a summary of %d passed, %d failed, %d ignored"
                                % (where, len(results), counts[0], counts[1], counts[2], n, passed, failed, ignored))
            names = [r for r, _ in results]
            if len(set(names)) != len(names):
                raise Tampering("%s reports %s twice" % (where, next(x for x in names if names.count(x) > 1)))
            if header.startswith("Running"):
                binaries += 1
                got = dict(results)
                for name, must in ((self.passing, "passed"), (self.failing, "failed")):
                    if got.get(name) != must:
                        raise Tampering("%s shows the canary test %s that must have %s as %s" % (where, name, must, got.get(name, "missing")))
            out.extend((r, s) for r, s in results if r not in (self.passing, self.failing))
        if binaries and code == 0:
            raise Tampering("cargo test exited with 0 though the canary's tests that must fail failed")
        if not binaries and out:
            raise Tampering("test results but no test binary ran the canary")
        return collect(out)


# ---- Maven surefire (Java) -------------------------------------------------------------------
#
# A JUnit class under a drawn name (…Test, which surefire's default includes take) in the
# package of the hidden tests, in the JUnit the tests use, run by surefire in the same JVM; it
# loads every class of the module's main sources, so their static initializers run whichever
# class surefire runs first. Maven runs without -q so that the console has a line per class.

JAVA_CANARY = {
    "jupiter": ("import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n", "class", "@Test\n    void"),
    "junit4": ("import org.junit.Test;\nimport static org.junit.Assert.assertEquals;\n", "public class", "@Test\n    public void"),
    "testng": ("import org.testng.annotations.Test;\nimport static org.testng.Assert.assertEquals;\n", "public class", "@Test\n    public void"),
}


def java_canary_source(package, cls, flavour, passing, failing, classes):
    imports, kind, method = JAVA_CANARY[flavour]
    load = "".join('        try { Class.forName("%s"); } catch (Throwable t) { }\n' % c for c in classes)
    return ("%s%s\n%s %s {\n    %s %s() {\n%s        assertEquals(Integer.parseInt(\"7\"), 7);\n    }\n\n"
            "    %s %s() {\n        assertEquals(Integer.parseInt(\"7\"), 8);\n    }\n}\n") % (
        "package %s;\n\n" % package if package else "", imports, kind, cls, method, passing, load, method, failing)


SUREFIRE_CLASS = re.compile(r"Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+), Time elapsed: [^\n]*? - in (\S+)\s*$", re.M)
SUREFIRE_TOTAL = re.compile(r"^(?:\[\w+\] )?Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)\s*$", re.M)


def surefire_report_cases(path, runner="surefire"):
    """(suite, [(Class#method, status)]) of one JUnit XML report; one that cannot be read is tampering."""
    try:
        root = xml.etree.ElementTree.parse(path).getroot()
    except (OSError, xml.etree.ElementTree.ParseError) as err:
        raise Tampering("a %s report cannot be read (%s): %s" % (runner, path.name, err))
    out = []
    for case in root.iter("testcase"):
        name = case.get("classname", "") + "#" + case.get("name", "").split("(")[0]
        status = "failed" if case.find("failure") is not None else "error" if case.find("error") is not None else "skipped" if case.find("skipped") is not None else "passed"
        out.append((name, status))
    return root.get("name", ""), out


class SurefireCanary:
    """surefire's canary. `sealed`: the hidden test sources the verifier sealed ({path: text}:
    emptied while the tests' user runs anything), which javac_shim, the compiler Maven forks,
    compiles from copies in a folder no source can name, removed once compiled, before any test
    runs."""

    def __init__(self, workspace, env, scratch, tests, sealed=None):
        self.workspace = workspace
        self.env = dict(env)
        self.copies = {}
        self.compiler = []
        self.javac = None
        if sealed:
            folder = scratch / ("j" + word(16))
            # Each under its own name: javac wants a public class in a file named after it.
            self.copies = copy_sealed(sealed, lambda path, i: folder / ("s%d" % i) / os.path.basename(path))
            (folder / "sealed.json").write_text(json.dumps(self.copies))
            self.javac = folder / "pwp-javac"
            _script(self.javac, shim("javac_shim", str(folder), env.get("PATH", "")))
            self.compiler = ["-Dmaven.compiler.fork=true", "-Dmaven.compiler.executable=%s" % self.javac]
        self.cls = word(1).upper() + word(secrets.choice((6, 7, 8))) + "Test"
        self.passing, self.failing = word(1) + word(9), word(1) + word(9)
        self.placed = []
        if tests is not None:
            for fqn in sorted({t.split("#")[0] for t in tests}):
                pkg, _, simple = fqn.rpartition(".")
                for src in workspace.rglob(simple + ".java"):
                    if src.parent.as_posix().endswith(("src/test/java/" + pkg.replace(".", "/")).rstrip("/")):
                        self.place(src, pkg)
            if not self.placed:
                raise FileNotFoundError("none of the hidden test classes was found under a src/test/java folder")
        else:
            # No list (IDE-Bench's rows graded by a detected Maven run): beside each hidden Java
            # source, in its package, wherever the build's test sources are.
            for path, copy in sorted(self.copies.items()):
                if path.endswith(".java"):
                    pkg = re.search(r"^\s*package\s+([\w.]+)\s*;", pathlib.Path(copy).read_text(errors="replace"), re.M)
                    self.place(pathlib.Path(path), pkg.group(1) if pkg else "")
            if not self.placed:
                raise FileNotFoundError("no hidden Java source was sealed for the run, and it has no list of tests")

    def place(self, test_file, pkg):
        folder = test_file.parent
        if any(p.parent == folder for p in self.placed):
            return
        text = pathlib.Path(self.copies.get(os.path.normpath(str(test_file)), test_file)).read_text(errors="replace")
        flavour = "jupiter" if "org.junit.jupiter" in text else "testng" if "org.testng" in text else "junit4" if re.search(r"\borg\.junit\b|\bjunit\.framework\b", text) else "jupiter"
        root = folder
        for _ in pkg.split(".") if pkg else []:
            root = root.parent
        # The main classes beside src/test/java, or the root's src/main/java for tests elsewhere.
        main = root.parent.parent / "main" / "java" if root.as_posix().endswith("src/test/java") else self.workspace / "src" / "main" / "java"
        classes = sorted(".".join(p.relative_to(main).with_suffix("").parts) for p in main.rglob("*.java") if p.name not in ("package-info.java", "module-info.java")) if main.is_dir() else []
        if not os.access(folder, os.W_OK):
            raise PermissionError("the grader cannot write its canary beside %s" % test_file)
        path = folder / (self.cls + ".java")
        path.write_text(java_canary_source(pkg, self.cls, flavour, self.passing, self.failing, classes))
        self.placed.append(path)

    def names(self):
        out = set()
        for p in self.placed:
            pkg = re.search(r"^package ([\w.]+);", p.read_text(), re.M) if p.exists() else None
            out.add((pkg.group(1) + "." if pkg else "") + self.cls)
        return out

    def cleanup(self):
        for p in self.placed:
            try:
                p.unlink()
            except OSError:
                pass

    def check(self, code, log, reports, canaries):
        if not reports:
            raise NoRun("surefire wrote no report: the tests did not run")
        cases, by_class = [], {}
        for r in reports:
            suite, found = surefire_report_cases(r)
            by_class.setdefault(suite or r.name[5:-4], []).extend(found)
            cases.extend(found)
        console = {}
        for m in SUREFIRE_CLASS.finditer(log):
            console.setdefault(m.group(5), []).append(tuple(int(m.group(k)) for k in (1, 2, 3, 4)))
        for cls in canaries:
            got = {n.split("#", 1)[1]: s for n, s in by_class.get(cls, [])}
            for name, must in ((self.passing, "passed"), (self.failing, "failed")):
                if got.get(name) != must:
                    raise Tampering("surefire's report shows the canary test %s#%s that must have %s as %s" % (cls, name, must, got.get(name, "missing")))
            if console.get(cls) != [(2, 1, 0, 0)]:
                raise Tampering("the console shows the canary class %s as %s, not once with 2 run and 1 failure" % (cls, console.get(cls, "missing")))
        # Each class's report and its console line tell the same run, once.
        for cls, found in by_class.items():
            run = len(found)
            failures = sum(1 for _, s in found if s == "failed")
            errors = sum(1 for _, s in found if s == "error")
            skipped = sum(1 for _, s in found if s == "skipped")
            if console.get(cls) != [(run, failures, errors, skipped)]:
                raise Tampering("surefire's report of %s (%d run, %d failures, %d errors, %d skipped) is not what the console says: %s"
                                % (cls, run, failures, errors, skipped, console.get(cls, "no line")))
        extra = [c for c in console if c not in by_class]
        if extra:
            raise Tampering("the console reports %s, which has no surefire report" % extra[0])
        totals = [tuple(int(m.group(k)) for k in (1, 2, 3, 4)) for m in SUREFIRE_TOTAL.finditer(log)]
        per_class = [c for v in console.values() for c in v]
        if sum(t[0] for t in totals) != sum(c[0] for c in per_class) or sum(t[1] for t in totals) != sum(c[1] for c in per_class) or len(totals) > len(re.findall(r"T E S T S", log)):
            raise Tampering("surefire's totals (%s) are not the sum of its classes (%d run, %d failures)" % (totals, sum(c[0] for c in per_class), sum(c[1] for c in per_class)))
        return collect((n, "failed" if s == "error" else s) for n, s in cases if n.split("#")[0] not in canaries)


# ---- gradle -------------------------------------------------------------------------------------
#
# Gradle's test task, with surefire's canary class beside the tests and an init script that has
# Gradle's own process print each test's result on a line marked for the run (afterTest): the
# test JVM's output reaches the console too, so a line it prints with the mark adds a second
# account of a test, which is tampering; the mark need not be secret. The init script also forks
# the grader's javac for a build with sealed sources, as Maven's run does.

GRADLE_INIT = """allprojects {
    tasks.withType(Test) {
        afterTest { d, r -> println("%(mark)s " + d.className + "#" + d.name + " " + r.resultType) }
    }
%(compile)s}
"""
GRADLE_FORK = """    tasks.withType(JavaCompile) {
        options.fork = true
        options.forkOptions.executable = '%s'
    }
"""
GRADLE_RESULT = {"SUCCESS": "passed", "FAILURE": "failed", "SKIPPED": "skipped"}


def gradle_reports(workspace):
    return [p for p in workspace.rglob("TEST-*.xml") if p.parent.parent.name == "test-results"]


class GradleCanary(SurefireCanary):
    def __init__(self, workspace, env, scratch, tests, sealed=None):
        super().__init__(workspace, env, scratch, tests, sealed)
        self.mark = "pwp-" + word(12)
        init = scratch / ("g" + word(16)) / "canary.gradle"
        init.parent.mkdir(mode=0o700)
        init.write_text(GRADLE_INIT % {"mark": self.mark, "compile": GRADLE_FORK % self.javac if self.javac else ""})
        self.args = ["--init-script", str(init), "--console=plain", "--continue"]

    def check(self, code, log, reports, canaries):
        if not reports:
            raise NoRun("gradle wrote no test report: the tests did not run")
        report, console = {}, {}
        for r in reports:
            for n, s in surefire_report_cases(r, "gradle test")[1]:
                report.setdefault(n, []).append("failed" if s == "error" else s)
        for m in re.finditer(r"^%s (\S+?#.*) (SUCCESS|FAILURE|SKIPPED)\s*$" % re.escape(self.mark), log, re.M):
            console.setdefault(m.group(1), []).append(GRADLE_RESULT[m.group(2)])
        for cls in canaries:
            for name, must in ((self.passing, "passed"), (self.failing, "failed")):
                for label, got in (("report", report), ("console", console)):
                    if got.get(cls + "#" + name) != [must]:
                        raise Tampering("gradle's %s shows the canary test %s#%s that must have %s as %s" % (label, cls, name, must, got.get(cls + "#" + name, "missing")))
        differ = sorted(n for n in set(report) | set(console) if sorted(report.get(n, [])) != sorted(console.get(n, [])))
        if differ:
            n = differ[0]
            raise Tampering("gradle's report and its own account of the run disagree on %s (report %s, console %s)" % (n, report.get(n, "missing"), console.get(n, "missing")))
        return collect((n, s) for n, v in report.items() for s in v if n.split("#")[0] not in canaries)


# ---- go test -----------------------------------------------------------------------------------
#
# go test -json (test2json's events), with a canary test file in every package that has tests,
# given with -overlay so it is never written into the workspace (go vet does not read overlays:
# -vet=off unless the command sets -vet). A package whose binary reports passing tests must
# report the canary as it must be, each once, in the events and in the output they carry.

def go_packages(workspace):
    out = {}
    for f in workspace.rglob("*_test.go"):
        rel = f.relative_to(workspace)
        if any(p.startswith(".") or p in ("vendor", "testdata") for p in rel.parts[:-1]):
            continue
        try:
            m = re.search(r"^package\s+([A-Za-z_]\w*)", f.read_text(errors="replace"), re.M)
        except OSError:
            continue
        if m and f.parent not in out:
            out[f.parent] = m.group(1)
    return out


def go_canary_source(pkg, passing, failing):
    """The canary's test file. The test that must pass also checks that the binary's standard
    output is the one go test gave it (fd 1, a pipe or file its parent holds): a deliverable that
    splices a filter in between (a pipe to sed rewriting the task's "--- FAIL" lines) would
    otherwise rewrite the task's results and leave the canary's alone."""
    os_, conv = "os" + passing[4:].lower(), "strconv" + passing[4:].lower()
    check = ("\tif {os}.Stdout == nil || {os}.Stdout.Fd() != 1 {{\n\t\tt.Fatal(\"os.Stdout is not file descriptor 1\")\n\t}}\n"
             "\tmine, err := {os}.Readlink(\"/proc/self/fd/1\")\n\tif err != nil {{\n\t\tt.Fatal(err)\n\t}}\n"
             "\tdir := \"/proc/\" + {conv}.Itoa({os}.Getppid()) + \"/fd/\"\n\tfds, err := {os}.ReadDir(dir)\n\tif err != nil {{\n\t\tt.Fatal(err)\n\t}}\n"
             "\tfor _, fd := range fds {{\n\t\tif theirs, err := {os}.Readlink(dir + fd.Name()); err == nil && theirs == mine {{\n\t\t\treturn\n\t\t}}\n\t}}\n"
             "\tt.Fatal(\"standard output \" + mine + \" is not one go test gave\")\n").format(os=os_, conv=conv)
    return ('package %s\n\nimport (\n\t%s "os"\n\t%s "strconv"\n\t"testing"\n)\n\nfunc %s(t *testing.T) {\n%s}\n\n'
            'func %s(t *testing.T) {\n\tt.Fatal("expected failure")\n}\n') % (pkg, os_, conv, passing, check, failing)


class GoCanary:
    def __init__(self, workspace, env, scratch, argv):
        self.dir = scratch / ("c" + word(16))
        self.dir.mkdir(mode=0o700)
        self.passing = "Test" + word(1).upper() + word(secrets.choice((8, 9, 10)))
        self.failing = "Test" + word(1).upper() + word(secrets.choice((8, 9, 10)))
        replace = {}
        for folder, pkg in go_packages(workspace).items():
            src = self.dir / ("%s_%s_test.go" % (pkg, word(8)))
            src.write_text(go_canary_source(pkg, self.passing, self.failing))
            replace[str(folder / (word(10) + "_test.go"))] = str(src)
        (self.dir / "overlay.json").write_text(json.dumps({"Replace": replace}))
        i = argv.index("test") + 1 if "test" in argv else len(argv)
        extra = ([] if "-json" in argv else ["-json"]) + ["-overlay=%s/overlay.json" % self.dir] + ([] if any(a.startswith("-vet") for a in argv) else ["-vet=off"])
        self.argv = argv[:i] + extra + argv[i:]
        self.env = dict(env)

    def check(self, code, log):
        events = []
        for line in log.splitlines():
            if line.startswith("{"):
                try:
                    events.append(json.loads(line))
                except ValueError:
                    pass
        per_pkg, ends, out = {}, {}, []
        output = {}
        for e in events:
            pkg, test, action = e.get("Package", ""), e.get("Test"), e.get("Action")
            if action == "output" and test:
                output.setdefault((pkg, test), []).append(e.get("Output", ""))
            if action in ("pass", "fail", "skip"):
                if test:
                    per_pkg.setdefault(pkg, []).append((test, {"pass": "passed", "skip": "skipped"}.get(action, "failed")))
                else:
                    ends[pkg] = ends.get(pkg, 0) + 1
        for pkg, results in per_pkg.items():
            if ends.get(pkg, 0) > 1:
                raise Tampering("go test reported package %s as ended %d times" % (pkg, ends[pkg]))
            real = [r for r in results if r[0] not in (self.passing, self.failing)]
            if not any(s == "passed" for _, s in real):
                out.extend(real)
                continue
            for name, must, word_ in ((self.passing, "passed", "PASS"), (self.failing, "failed", "FAIL")):
                got = [s for n, s in results if n == name]
                if got != [must]:
                    raise Tampering("go test's events for %s show the canary test %s that must have %s as %s" % (pkg, name, must, got or "missing"))
                said = sum(1 for o in output.get((pkg, name), []) if re.match(r"^\s*--- %s: %s \(" % (word_, name), o))
                if said != 1:
                    raise Tampering("go test's output for %s says \"--- %s: %s\" %d times" % (pkg, word_, name, said))
            out.extend(real)
        if out and code == 0:
            raise Tampering("go test exited with 0 though the canary's tests that must fail failed")
        return collect(out)


# ---- the run -----------------------------------------------------------------------------------

CANARY_LOGS = ("ctest", "cargo", "surefire", "gradle", "go")


def surefire_reports(workspace):
    return [p for p in workspace.rglob("TEST-*.xml") if p.parent.name == "surefire-reports"]


def javac_arguments(text):
    """The arguments of a javac argument file as plexus-compiler (Maven) and Gradle write them:
    one a line, quoted (every one, or those with spaces), with backslash escapes."""
    out = []
    for line in text.splitlines():
        if len(line) >= 2 and line[0] == line[-1] == '"':
            # Kept when empty: Gradle's file says `-sourcepath ""`.
            out.append(re.sub(r"\\(.)", r"\1", line[1:-1]))
        elif line:
            out.append(line)
    return out


def javac_shim(folder, path, args):
    """The javac Maven (maven.compiler.executable) or Gradle (the canary's init script) forks in a
    build with sealed sources: each sealed source it is given is compiled from its copy, and the
    copies it used are removed once it has run (the tests run after this compilation, in the same
    build)."""
    copies = json.loads(pathlib.Path(folder, "sealed.json").read_text())
    expanded = []
    for a in args:
        expanded += javac_arguments(pathlib.Path(a[1:]).read_text()) if a.startswith("@") else [a]
    used = [copies[os.path.normpath(a)] for a in expanded if os.path.normpath(a) in copies]
    argfile = pathlib.Path(folder, word(12) + ".args")
    argfile.write_text("".join('"%s"\n' % a.replace("\\", "\\\\").replace('"', '\\"') for a in (copies.get(os.path.normpath(a), a) for a in expanded)))
    r = subprocess.run([_which("javac", {"PATH": path}), "@" + str(argfile)])
    for copy in used:
        os.unlink(copy)
    argfile.unlink()
    sys.exit(r.returncode)


def sealed_sources(env):
    """The hidden sources the verifier sealed for this grader's build (the evaluator's innerBuild),
    {path: text}, from its broker (through the verifier's pwp_sealed, which its pytest plugin
    loaded in this process), asked once, before anything of the workspace's runs; none outside
    the verifier. The broker's socket is then taken out of the command's environment."""
    broker = env.pop("PWP_SEAL_BROKER", None)
    if not broker or "pwp_sealed" not in sys.modules:
        return {}
    os.environ["PWP_SEAL_BROKER"] = broker
    return sys.modules["pwp_sealed"].read()


def run_with_canary(spec, workspace, env, tail=3000):
    """(statuses by test, the log's tail, the problem or None) for a run of spec's command with
    its runner's canary; a problem that starts with "tampering suspected" is the evidence."""
    harden()
    log_kind = spec["log"]
    argv = [sys.executable if a == "python3" else a for a in spec["command"]]
    scratch = pathlib.Path(tempfile.mkdtemp(prefix="pwp-"))
    canary = None
    java = log_kind in ("surefire", "gradle")
    try:
        try:
            if log_kind == "ctest":
                canary = CtestCanary(workspace, env, scratch, sealed_sources(env))
            elif log_kind == "cargo":
                canary = CargoCanary(workspace, env, scratch)
            elif log_kind == "surefire":
                for report in surefire_reports(workspace):
                    shutil.rmtree(report.parent, ignore_errors=True)
                canary = SurefireCanary(workspace, env, scratch, spec["tests"], sealed_sources(env))
                argv = [a for a in argv if a not in ("-q", "--quiet")] + canary.compiler
            elif log_kind == "gradle":
                for report in gradle_reports(workspace):
                    shutil.rmtree(report.parent, ignore_errors=True)
                canary = GradleCanary(workspace, env, scratch, spec["tests"], sealed_sources(env))
                argv = [a for a in argv if a not in ("-q", "--quiet")] + canary.args
            else:
                canary = GoCanary(workspace, env, scratch, argv)
                argv = canary.argv
        except (OSError, ValueError) as err:
            return {}, "", "the grader could not give the %s run its canary: %s" % (log_kind, err)
        canaries = canary.names() if java else None
        code, log = run(argv, str(workspace), canary.env, spec["timeoutSec"], getattr(canary, "pass_fds", ()))
        if code is None:
            return {}, log[-tail:], "the tests timed out after %d s" % spec["timeoutSec"]
        try:
            if java:
                found = canary.check(code, log, (surefire_reports if log_kind == "surefire" else gradle_reports)(workspace), canaries)
            else:
                found = canary.check(code, log)
        except Tampering as err:
            return {}, log[-tail:], TAMPERING + str(err)
        except NoRun as err:
            return {}, log[-tail:], str(err)
        return found, log[-tail:], None
    finally:
        if java and canary is not None:
            canary.cleanup()
        shutil.rmtree(scratch, ignore_errors=True)
