// Design2Code's and ChartMimic's published scores where graders run: in the verifier
// container, with the image's headless Chromium (Design2Code's text blocks) and its Python
// and matplotlib (ChartMimic's tracing), on fixture pairs whose component values are derived
// by hand from the reference definitions below.
import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bufferOf, tarOf } from '../../host/deployment/tarArchive';
import { evaluate } from '../../host/evaluation/evaluate';
import type { EvaluationResult } from '../../host/evaluation/evaluationResult';
import { EvaluatorSchema, type Evaluator } from '../../host/evaluation/evaluatorSchema';
import { Verifier } from '../../host/evaluation/verifier';
import { testImage } from './environmentFixture';

// Design2Code pair, 600×400, every text in DejaVu Sans Mono 20px (monospace: a block's width
// is proportional to its characters, all heights equal), absolutely placed.
const PAGE = (body: string) => `<!doctype html><html><body style="margin:0;font:20px/30px 'DejaVu Sans Mono',monospace">${body}</body></html>\n`;
const REF_HTML = PAGE('<div style="position:absolute;left:40px;top:40px;color:#000000">Hello world</div>'
  + '<p style="position:absolute;left:40px;top:200px;margin:0;color:#ff0000">Buy our things</p>'
  + '<div style="position:absolute;left:300px;top:300px;color:#0000ff">Omega</div>');
const CAND_HTML = PAGE('<div style="position:absolute;left:40px;top:40px;color:#000000">Hello World</div>'
  + '<p style="position:absolute;left:40px;top:260px;margin:0;color:#c80000">Buy our things</p>');

// ChartMimic pair: two axes side by side, tick labels removed so the only texts are the titles.
const REF_PY = 'import matplotlib.pyplot as plt\nfig, (left, right) = plt.subplots(1, 2, figsize=(6, 3))\n'
  + 'left.bar(["x", "y"], [1, 2], color=["#FF0000", "#0000FF"])\nleft.set_title("Left")\n'
  + 'right.plot([0, 1], [0, 1], color="#00FF00")\nright.set_title("Right")\n'
  + 'for ax in (left, right):\n    ax.set_xticks([])\n    ax.set_yticks([])\nplt.savefig("ref.pdf")\n';
const CAND_PY = 'import matplotlib.pyplot as plt\nfig, (left, right) = plt.subplots(1, 2)\n'
  + 'left.bar([0, 1], [1, 2], color=["#FF0000", "#0000C8"])\nleft.set_title("Left")\n'
  + 'right.scatter([0, 1], [0, 1], color="#00FF00")\nright.set_title("Right side")\n'
  + 'for ax in (left, right):\n    ax.set_xticks([])\n    ax.set_yticks([])\nprint("drawn")\nplt.savefig("chart.png")\n';
// Reads the hidden reference if it can: the grader must have made that impossible.
const PEEK_PY = 'import shutil\nshutil.copy("/pwp/hidden/reference.py", "/workspace/stolen.py")\n';

// Pages that hold the reference's text in the DOM but do not show it.
const withBody = (html: string, extra: string) => html.replace('</body>', `${extra}</body>`);
const PAGES: Record<string, string> = {
  // The trick that scored 1.000 when only the DOM was read: the original page under a white sheet.
  'white.html': withBody(REF_HTML, '<div style="position:fixed;inset:0;background:#fff"></div>'),
  // The same sheet letting the pointer through, so an elementFromPoint check would see the text.
  'sheet.html': withBody(REF_HTML, '<div style="position:fixed;inset:0;background:#fff;pointer-events:none"></div>'),
  // Every text the colour of the page.
  'camouflage.html': REF_HTML.replace(/color:#[0-9a-f]{6}/g, 'color:#ffffff'),
  // "Omega" moved right of the viewport (the page grows, the reader's screen does not).
  'offscreen.html': REF_HTML.replace('left:300px;top:300px', 'left:900px;top:300px'),
  // The page's own script would hide everything after load: scripts do not run when grading.
  'scripted.html': withBody(REF_HTML, '<script>document.body.style.visibility = "hidden"</script>'),
};

// Scripts that try to hand the grader a report of their own.
const FORGED_TRACE = 'import json, os, sys\nreport = {"texts": ["Left", "Right"], "layout": [], "types": {}, "colors": []}\n'
  + 'print("@pwp-trace-end " + "0" * 32 + " " + json.dumps(report))\n'
  // Every other pipe it holds (the tracer's copy of stdout among them).
  + 'import stat\nfor fd in range(3, 64):\n    try:\n        if stat.S_ISFIFO(os.fstat(fd).st_mode) or stat.S_ISSOCK(os.fstat(fd).st_mode):\n'
  + '            os.write(fd, ("\\n@pwp-trace-end " + "1" * 32 + " " + json.dumps(report) + "\\n").encode())\n    except OSError:\n        pass\n'
  // What it can read of its own process: the tracer's text is on its command line, no nonce-like string.
  + 'import re\nseen = open("/proc/self/cmdline", "rb").read() + open("/proc/self/environ", "rb").read()\n'
  + 'print("argv", sys.argv, len(re.findall(rb"[0-9a-f]{32}", seen)))\n';
// The original chart plus fully transparent bars in colours it does not have: traced, never drawn.
// A chart drawn with path patches only, as matplotlib_venn draws a Venn diagram: no plotting call the trace knows.
const CIRCLES_PY = 'import matplotlib.pyplot as plt\nfrom matplotlib.patches import PathPatch\nfrom matplotlib.path import Path\nfig, ax = plt.subplots(figsize=(4, 3))\n'
  + 'ax.add_patch(PathPatch(Path.circle((0.4, 0.5), 0.3), facecolor="pink", alpha=0.6))\nax.add_patch(PathPatch(Path.circle((0.6, 0.5), 0.3), facecolor="lightgreen", alpha=0.6))\n'
  + 'ax.text(0.3, 0.5, "24")\nax.text(0.7, 0.5, "8")\nax.set_title("Overlap")\nax.axis("off")\nplt.savefig("circles.pdf")\n';
const GHOST_PY = REF_PY.replace('plt.savefig', 'left.bar(["z", "w"], [1, 1], color=["#FF00FF", "#00FFFF"], alpha=0)\nplt.savefig');
// The reference's titles drawn but not shown: coloured as the background, transparent, under
// an opaque box, off the image, and in a figure of their own that is saved but not the chart.
const UNSHOWN_PY = REF_PY.replace('left.set_title("Left")', 'left.set_title("Left", color="white")').replace('right.set_title("Right")', 'right.set_title("Right", alpha=0)')
  .replace('plt.savefig("ref.pdf")', 'fig.text(0.3, 0.5, "Left", zorder=1)\nfig.add_artist(plt.Rectangle((0.25, 0.4), 0.5, 0.3, color="#FF0000", zorder=9, transform=fig.transFigure))\n'
    + 'fig.text(3.0, 0.5, "Right")\nother = plt.figure()\nother.text(0.5, 0.5, "Left")\nother.text(0.5, 0.7, "Right")\nother.savefig("other.png")\nplt.figure(fig.number)\nfig.savefig("chart.png")\n');
// A title above the figure's edge, shown by a tight save (as ChartMimic's bar_85 puts its legend).
// The original saved twice: its texts are logged for each save, as the reference logs them.
const TWICE_PY = REF_PY.replace('plt.savefig("ref.pdf")', 'plt.savefig("chart.pdf")\nplt.savefig("chart.png")');
const TIGHT_PY = REF_PY.replace('plt.savefig("ref.pdf")', 'fig.text(0.5, 1.05, "Above the edge")\nplt.savefig("chart.png", bbox_inches="tight")');

const near = (actual: number | null | undefined, expected: number, tol: number, what: string) =>
  assert.ok(typeof actual === 'number' && Math.abs(actual - expected) <= tol, `${what}: ${actual} is not within ${tol} of ${expected}`);
const component = (r: EvaluationResult, name: string) => r.components?.find((c) => c.name === name);

describe('published metrics in the verifier', function () {
  this.timeout(600_000);
  let v: Verifier;
  const grade = (e: unknown) => evaluate(EvaluatorSchema.parse(e) as Evaluator, v);

  before(async function () {
    this.timeout(30 * 60_000);
    const image = await testImage();
    const hidden = mkdtempSync(join(tmpdir(), 'pwp-metrics-hidden-'));
    writeFileSync(join(hidden, 'reference.html'), REF_HTML);
    writeFileSync(join(hidden, 'reference.py'), REF_PY);
    writeFileSync(join(hidden, 'circles.py'), CIRCLES_PY);
    writeFileSync(join(hidden, 'tight.py'), TIGHT_PY);
    v = await Verifier.start({ image, labels: { 'pwp.test': '1' } });
    const files = {
      'index.html': CAND_HTML, 'same.html': REF_HTML, ...PAGES,
      'chart.py': CAND_PY, 'same.py': REF_PY, 'broken.py': 'import matplotlib.pyplot as plt\nplt.bar([0], [1])\nraise SystemExit(3)\n', 'peek.py': PEEK_PY,
      'forged.py': FORGED_TRACE, 'ghost.py': GHOST_PY, 'circles.py': CIRCLES_PY, 'unshown.py': UNSHOWN_PY, 'tight.py': TIGHT_PY, 'twice.py': TWICE_PY, 'bars.py': CIRCLES_PY.replace(/ax\.add_patch\(.*\n/g, '').replace('ax.text', 'ax.bar([0.4, 0.6], [0.5, 0.5], color="pink")\nax.text'),
    };
    await v.load({ workspaceTar: await bufferOf(tarOf(Object.entries(files).map(([path, content]) => ({ path: `workspace/${path}`, content })))), hiddenDir: hidden });
  });
  after(async () => { await v?.remove(); });

  it('Design2Code: block-match, text, position and colour as the reference defines them, CLIP absent', async () => {
    // Reference blocks: "Hello world" (11 chars, black), "Buy our things" (14, #ff0000), "Omega" (5, blue).
    // Candidate: "Hello World" in place, "Buy our things" 60 px lower in #c80000, no "Omega".
    //   block-match = matched areas / all areas = (2·11 + 2·14) / (2·11 + 2·14 + 5) = 50/55 = 0.90909
    //   text        = mean(ratio("Hello World", "Hello world") = 20/22, 1) = 0.954545
    //   position    = mean(1, 1 − 60/400) = mean(1, 0.85) = 0.925
    //   colour      = mean(1, 1 − ΔE00(#c80000, #ff0000)/100 = 1 − 11.829/100) = 0.940855
    //   visual      = SSIM of the two renders (not derived by hand; checked against the pieces below)
    //   score       = mean of the five
    const r = await grade({ kind: 'design2code', html: 'index.html', reference: 'reference.html', width: 600, height: 400, threshold: 0.9 });
    assert.equal(r.kind, 'design2code', r.summary);
    near(component(r, 'block-match')?.value, 50 / 55, 1e-3, 'block-match');
    near(component(r, 'text')?.value, (20 / 22 + 1) / 2, 1e-6, 'text');
    near(component(r, 'position')?.value, 0.925, 1e-3, 'position');
    near(component(r, 'colour')?.value, 0.940855, 1e-4, 'colour');
    assert.equal(component(r, 'CLIP')?.value, null);
    assert.match(component(r, 'CLIP')?.absent ?? '', /weights/);
    const visual = component(r, 'visual (SSIM)')?.value ?? NaN;
    // Mostly white pages, one text moved and one missing: alike in most windows, not all.
    assert.ok(visual > 0.8 && visual < 0.99, `visual ${visual}`);
    near(r.score, (50 / 55 + (20 / 22 + 1) / 2 + 0.925 + 0.940855 + visual) / 5, 1e-3, 'score');
    assert.equal(r.passed, true, r.summary);
    assert.match(r.summary, /block-match 0\.9\d\d, text 0\.955, position 0\.925, colour 0\.941, visual \(SSIM\) 0\.\d+, CLIP absent/);
  });

  it('Design2Code: the original page scores 1, a missing page 0', async () => {
    const same = await grade({ kind: 'design2code', html: 'same.html', reference: 'reference.html', width: 600, height: 400 });
    assert.equal(same.score, 1, same.summary);
    const missing = await grade({ kind: 'design2code', html: 'nothing.html', reference: 'reference.html', width: 600, height: 400 });
    assert.deepEqual([missing.score, missing.passed], [0, false]);
    assert.match(missing.summary, /nothing\.html does not exist/);
  });

  it('Design2Code: text the render does not show does not count (covered, coloured as the page, off-screen), and the page\'s scripts do not run', async () => {
    const d2c = (html: string) => grade({ kind: 'design2code', html, reference: 'reference.html', width: 600, height: 400, threshold: 0.9 });
    for (const [page, why] of [['white.html', /6 of 6 words not in the render \(covered 6\)/], ['sheet.html', /6 of 6 words not in the render \(covered 6\)/],
      ['camouflage.html', /6 of 6 words not in the render \(background colour 6\)/]] as const) {
      const r = await d2c(page);
      assert.deepEqual([component(r, 'block-match')?.value, component(r, 'text')?.value], [0, 0], `${page}: ${r.summary}`);
      // Only the pixel similarity of a blank page to a mostly white one is left.
      assert.ok(r.score < 0.2, `${page}: ${r.summary}`);
      assert.match(r.summary, why);
    }
    const off = await d2c('offscreen.html');
    assert.match(off.summary, /1 of 6 words not in the render \(off-screen 1\)/);
    near(component(off, 'block-match')?.value ?? NaN, 50 / 55, 2e-2, 'block-match without Omega');
    const scripted = await d2c('scripted.html');
    assert.equal(scripted.score, 1, scripted.summary);
  });

  it('ChartMimic: the text, layout, type and colour F1 of traced matplotlib calls, GPT-4V absent', async () => {
    // Texts: generated [Left, Right side], reference [Left, Right]: 1 correct → P = R = 1/2, F1 0.5.
    // Layout: both have axes at (1×2 grid, cell 0) and (1×2, cell 1): F1 1.
    // Types: generated {bar, scatter}, reference {bar, plot}: 1 correct of 2 each → F1 0.5.
    // Colours: bar {#FF0000, #0000C8} vs {#FF0000, #0000FF}: 1 + (1 − ΔE00 7.0178/100) = 1.929822;
    //   scatter #00FF00 vs the reference's line (_makeline) #00FF00: different calls, 0.
    //   P = R = 1.929822 / 3 → F1 0.643274.
    // Visual: SSIM of the two renders (another figure size, a scatter for a line).
    // Score: mean(0.5, 1, 0.5, 0.643274, visual), below the 0.9 threshold.
    const r = await grade({ kind: 'chartmimic', script: 'chart.py', reference: 'reference.py' });
    assert.equal(r.kind, 'chartmimic', r.summary);
    near(component(r, 'text')?.value, 0.5, 1e-9, 'text');
    near(component(r, 'layout')?.value, 1, 1e-9, 'layout');
    near(component(r, 'type')?.value, 0.5, 1e-9, 'type');
    near(component(r, 'colour')?.value, 1.929822 / 3, 1e-5, 'colour');
    assert.equal(component(r, 'GPT-4V')?.value, null);
    const visual = component(r, 'visual (SSIM)')?.value ?? NaN;
    assert.ok(visual > 0.3 && visual < 1, `visual ${visual}`);
    near(r.score, (0.5 + 1 + 0.5 + 1.929822 / 3 + visual) / 5, 1e-5, 'score');
    assert.equal(r.passed, false);
    assert.match(r.output?.stdoutTail ?? '', /drawn/, 'the script\'s own output is kept');
  });

  it('ChartMimic: the original script scores 1; a script that stops early, a missing one and one that reads the reference score 0', async () => {
    const same = await grade({ kind: 'chartmimic', script: 'same.py', reference: 'reference.py' });
    assert.equal(same.score, 1, same.summary);
    const broken = await grade({ kind: 'chartmimic', script: 'broken.py', reference: 'reference.py' });
    assert.equal(broken.score, 0, broken.summary);
    assert.match(broken.summary, /broken\.py failed \(SystemExit: 3\)/);
    const missing = await grade({ kind: 'chartmimic', script: 'nothing.py', reference: 'reference.py' });
    assert.match(missing.summary, /nothing\.py does not exist/);
    const peek = await grade({ kind: 'chartmimic', script: 'peek.py', reference: 'reference.py' });
    assert.equal(peek.score, 0, peek.summary);
    assert.match(peek.summary, /PermissionError/);
    assert.equal(await v.readFile('/workspace/stolen.py'), undefined);
  });

  it('ChartMimic: a report the script writes itself is tampering; the marker is nowhere the script can read', async () => {
    const r = await grade({ kind: 'chartmimic', script: 'forged.py', reference: 'reference.py' });
    assert.deepEqual([r.score, r.passed], [0, false]);
    assert.match(r.summary, /^tampering suspected: the script wrote [2-9] records of its own on the trace channel/);
    // What it could read: no nonce on its command line or in its environment.
    assert.match(r.output?.stdoutTail ?? '', /argv \['\/workspace\/forged\.py'\] 0/);
  });

  it('ChartMimic: colours traced but not in the render do not count', async () => {
    const r = await grade({ kind: 'chartmimic', script: 'ghost.py', reference: 'reference.py' });
    assert.match(r.summary, /2 traced colours not in the render, not counted \(#00FFFF, #FF00FF\)/);
    assert.equal(component(r, 'colour')?.value, 1, r.summary);
    assert.ok((component(r, 'type')?.value ?? 1) < 1, 'the extra bar call still counts as a call');
  });

  it('ChartMimic: texts drawn but not shown in the saved image do not count (background colour, transparent, covered, off the image, another figure); a tight save shows what is past the edge', async () => {
    const r = await grade({ kind: 'chartmimic', script: 'unshown.py', reference: 'reference.py' });
    assert.equal(component(r, 'text')?.value, 0, r.summary);
    assert.match(r.summary, /; 6 drawn texts not shown in the saved image, not counted \(/);
    assert.equal(component(r, 'layout')?.value, 1, 'the rest of the chart is the original\'s');
    const tight = await grade({ kind: 'chartmimic', script: 'tight.py', reference: 'tight.py' });
    assert.equal(component(tight, 'text')?.value, 1, tight.summary);
    assert.doesNotMatch(tight.summary, /not shown/);
    // Texts [Left, Right] twice against [Left, Right]: P = 2/4, R = 1, F1 2/3; none unseen.
    const twice = await grade({ kind: 'chartmimic', script: 'twice.py', reference: 'reference.py' });
    near(component(twice, 'text')?.value, 2 / 3, 1e-9, 'text of two saves');
    assert.doesNotMatch(twice.summary, /not shown/);
  });

  it('ChartMimic: a reference that draws nothing the trace knows (path patches only, as a Venn diagram) scores 0 on type and colour for the original too, as ChartMimic\'s evaluator does, and the result says no script can pass', async () => {
    const same = await grade({ kind: 'chartmimic', script: 'circles.py', reference: 'circles.py' });
    assert.deepEqual(['type', 'colour', 'text', 'visual (SSIM)'].map((n) => component(same, n)?.value), [0, 0, 1, 1], same.summary);
    near(same.score, 0.6, 1e-9, 'score');
    assert.match(same.summary, /; the original script draws nothing ChartMimic's evaluator traces as a chart type or colour, so those score 0 for any script, the original included\); below the threshold 0\.9$/);
    // Nothing can reach 0.9 with two of five parts at 0: the row is invalid as published, and benches and checks list it apart.
    assert.match(same.unreachable ?? '', /draws nothing ChartMimic's evaluator traces .*: no script reaches the threshold 0\.9$/, same.summary);
    // Leaving type and colour out would let another chart with the same labels pass: it stays below the original.
    const bars = await grade({ kind: 'chartmimic', script: 'bars.py', reference: 'circles.py' });
    assert.ok(bars.score < same.score, bars.summary);
  });
});
