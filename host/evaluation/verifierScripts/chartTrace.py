# ChartMimic's tracer, run by the image's Python and matplotlib in the verifier for the
# `chartmimic` evaluator (host/evaluation/chartMimicGrader.ts passes this file's text with -c):
#     python3 -I -c <this file> SCRIPT
# It runs a chart script and reports what it drew, as ChartMimic's evaluators log it (their
# prefixes patch matplotlib; chart2code/utils/evaluator/*): the texts each of its savefig calls
# draws (rendered to PDF), each axes' grid position, the plotting calls made (the outermost
# patched call only) and the colours of the drawn elements, read again from the drawn objects at
# the end; and the render: the figure it saved last (or its current one) as PNG. A traced text
# counts only where the render shows it: hiding it must change enough of the pixels where it is
# drawn (see shown_lines), so text of the background's colour, covered, transparent, too small to
# see, off the canvas or in a figure other than the one rendered is reported apart (unseenTexts).
# Plotting calls of squarify, networkx and matplotlib-venn are not traced (not in the image).
#
# The report goes to stdout between two records of a nonce drawn here before the script runs:
# the first line is "@pwp-trace-start NONCE", the report "@pwp-trace-end NONCE JSON".
# Nothing the script can read before it runs (argv, environment, files) holds the nonce, so a
# script cannot print a report of its own that the grader takes; any other line starting with
# "@pwp-trace" is taken as tampering. Code that searches its own process's memory for the
# nonce is not stopped by this (docs/metrics.md says what holds then).
import base64, inspect, io, json, os, re, runpy, secrets, sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.cbook as cbook
import matplotlib.colors as mcolors
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.axes._base import _process_plot_var_args
from matplotlib.backends.backend_pdf import RendererPdf
from matplotlib.figure import Figure
from matplotlib.image import NonUniformImage
from matplotlib.patches import Circle, Ellipse, PathPatch
from matplotlib.projections.polar import PolarAxes
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.text import Text
try:
    from matplotlib._tight_bbox import adjust_bbox
except ImportError:
    adjust_bbox = None
try:
    from mpl_toolkits.mplot3d import Axes3D
except Exception:
    Axes3D = None

SCRIPT = sys.argv[1]
OUT = os.dup(1)
NONCE = secrets.token_hex(16)


def emit(text):
    data = text.encode()
    while data:
        data = data[os.write(OUT, data):]


emit("@pwp-trace-start " + NONCE + "\n")
types = {}
objects = {}
busy = {"type": False, "color": False}


def where(func):
    try:
        f = inspect.getfile(func)
    except TypeError:
        f = "?"
    for cut in ("site-packages/", "dist-packages/"):
        if cut in f:
            f = f.split(cut, 1)[1]
    return f


def hexcolor(c):
    try:
        if isinstance(c, str):
            if c.startswith("#") and len(c) in (7, 9):
                return c.upper()
            return mcolors.to_hex(mcolors.to_rgba(c)).upper()
        if isinstance(c, (list, tuple, np.ndarray)) and len(c) in (3, 4):
            return mcolors.to_hex(c).upper()
    except (ValueError, TypeError):
        pass
    return None


# Readers: the colours of a drawn object, read again at the end (later set_color calls count).
line = lambda o: [hexcolor(o.get_color())]
face = lambda o: [hexcolor(list(o.get_facecolor()))]
first_face = lambda o: [hexcolor(list(o.get_facecolors()[0]))] if len(o.get_facecolors()) else []
original_face = lambda o: [hexcolor(list(o._original_facecolor))]
all_faces = lambda o: [hexcolor(c) for c in o.get_facecolors().tolist()]
all_edges = lambda o: [hexcolor(list(c)) for c in o.get_edgecolors()]
cmap = lambda o: [o.get_cmap().name]


def named(name):
    return lambda o: [name]


def cmap_kwarg(kwargs):
    c = kwargs.get("cmap")
    if c is None:
        return None
    return c if isinstance(c, str) else c.name


def type_wrap(func):
    base = where(func)

    def wrapper(*args, **kwargs):
        if busy["type"]:
            return func(*args, **kwargs)
        busy["type"] = True
        try:
            polar = func.__name__ == "plot" and len(args) > 0 and type(args[0]) == PolarAxes
            key = base + ("_polar" if polar else "") + "-" + func.__name__
            types[key] = types.get(key, 0) + 1
            return func(*args, **kwargs)
        finally:
            busy["type"] = False
    return wrapper


def color_wrap(func, name, collect):
    def wrapper(*args, **kwargs):
        if busy["color"]:
            return func(*args, **kwargs)
        busy["color"] = True
        try:
            result = func(*args, **kwargs)
            for suffix, reader, obj in collect(result, args, kwargs):
                for c in reader(obj):
                    objects[name + suffix + "--" + str(c)] = (name + suffix, reader, obj)
            return result
        finally:
            busy["color"] = False
    return wrapper


def patch(cls, attr, typed, collect=None):
    if cls is None or not hasattr(cls, attr):
        return
    orig = getattr(cls, attr)
    f = type_wrap(orig) if typed else orig
    if collect is not None:
        f = color_wrap(f, where(orig) + "/" + orig.__name__, collect)
    setattr(cls, attr, f)


def each(reader, pick=lambda r: r, suffix=""):
    return lambda r, a, k: [(suffix, reader, o) for o in pick(r)]


def one(reader, pick=lambda r: r, suffix=""):
    return lambda r, a, k: [(suffix, reader, pick(r))]


def scatter(r, a, k, suffix=""):
    tag = suffix or ("_polar" if len(a) > 0 and type(a[0]) == PolarAxes else "")
    name = cmap_kwarg(k)
    if name is not None:
        return [(tag, named(name), r)]
    if suffix == "_3d":
        return [(tag, all_faces, r)]
    return [(tag, first_face, r)] if len(r.get_facecolor()) else []


def hist(r, a, k):
    patches = r[2]
    items = [i for c in patches for i in c] if type(patches) == cbook.silent_list else list(patches)
    return [("", face, i) for i in items]


def own(kind):
    return lambda r, a, k: [("", face, a[0])] if type(a[0]) == kind else []


def surface(r, a, k):
    name = cmap_kwarg(k)
    return [("_3d", named(name), r)] if name is not None else [("_3d", lambda o: all_faces(o)[:1], r)]


patch(_process_plot_var_args, "_makeline", False, one(line, lambda r: r[0]))
patch(Axes, "bar", True, each(original_face))
patch(Axes, "barh", True)
patch(Axes, "plot", True)
patch(Axes, "axhline", True, one(line))
patch(Axes, "axvline", True, one(line))
patch(Axes, "axvspan", True, one(face))
patch(Axes, "axhspan", True, one(face))
patch(Axes, "hlines", True, one(all_edges))
patch(Axes, "vlines", True, one(all_edges))
patch(Axes, "errorbar", True)
patch(Axes, "boxplot", True, lambda r, a, k: [("", face, b) for b in r["boxes"] if type(b) == PathPatch])
patch(Axes, "violinplot", True, each(first_face, lambda r: r["bodies"]))
patch(Axes, "violin", True)
patch(Axes, "hist", True, hist)
patch(Axes, "fill_between", True)
patch(Axes, "fill_betweenx", True)
patch(Axes, "_fill_between_x_or_y", False, one(first_face))
patch(Axes, "scatter", True, scatter)
patch(Axes, "quiver", True, one(all_faces))
patch(Axes, "pie", True, each(face, lambda r: r[0]))
patch(Axes, "fill", True, each(face))
patch(Axes, "imshow", True, one(cmap))
patch(Axes, "pcolor", True, one(cmap))
patch(Axes, "contour", True, one(cmap))
patch(Axes, "contourf", True, one(cmap))
patch(Axes, "broken_barh", True, one(all_faces))
patch(Axes, "tripcolor", True, one(cmap))
patch(NonUniformImage, "__init__", True, lambda r, a, k: [("", cmap, a[0])])
patch(Ellipse, "__init__", True, own(Ellipse))
patch(Circle, "__init__", True, own(Circle))
# A polar plot's lines are logged under their own name (its _makeline calls are inside it).
PolarAxes.plot = color_wrap(Axes.plot, where(PolarAxes.plot) + "/plot", lambda r, a, k: [("_polar", line, l) for l in r])
patch(Axes3D, "scatter", True, lambda r, a, k: scatter(r, a, k, "_3d"))
patch(Axes3D, "plot", True, each(line, suffix="_3d"))
patch(Axes3D, "plot_surface", True, surface)
patch(Axes3D, "bar3d", True, one(lambda o: all_faces(o)[:1], suffix="_3d"))
patch(Axes3D, "bar", True, each(face, suffix="_3d"))
patch(Axes3D, "add_collection3d", True, one(all_faces, suffix="_3d"))

# The reference logs texts as the script's savefig calls draw them (to PDF there): each save
# of the script is drawn once more to PDF here with draw_text logged. A script that never saves
# has its final figure drawn once.
texts = []
saves = []
draw_text = RendererPdf.draw_text
savefig = Figure.savefig


# The save being logged: its number and figure, with each text it draws.
drawing = {"save": 0, "fig": None}


def logged_draw_text(self, gc, x, y, s, *args, **kwargs):
    texts.append((drawing["save"], drawing["fig"], s))
    return draw_text(self, gc, x, y, s, *args, **kwargs)


def log_texts(fig):
    RendererPdf.draw_text = logged_draw_text
    drawing["save"] += 1
    drawing["fig"] = fig
    try:
        savefig(fig, io.BytesIO(), format="pdf")
    finally:
        RendererPdf.draw_text = draw_text


# What the visibility check calls, taken before the script runs (a script that replaces them
# later does not reach the check through them; code that changes matplotlib's internals in its
# own process still can, as docs/metrics.md says).
set_visible, get_visible, canvas_draw, canvas_buffer = Artist.set_visible, Artist.get_visible, FigureCanvasAgg.draw, FigureCanvasAgg.buffer_rgba
get_text, text_extent, findobj, np_abs, np_asarray = Text.get_text, Text.get_window_extent, Artist.findobj, np.abs, np.asarray
# A text is shown when hiding it changes, where it is drawn, at least INK pixels per character
# (mathtext commands one each) by more than LEVELS on some channel: a 5 pt character at 100 dpi
# changes 10 to 20.
INK, LEVELS = 4, 32


def characters(text):
    return len(re.sub(r"\\[A-Za-z]+", "x", re.sub(r"[\s${}^_]", "", text)))


def shown_lines(fig, tight=False, pad=None):
    """The lines of text the saved image of fig shows (cropped as its save was: `tight`, `pad`), by
    pixels: each text's ink is what hiding it changes within its box, measured against a render with
    every text hidden; texts whose boxes overlap another's are hidden one at a time, so a text drawn
    over another does not lend it its pixels."""
    canvas = FigureCanvasAgg(fig)

    def render():
        canvas_draw(canvas)
        return np_asarray(canvas_buffer(canvas))[..., :3].astype(np.int16)

    render()
    # Laid out once: a layout engine would move everything when texts are hidden.
    engine = fig.get_layout_engine()
    fig.set_layout_engine("none")
    restore = None
    try:
        if tight and adjust_bbox is not None:
            pad = pad if isinstance(pad, (int, float)) else matplotlib.rcParams["savefig.pad_inches"]
            restore = adjust_bbox(fig, fig.get_tightbbox(canvas.get_renderer()).padded(pad), None)
        base = render()
        renderer = canvas.get_renderer()
        h, w = base.shape[:2]
        found = []
        for t in findobj(fig, lambda o: isinstance(o, Text)):
            text = get_text(t)
            if not text.strip() or not get_visible(t):
                continue
            bb = text_extent(t, renderer)
            box = (max(h - int(np.ceil(bb.y1)) - 1, 0), min(h - int(np.floor(bb.y0)) + 1, h),
                   max(int(np.floor(bb.x0)) - 1, 0), min(int(np.ceil(bb.x1)) + 1, w))
            if box[1] > box[0] and box[3] > box[2]:
                found.append((t, text, box))

        def without(ts):
            for t in ts:
                set_visible(t, False)
            try:
                return render()
            finally:
                for t in ts:
                    set_visible(t, True)

        def inked(img, text, box):
            y0, y1, x0, x1 = box
            return int((np_abs(img[y0:y1, x0:x1] - base[y0:y1, x0:x1]).max(axis=-1) > LEVELS).sum()) >= INK * max(characters(text), 1)

        bare = without([t for t, _, _ in found])
        lines = []
        for i, (t, text, box) in enumerate(found):
            if not inked(bare, text, box):
                continue
            y0, y1, x0, x1 = box
            overlaps = any(j != i and b[0] < y1 and b[1] > y0 and b[2] < x1 and b[3] > x0 for j, (_, _, b) in enumerate(found))
            if overlaps and not inked(without([t]), text, box):
                continue
            # As the renderers get them: a line at a time, an escaped dollar unescaped outside mathtext.
            lines += [t._preprocess_math(line)[0] if hasattr(t, "_preprocess_math") else line for line in text.split("\n")]
        return lines
    finally:
        if restore is not None:
            restore()
        fig.set_layout_engine(engine)


def counted_texts(rendered, tight=False, pad=None):
    """(texts the saved image shows, texts it does not): each save's logged texts of the rendered
    figure taken against its shown lines (each shown line once per save), other figures' not at all.
    Blank texts count as logged: there is nothing to see."""
    shown_once = shown_lines(rendered, tight, pad)
    counted, unseen, left, last = [], [], None, None
    for save, fig, text in texts:
        if save != last:
            left, last = list(shown_once), save
        if fig is rendered and not text.strip():
            counted.append(text)
        elif fig is rendered and text in left:
            left.remove(text)
            counted.append(text)
        else:
            unseen.append(text)
    return counted, unseen


def traced_savefig(self, *args, **kwargs):
    result = savefig(self, *args, **kwargs)
    # With how it was cropped: a tight save shows what lies past the figure's edges.
    tight = kwargs.get("bbox_inches", matplotlib.rcParams["savefig.bbox"]) == "tight"
    saves.append((self, tight, kwargs.get("pad_inches")))
    log_texts(self)
    return result


Figure.savefig = traced_savefig
report = {"texts": [], "layout": [], "types": {}, "colors": []}
sys.argv = [SCRIPT]
try:
    runpy.run_path(SCRIPT, run_name="__main__")
except BaseException as e:
    # The reference's log is written at the end of the script: a script that stops early logs nothing.
    report["error"] = type(e).__name__ + ": " + str(e)[:500]
else:
    fig = plt.gcf()
    if not saves:
        log_texts(fig)
    layout = {}
    for ax in fig.axes:
        spec = ax.get_subplotspec()
        if spec is None:
            continue
        nrows, ncols = spec.get_gridspec().get_geometry()
        layout[id(ax)] = dict(nrows=nrows, ncols=ncols, row_start=spec.rowspan.start, row_end=spec.rowspan.stop - 1,
                              col_start=spec.colspan.start, col_end=spec.colspan.stop - 1)
    colors = set()
    for name, reader, obj in objects.values():
        for c in reader(obj):
            if c is not None:
                colors.add((name, c))
    rendered, tight, pad = saves[-1] if saves else (fig, False, None)
    png = io.BytesIO()
    savefig(rendered, png, format="png")
    check = {}
    try:
        counted, unseen = counted_texts(rendered, tight, pad)
    except Exception as e:
        # A figure the check cannot draw shows no text it can vouch for.
        counted, unseen = [], [t for _, _, t in texts]
        check = {"textCheck": type(e).__name__ + ": " + str(e)[:200]}
    report = {"texts": [str(t) for t in counted], "unseenTexts": [str(t) for t in unseen], "layout": list(layout.values()), "types": types,
              "colors": sorted(colors), "render": base64.b64encode(png.getvalue()).decode(), **check}
try:
    sys.stdout.flush()
except Exception:
    pass
emit("\n@pwp-trace-end " + NONCE + " " + json.dumps(report) + "\n")
