# What the IDE user (the agent) can leave behind in an environment outside the IDE's own state,
# read and put back from inside the container, one run of this program per call (host/running/
# userState.ts runs it as root with `python3 -c`):
#   baseline   once per container, right after its start: lists every path under the roots
#              (what the user can write: $PWP_ROOTS) with its type, mode, owner and content hash,
#              and saves the roots, the listing and a tar of those entries in $PWP_BASELINE
#              (root-only).
#   recycle    ends every process of the user that is not the IDE's, releases held keys and
#              buttons and drops the selections, puts every path under the roots back as the
#              baseline has it (what it lacks removed), and ends the user's processes once more.
#   state      the user's processes, the input state, the screen's hash and the listing.
# A listing hashes lazily: an entry whose inode, size, mtime and ctime are what they were when it
# was last hashed keeps that hash (the ctime is the kernel's: no write leaves it as it was), so a
# recycle reads only what changed. The hashes are kept in the baseline folder, root's alone.
import ctypes, fnmatch, hashlib, json, os, shutil, signal, stat, sys, tarfile, time

USER = int(os.environ['PWP_UID'])
B = os.environ['PWP_BASELINE']
MASK = json.loads(os.environ.get('PWP_MASK') or '[]')
# Entries put back like any other but left out of the listing the pristine check compares: what
# the IDE itself writes some time after it started, or again later.
UNCOMPARED = json.loads(os.environ.get('PWP_UNCOMPARED') or '[]')
# Files whose text the caller needs before and after a recycle (the IDE takes them up), and
# those of them the caller puts back itself, through the IDE (which does not notice them
# changing on disk): left as they are here.
WATCH = json.loads(os.environ.get('PWP_WATCH') or '[]')
LEAVE = json.loads(os.environ.get('PWP_LEAVE') or '[]')
IDE = ('/opt/code-server/', '/opt/pwp-tools/')
# Test-only: parts a recycle leaves out, to show the pristine check catching what they put back.
SKIP = set(json.loads(os.environ.get('PWP_SKIP') or '[]'))


# --- processes ---------------------------------------------------------------------------------

def procs():
    out = {}
    for p in os.listdir('/proc'):
        if not p.isdigit():
            continue
        try:
            with open('/proc/%s/stat' % p) as f:
                st = f.read()
            with open('/proc/%s/status' % p) as f:
                uid = int([l for l in f if l.startswith('Uid:')][0].split()[1])
            with open('/proc/%s/cmdline' % p, 'rb') as f:
                argv = f.read().split(b'\0')[:-1]
        except (OSError, IndexError):
            continue
        fields = st[st.rindex(')') + 2:].split()
        # A zombie has ended (no command line, nothing it can do) and waits for its parent,
        # the IDE's or tini, to collect it: not a process that is left.
        if fields[0] == 'Z':
            continue
        out[int(p)] = {'uid': uid, 'ppid': int(fields[1]), 'argv': [a.decode('utf8', 'replace') for a in argv]}
    return out


def ide_program(a):
    args = [x for x in a[:3] if not x.startswith('-')]
    if any(x.startswith(IDE) for x in args[:2]):
        return True
    return a[:4] == ['python3', '-X', 'utf8', '-c']


# Programs of the image's that the IDE's built-in extensions run for themselves while it works
# (the Git extension refreshes its view with `git status`, `git rev-parse`...): the IDE's when
# the extension host itself started them, judged by the kernel's executable, not by argv, so the
# check does not count them. A recycle still ends them (classify with helpers=False): one the
# episode set going (a checkout, a clone) could write into the workspace after it is put back.
# What such a program starts in turn (a hook, an alias) is never the IDE's.
IDE_HELPERS = ('/usr/bin/git',)


def ide_helper(p, par):
    if par is None or '--type=extensionHost' not in par['argv']:
        return False
    try:
        return os.readlink('/proc/%d/exe' % p) in IDE_HELPERS
    except FileNotFoundError:
        # Ended since the listing (a `git rev-parse` of the Git view's, gone in milliseconds): a
        # helper that finished, never one left behind; counted stray, it made a fresh start's
        # listing, and so the pristine check, depend on the moment it was read.
        return True
    except OSError:
        return False


def on_demand(p, ps):
    """Helpers the IDE starts and ends by itself, not part of a fresh start's process list: the
    terminals' host, our extension's workers, and whatever the extension host started (language
    servers: a JSON, TypeScript or Markdown file opened starts one). Only IDE processes are asked
    (a chain of IDE programs from the bridge, classify()), so each is a program of the image's."""
    a = ps[p]['argv']
    if '--type=ptyHost' in ' '.join(a) or a[:4] == ['python3', '-X', 'utf8', '-c']:
        return True
    seen = set()
    while p in ps and p not in seen:
        seen.add(p)
        p = ps[p]['ppid']
        if p in ps and '--type=extensionHost' in ps[p]['argv']:
            return True
    return False


def classify(ps, helpers=True):
    """(stray, ide): the user's processes that are not the IDE's, and those that are. The IDE's:
    a chain from the bridge (root) through IDE programs only (and IDE_HELPERS, unless helpers is
    False). Anything else of the user (a shell, a job, a daemon that double-forked onto pid 1, a
    debug adapter) is stray."""
    bridge = {p for p, v in ps.items() if v['uid'] == 0 and any(x.endswith('/opt/pwp/bridge.js') for x in v['argv'])}
    keep = {}

    def ide(p):
        if p in keep:
            return keep[p]
        v = ps[p]
        par = ps.get(v['ppid'])
        keep[p] = False
        if ide_program(v['argv']) or (helpers and ide_helper(p, par)):
            keep[p] = v['ppid'] in bridge if par is None or par['uid'] != USER else ide(v['ppid'])
        return keep[p]

    users = [p for p, v in ps.items() if v['uid'] == USER]
    return [p for p in users if not ide(p)], [p for p in users if ide(p)]


def end_strays():
    """Stops every stray process (a stopped process cannot fork), again until no new one shows
    up, then kills them all: nothing forks away between the listing and the kill."""
    stopped = {}
    for _ in range(20):
        ps = procs()
        stray = [p for p in classify(ps, helpers=False)[0] if p not in stopped]
        if not stray:
            break
        for p in stray:
            try:
                os.kill(p, signal.SIGSTOP)
                stopped[p] = ' '.join(ps[p]['argv']) or str(p)
            except OSError:
                pass
    for p in stopped:
        try:
            os.kill(p, signal.SIGKILL)
        except OSError:
            pass
    # Reaped by their parents (or tini): wait until they are gone from /proc, briefly.
    deadline = time.time() + 5
    while time.time() < deadline and any(os.path.exists('/proc/%d' % p) and not zombie(p) for p in stopped):
        time.sleep(0.02)
    return sorted(stopped.values())


def zombie(p):
    try:
        with open('/proc/%d/stat' % p) as f:
            st = f.read()
        return st[st.rindex(')') + 2] == 'Z'
    except OSError:
        return True


# --- input and screen --------------------------------------------------------------------------

def x11():
    try:
        x = ctypes.CDLL('libX11.so.6')
        xt = ctypes.CDLL('libXtst.so.6')
    except OSError:
        return None
    x.XOpenDisplay.restype = ctypes.c_void_p
    x.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x.XInternAtom.restype = ctypes.c_ulong
    x.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    x.XGetSelectionOwner.restype = ctypes.c_ulong
    x.XGetSelectionOwner.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
    x.XSetSelectionOwner.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    x.XQueryKeymap.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    x.XDefaultRootWindow.restype = ctypes.c_ulong
    x.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    x.XQueryPointer.argtypes = [ctypes.c_void_p, ctypes.c_ulong] + [ctypes.c_void_p] * 7
    x.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
    xt.XTestFakeKeyEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
    xt.XTestFakeButtonEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
    d = x.XOpenDisplay(None)
    if not d:
        return None
    return x, xt, d


def input_state(X):
    if X is None:
        return {'display': 'unreachable'}
    x, xt, d = X
    keys = ctypes.create_string_buffer(32)
    x.XQueryKeymap(d, keys)
    held = [i * 8 + b for i, c in enumerate(keys.raw) for b in range(8) if c & (1 << b)]
    a = ctypes.c_ulong()
    i = ctypes.c_int()
    m = ctypes.c_uint()
    x.XQueryPointer(d, x.XDefaultRootWindow(d), *[ctypes.byref(v) for v in (a, a, i, i, i, i, m)])
    buttons = [b for b in range(1, 6) if m.value & (1 << (7 + b))]
    sel = [s for s in ('CLIPBOARD', 'PRIMARY', 'SECONDARY') if x.XGetSelectionOwner(d, x.XInternAtom(d, s.encode(), 0))]
    return {'keys': held, 'buttons': buttons, 'selections': sel}


def clear_input(X):
    if X is None:
        return
    x, xt, d = X
    s = input_state(X)
    for k in s['keys']:
        xt.XTestFakeKeyEvent(d, k, 0, 0)
    for b in s['buttons']:
        xt.XTestFakeButtonEvent(d, b, 0, 0)
    for n in s['selections']:
        x.XSetSelectionOwner(d, x.XInternAtom(d, n.encode(), 0), 0, 0)
    x.XSync(d, 0)


# A pixel differs when one of its channels differs by more than this: the compositor's
# anti-aliasing of the same layout (rounded corners, borders) varies by a step or two.
SCREEN_TOLERANCE = 24


def frame_rows():
    # Xvfb's framebuffer (-fbdir): an XWD file; its rows, with the masked bands blanked.
    try:
        with open(os.environ.get('PWP_FB', ''), 'rb') as f:
            b = f.read()
    except OSError:
        return None
    hs, h, bpl, nc = (int.from_bytes(b[o:o + 4], 'big') for o in (0, 20, 48, 76))
    start = hs + nc * 12
    mask = json.loads(os.environ.get('PWP_SCREEN_MASK') or '[]')
    rows = []
    for y in range(h):
        row = b[start + y * bpl:start + (y + 1) * bpl]
        for m in mask:
            if m['y'] <= y < m['y'] + m['height']:
                row = row[:m['x'] * 4] + bytes(m['width'] * 4) + row[(m['x'] + m['width']) * 4:]
        rows.append(row)
    return rows


def screen(save):
    """'as at the start' when the screen is the baseline's within SCREEN_TOLERANCE, or where it is
    not; with `save`, this screen becomes the baseline (root-only, in the baseline folder)."""
    rows = frame_rows()
    if rows is None:
        return None
    path = os.path.join(B, 'screen.raw')
    if save:
        with open(path, 'wb') as f:
            f.write(json.dumps([len(rows), len(rows[0]) if rows else 0]).encode() + b'\n' + b''.join(rows))
    try:
        with open(path, 'rb') as f:
            head, base = f.read().split(b'\n', 1)
    except OSError:
        return 'no baseline screen'
    h, bpl = json.loads(head)
    if h != len(rows) or (rows and bpl != len(rows[0])):
        return 'the screen size differs from the start'
    bad = [y for y in range(h) if rows[y] != base[y * bpl:(y + 1) * bpl]
           and any(abs(a - c) > SCREEN_TOLERANCE for a, c in zip(rows[y], base[y * bpl:(y + 1) * bpl]))]
    if not bad:
        return 'as at the start'
    return 'differs from the start in %d rows between y=%d and y=%d' % (len(bad), bad[0], bad[-1])


# --- files ---------------------------------------------------------------------------------------

def masked(p):
    return any(fnmatch.fnmatchcase(p, m) for m in MASK)


def mine(st):
    return st.st_uid == USER or (st.st_mode & 0o002 and not stat.S_ISLNK(st.st_mode))


def walk(roots):
    """Every entry under the roots the user owns or anyone may write (sockets and FILE_MASK left
    out); folders the user neither owns nor may write are not entered; mounts are not crossed."""
    for r in roots:
        stack = [r]
        while stack:
            p = stack.pop()
            if masked(p):
                continue
            try:
                st = os.lstat(p)
            except OSError:
                continue
            if stat.S_ISSOCK(st.st_mode) or (stat.S_ISDIR(st.st_mode) and not mine(st)):
                continue
            if mine(st):
                yield p, st
            if stat.S_ISDIR(st.st_mode):
                try:
                    names = os.listdir(p)
                except OSError:
                    continue
                for n in names:
                    c = os.path.join(p, n)
                    try:
                        cst = os.lstat(c)
                    except OSError:
                        continue
                    if stat.S_ISDIR(cst.st_mode) and cst.st_dev != st.st_dev:
                        continue
                    stack.append(c)


def key(st):
    return [st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


def entry(p, st, known):
    kind = 'd' if stat.S_ISDIR(st.st_mode) else 'l' if stat.S_ISLNK(st.st_mode) else 'f' if stat.S_ISREG(st.st_mode) else 'o'
    extra = ''
    if kind == 'l':
        extra = os.readlink(p)
    elif kind == 'f':
        k = known.get(p)
        if k and k[0] == key(st):
            extra = k[1]
        else:
            h = hashlib.sha256()
            try:
                with open(p, 'rb') as f:
                    for chunk in iter(lambda: f.read(1 << 20), b''):
                        h.update(chunk)
                extra = h.hexdigest()[:16]
                known[p] = [key(st), extra]
            except OSError:
                extra = 'unreadable'
    return '%s %o %d:%d %s' % (kind, stat.S_IMODE(st.st_mode), st.st_uid, st.st_gid, extra)


def listing(roots, known):
    return {p: entry(p, st, known) for p, st in walk(roots)}


def drop():
    # Root here has no DAC override (the deployment keeps SETUID, SETGID and KILL only): the
    # user's files (0700 folders too) are read and written as the user, once the root-only
    # baseline files are open. A process that changed its uid is not dumpable: the user's own
    # processes cannot read its memory or its open files.
    os.setgroups([])
    os.setgid(USER)
    os.setuid(USER)


def unlink(p):
    if os.path.isdir(p) and not os.path.islink(p):
        for top, dirs, files in os.walk(p):
            try:
                os.chmod(top, 0o700)
            except OSError:
                pass
        shutil.rmtree(p, ignore_errors=True)
    elif os.path.lexists(p):
        os.unlink(p)


def matches(p, patterns):
    return any(fnmatch.fnmatchcase(p, w) for w in patterns)


def text_of(p):
    try:
        with open(p, 'rb') as f:
            return f.read(5_000_000).decode('utf8', 'replace')
    except OSError:
        return None


def put_back(roots, was, known, tf):
    """Removes what the baseline lacks and puts back what differs from it, but for the files left
    to the caller (LEAVE) and the folders the baseline lacks that hold one (left for the caller
    to remove once it has deleted them). Returns what was removed and restored, those folders,
    and the text now and in the baseline of each watched file that differs."""
    now = listing(roots, known)
    left = [p for p in now if matches(p, LEAVE) and now.get(p) != was.get(p)]
    keep = {os.path.dirname(p) for p in left}
    keep = {d for d in now if d not in was and any(k == d or k.startswith(d + '/') for k in keep)}
    removed = [p for p in now if p not in was and p not in keep and not matches(p, LEAVE)]
    back = sorted(p for p in was if now.get(p) != was[p] and not matches(p, LEAVE))
    texts = {p: {'before': text_of(p)} for p in set(removed + back + left) if matches(p, WATCH) and now.get(p, 'd')[0] == 'f' or p in left}
    for p in [p for p in was if p not in now and matches(p, WATCH)]:
        texts[p] = {'before': None}
    # Shortest first: removing a folder removes what is in it.
    for p in sorted(removed, key=len):
        if os.path.lexists(p):
            unlink(p)
    with tarfile.open(fileobj=tf) as t:
        for p in back:
            if os.path.lexists(p) and (os.path.isdir(p) and not os.path.islink(p)) != (was[p][0] == 'd'):
                unlink(p)
            elif os.path.lexists(p) and not os.path.isdir(p):
                parent = os.path.dirname(p)
                try:
                    os.chmod(parent, 0o700 | stat.S_IMODE(os.lstat(parent).st_mode))
                except OSError:
                    pass
                unlink(p)
            t.extract(t.getmember(p.lstrip('/')), '/', set_attrs=True)
        # A folder put back gets its own mode last (files were written into it first).
        for p in back:
            if was[p][0] == 'd':
                t.extract(t.getmember(p.lstrip('/')), '/', set_attrs=True)
        for p in texts:
            f = t.extractfile(p.lstrip('/')) if p in was and was[p][0] == 'f' else None
            texts[p]['after'] = f.read().decode('utf8', 'replace') if f else None
    return removed, back, sorted(keep, key=len, reverse=True), texts


def open_baseline(mode):
    return [open(os.path.join(B, n), mode) for n in ('roots.json', 'listing.json', 'known.json', 'base.tar')]


def save_known(f, known):
    f.seek(0)
    f.truncate()
    f.write(json.dumps(known).encode())


def main():
    mode = sys.argv[1]
    out = {}
    if mode == 'baseline':
        os.makedirs(B, mode=0o700, exist_ok=True)
        rf, lf, kf, tf = open_baseline('wb')
        roots = json.loads(os.environ['PWP_ROOTS'])
        rf.write(json.dumps(roots).encode())
        drop()
        known = {}
        was = listing(roots, known)
        with tarfile.open(fileobj=tf, mode='w') as t:
            for p in sorted(was):
                t.add(p, recursive=False)
        lf.write(json.dumps(was).encode())
        save_known(kf, known)
        print(json.dumps({'files': was}))
        return
    X = x11()
    if mode == 'recycle':
        out['killed'] = [] if 'processes' in SKIP else end_strays()
        if 'input' not in SKIP:
            clear_input(X)
    else:
        # PWP_PARTS: 'screen' alone (once the screen has settled), 'rest' without it, or all.
        parts = os.environ.get('PWP_PARTS', 'all')
        if parts != 'screen':
            ps = procs()
            stray, ide = classify(ps)
            out['processes'] = sorted(' '.join(ps[p]['argv']) for p in ide + stray if not (p in ide and on_demand(p, ps)))
            out['stray'] = sorted(' '.join(ps[p]['argv']) for p in stray)
            out['input'] = input_state(X)
        if parts != 'rest':
            out['screen'] = screen(os.environ.get('PWP_SAVE_SCREEN') == '1')
        if parts == 'screen':
            print(json.dumps(out))
            return
    rf, lf, kf, tf = (open(os.path.join(B, n), m) for n, m in (('roots.json', 'rb'), ('listing.json', 'rb'), ('known.json', 'r+b'), ('base.tar', 'rb')))
    roots = json.load(rf)
    was = json.load(lf)
    known = json.load(kf)
    if mode == 'recycle':
        # The files as the user, in a child: the parent stays root to end what the user's
        # processes started meanwhile (what a closing terminal or the IDE forked).
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            drop()
            removed, restored, kept, texts = ([], [], [], {}) if 'files' in SKIP else put_back(roots, was, known, tf)
            save_known(kf, known)
            with os.fdopen(w, 'w') as o:
                o.write(json.dumps({'removed': removed, 'restored': restored, 'keptFolders': kept, 'texts': texts}))
            os._exit(0)
        os.close(w)
        with os.fdopen(r) as i:
            files = i.read()
        _, status = os.waitpid(pid, 0)
        if status != 0 or not files:
            sys.exit('putting the files back failed')
        out.update(json.loads(files))
        if 'processes' not in SKIP:
            out['killed'] += end_strays()
        print(json.dumps(out))
        return
    drop()
    out['files'] = {p: e for p, e in listing(roots, known).items() if not matches(p, UNCOMPARED)}
    save_known(kf, known)
    print(json.dumps(out))


# Run as a program (userState.ts: python3 -c), not when a test imports it.
if __name__ == '__main__':
    main()
