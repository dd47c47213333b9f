# The sealed test files of a test script's run, or of the pytest run a grader starts
# (isolatedRunner.ts, SealBroker), served by root.
# A script (`bash run_tests.sh`) starts its runner itself, so the runner cannot be handed the
# texts on a descriptor: every process the script starts would inherit it. Instead the runner's
# launch (pwp_sealed.py) asks here, on a Unix socket, and the kernel says who asks
# (SO_PEERCRED). The texts go to one process of the run, once, and only to:
#
# - the tests' user, its command line the verifier's pytest launch (`python3 -I -c <launch>`),
#   or, for a script that runs node's runners, node running the image's mocha or jest (the real
#   path of its script one of `nodeRunners`), node --test or node running a sealed file as its
#   program (`node tasks/t/task_tests.js` in a script), or Python running a grader's
#   recorder (one of `recorders`: SWE-bench's, in which Django's and SymPy's runners run);
# - a process that nothing can read or trace: not dumpable (it made itself so before asking; its
#   private /proc files are then root's, which is what is checked) and with no tracer attached, so no
#   other process of the tests' user can read the texts from its memory afterwards;
# - a process started by the test command (its parents lead to the command's process), not one
#   left behind by something else.
#
# Once served, the run has its runner: a second asker (the deliverable starting a runner of
# its own to read the tests' failures, say) is refused, as the grader refuses a run printing
# two summaries. So code of the agent's that the script runs before its pytest (a build, an
# install) could at most take the texts in place of the runner, whose run then fails. The
# process's executable and environment are not checked: without CAP_SYS_PTRACE, which the
# verifier's root does not hold, an undumpable process's are closed to root too.
# Each refusal is said on stderr, which the runner keeps with the run's output.
#
# Run as root with the texts as one JSON line ({"texts": {path: base64}, "launch": str,
# "nodeRunners": [path], "recorders": [path], "uid": int, "socket": path}) on stdin, then the command's pid on the next line. Prints "ready" once
# it listens and "served" when it has handed the texts over; the runner ends it with the run.
import json
import os
import socket
import struct
import sys


def status(pid):
    with open(f"/proc/{pid}/status") as f:
        return dict(line.rstrip("\n").split(":\t", 1) for line in f if ":\t" in line)


def parent(pid):
    with open(f"/proc/{pid}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[1])


def node_runner(argv, runners, sealed=()):
    """
    Whether a command line is node running the image's mocha or jest (its script's real path one
    of `runners`), node --test (among the options before a script), or node running a sealed file
    as its program (a test script's `node tasks/t/task_tests.js`; a relative path, which is the
    process's own cwd's, names a sealed file that ends with it).
    """
    if not runners or len(argv) < 2 or os.path.basename(argv[0]) != "node":
        return False
    for a in argv[1:]:
        if a == "--test":
            return True
        if not a.startswith("-"):
            if os.path.isabs(a):
                return os.path.realpath(a) in runners or os.path.realpath(a) in sealed
            tail = "/" + os.path.normpath(a)
            return not tail.startswith("/..") and any(p.endswith(tail) for p in sealed)
    return False


def recorder(argv, recorders):
    """Whether a command line is Python running a grader's recorder (its real path one of `recorders`)."""
    return len(argv) >= 2 and os.path.basename(argv[0]).startswith("python") and os.path.isabs(argv[1]) and os.path.realpath(argv[1]) in recorders


def refusal(pid, uid, spec, command):
    """Why pid may not have the texts, or None."""
    st = status(pid)
    if any(int(u) != uid for u in st["Uid"].split()):
        return "not the tests' user"
    with open(f"/proc/{pid}/cmdline", "rb") as f:
        argv = [a.decode("utf-8", "replace") for a in f.read().split(b"\0")]
    if argv and argv[-1] == "":
        argv = argv[:-1]
    runners, recorders = spec.get("nodeRunners") or [], spec.get("recorders") or []
    node = node_runner(argv, runners, spec.get("texts", {}).keys())
    if argv[1:4] != ["-I", "-c", spec["launch"]] and not node and not recorder(argv, recorders):
        return "not the verifier's pytest launch" + (", nor the image's mocha or jest, nor node --test or a sealed program" if runners else "") + (", nor the grader's recorder" if recorders else "")
    # The kernel gives an undumpable process's private /proc files (not its world-readable
    # folder) to root.
    if os.stat(f"/proc/{pid}/environ").st_uid != 0:
        return "it is dumpable (other processes could read its memory)"
    if st.get("TracerPid", "0").strip() != "0":
        return "it is traced by process " + st["TracerPid"].strip()
    p = pid
    while p != command:
        if p <= 1:
            return "the test command did not start it"
        p = parent(p)
    return None


def main():
    spec = json.loads(sys.stdin.readline())
    body = json.dumps(spec["texts"]).encode()
    path = spec["socket"]
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    os.chmod(path, 0o666)
    server.listen(16)
    print("ready", flush=True)
    # The command starts once this listens; an asker waits in the backlog until its pid is known.
    command = int(sys.stdin.readline())
    served = 0
    while True:
        conn, _ = server.accept()
        with conn:
            pid, _uid, _gid = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12))
            try:
                why = "the run's runner has had them" if served else refusal(pid, spec["uid"], spec, command)
            except (OSError, ValueError, KeyError, IndexError) as e:
                why = f"it could not be looked at ({e})"
            try:
                if why:
                    print(f"pwp: the sealed test files were refused to process {pid}: {why}", file=sys.stderr, flush=True)
                    conn.sendall(json.dumps({"refused": why}).encode())
                else:
                    served += 1
                    print("served", flush=True)
                    conn.sendall(body)
            except OSError:
                pass


if __name__ == "__main__":
    main()
