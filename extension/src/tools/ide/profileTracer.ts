// The profile tool's tracer, run with the image's python3: a deterministic profiler (every
// call and return seen through sys.setprofile, none sampled) that charges the time between two
// events to the full call stack running then, and writes those self times as folded stacks
// ("<module> (app.py:1);main (app.py:3);work (app.py:9) 1234", µs). Only the script's own
// module frame and what it calls are recorded, not the runner around it.
//   python3 tracer.py OUT CLOCK SCRIPT ARGS...   CLOCK: cpu (the thread's CPU time: what the
//   program computed, the same on a busy machine) or wall (also its waiting, and the time the
//   machine gave to other programs).
export const PROFILE_TRACER = String.raw`
import os, sys, time, types

out_path, clock_name, script = sys.argv[1], sys.argv[2], sys.argv[3]
sys.argv = sys.argv[3:]
root = os.getcwd()
sys.path[0] = os.path.dirname(os.path.abspath(script))
with open(script, "rb") as f:
    code = compile(f.read(), script, "exec")

labels = {}
def label(fcode):
    got = labels.get(fcode)
    if got is None:
        path = fcode.co_filename
        rel = os.path.relpath(path, root) if os.path.isabs(path) else path
        # Outside the workspace (the standard library): the file's name, with its package for an __init__.py.
        where = rel if not rel.startswith("..") else os.path.join(*path.split(os.sep)[-2 if path.endswith("__init__.py") else -1:])
        got = labels[fcode] = ("%s (%s:%d)" % (fcode.co_qualname if hasattr(fcode, "co_qualname") else fcode.co_name, where, fcode.co_firstlineno)).replace(";", ",")
    return got

def builtin_label(fn):
    owner = getattr(fn, "__self__", None)
    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or repr(fn)
    if owner is not None and not isinstance(owner, types.ModuleType) and "." not in name:
        name = type(owner).__name__ + "." + name
    return ("%s (built-in)" % name).replace(";", ",")

self_ns = {}
stack = []          # folded keys, innermost last
active = [False]
clock = time.thread_time_ns if clock_name == "cpu" else time.perf_counter_ns
last = [clock()]

def charge(now):
    if stack:
        key = stack[-1]
        self_ns[key] = self_ns.get(key, 0) + (now - last[0])
    last[0] = now

def profiler(frame, event, arg):
    now = clock()
    if not active[0]:
        if event == "call" and frame.f_code is code:
            active[0] = True
            stack.append(label(code))
            last[0] = clock()
        return
    charge(now)
    # The import system's frozen frames (and the builtins they call) are plumbing: transparent,
    # so an import shows as the imported module's <module> frame right above the importer.
    if event == "call":
        stack.append(stack[-1] if frame.f_code.co_filename.startswith("<frozen ") else stack[-1] + ";" + label(frame.f_code))
    elif event == "c_call":
        stack.append(stack[-1] if frame.f_code.co_filename.startswith("<frozen ") else stack[-1] + ";" + builtin_label(arg))
    elif event in ("return", "c_return", "c_exception"):
        if len(stack) > 1 or (event == "return" and frame.f_code is code):
            stack.pop()
        if not stack:
            active[0] = False
    last[0] = clock()

module = types.ModuleType("__main__")
module.__file__ = script
module.__builtins__ = __builtins__
sys.modules["__main__"] = module
status = 0
try:
    sys.setprofile(profiler)
    try:
        exec(code, module.__dict__)
    finally:
        sys.setprofile(None)
except SystemExit as e:
    status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
except BaseException:
    import traceback
    traceback.print_exc()
    status = 1
finally:
    with open(out_path, "w") as f:
        for key, ns in sorted(self_ns.items()):
            us = ns // 1000
            if us > 0:
                f.write("%s %d\n" % (key, us))
    sys.stdout.flush()
sys.exit(status)
`;
