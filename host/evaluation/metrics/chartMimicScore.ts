// ChartMimic's low-level scores (Shi et al. 2024, "ChartMimic: Evaluating LMM's Cross-Modal
// Reasoning Capability via Chart-to-Code Generation", and its reference evaluators under
// chart2code/utils/evaluator/), each an F1 of what the generated script drew against what the
// reference script drew, both traced through matplotlib (verifierScripts/chartTrace.py):
//   text    the strings drawn (a multiset; each reference text matched at most once)
//   layout  each axes' grid position (rows, columns, row and column span)
//   type    the plotting calls made (bar, plot, scatter, …), counted
//   colour  the colours of the drawn elements, per plotting call: within each call the best
//           one-to-one pairing of colours, each pair scored by CIEDE2000 similarity; precision
//           and recall divide the summed similarity by the number of colours of each script
// The high-level score is a GPT-4V judgement and is reported as absent (null).
import { maxWeightAssignment } from './assignment';
import { colourSimilarity, hexToRgb } from './ciede2000';

/** What one script drew, as the tracer reports it. */
export interface ChartTrace {
  /** The texts its saves drew that the saved image shows (the rest are unseenTexts). */
  texts: string[];
  /** Texts drawn but not shown: the background's colour, covered, transparent, too small, off the image, in another figure. */
  unseenTexts?: string[];
  /** Why the tracer could not check which texts the image shows (then none counts). */
  textCheck?: string;
  layout: { nrows: number; ncols: number; row_start: number; row_end: number; col_start: number; col_end: number }[];
  /** Calls per plotting function. */
  types: Record<string, number>;
  /** [plotting function, colour]: `#RRGGBB`, or a colormap's name. */
  colors: [string, string][];
  /** Why the script did not finish (then nothing it drew counts, as in the reference). */
  error?: string;
  /** The figure it saved last (or its current one) as PNG, base64; absent when it did not finish. */
  render?: string;
}

export interface F1 { precision: number; recall: number; f1: number }
export interface ChartMimicScores { text: F1; layout: F1; type: F1; color: F1; gpt4v: null }

export const GPT4V_ABSENT = 'the high-level score is a GPT-4V judgement of the two images; no model is called, so it is not computed';

export function f1(correct: number, generated: number, golden: number): F1 {
  const precision = generated ? correct / generated : 0;
  const recall = golden ? correct / golden : 0;
  return { precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 };
}

/** Items of the reference found among the generated ones, each generated item used once. */
function multisetHits<T>(generated: readonly T[], golden: readonly T[], key: (x: T) => string): number {
  const left = new Map<string, number>();
  for (const g of generated) left.set(key(g), (left.get(key(g)) ?? 0) + 1);
  let hits = 0;
  for (const t of golden) {
    const k = left.get(key(t)) ?? 0;
    if (k > 0) { hits++; left.set(key(t), k - 1); }
  }
  return hits;
}

export function textF1(generated: readonly string[], golden: readonly string[]): F1 {
  if (!generated.length || !golden.length) return f1(0, 0, 0);
  return f1(multisetHits(generated, golden, (s) => s), generated.length, golden.length);
}

export function layoutF1(generated: ChartTrace['layout'], golden: ChartTrace['layout']): F1 {
  if (!generated.length || !golden.length) return f1(0, 0, 0);
  const key = (l: ChartTrace['layout'][number]) => [l.nrows, l.ncols, l.row_start, l.row_end, l.col_start, l.col_end].join(',');
  return f1(multisetHits(generated, golden, key), generated.length, golden.length);
}

export function typeF1(generated: Record<string, number>, golden: Record<string, number>): F1 {
  const total = Object.values(generated).reduce((s, n) => s + n, 0);
  if (!total) return f1(0, 0, 0);
  let correct = 0;
  for (const [k, n] of Object.entries(generated)) correct += Math.min(n, golden[k] ?? 0);
  return f1(correct, total, Object.values(golden).reduce((s, n) => s + n, 0));
}

/** Two logged colours: CIEDE2000 similarity of hex colours, equality of colormap names, 0 otherwise. */
export function colourEntrySimilarity(a: string, b: string): number {
  const ra = hexToRgb(a);
  const rb = hexToRgb(b);
  if (ra && rb) return colourSimilarity(ra, rb);
  if (!a.startsWith('#') && !b.startsWith('#')) return a === b ? 1 : 0;
  return 0;
}

/**
 * The logged colours as the reference keeps them: distinct entries; beyond 10, a colour within
 * 0.7 similarity of one already kept is dropped. The reference walks them in Python's set
 * order (which varies between runs); they are sorted first here so a score does not.
 */
export function keptColours(colors: readonly [string, string][]): [string, string][] {
  const distinct = [...new Map(colors.map(([f, c]) => [`${f}--${c}`, [f, c] as [string, string]])).values()];
  if (distinct.length <= 10) return distinct;
  distinct.sort((x, y) => (`${x[0]}--${x[1]}` < `${y[0]}--${y[1]}` ? -1 : 1));
  const kept: [string, string][] = [];
  for (const entry of distinct) if (!kept.some((k) => colourEntrySimilarity(entry[1], k[1]) > 0.7)) kept.push(entry);
  return kept;
}

export function colorF1(generatedColors: readonly [string, string][], goldenColors: readonly [string, string][]): F1 {
  const gen = keptColours(generatedColors);
  const gold = keptColours(goldenColors);
  const group = (l: [string, string][]) => { const m = new Map<string, string[]>(); for (const [f, c] of l) m.set(f, [...(m.get(f) ?? []), c]); return m; };
  const g1 = group(gen);
  const g2 = group(gold);
  let total = 0;
  for (const f of new Set([...g1.keys(), ...g2.keys()])) {
    const a = g1.get(f) ?? [];
    const b = g2.get(f) ?? [];
    if (a.length && b.length) total += maxWeightAssignment(a.map((x) => b.map((y) => colourEntrySimilarity(x, y)))).total;
  }
  return f1(total, gen.length, gold.length);
}

export function chartMimicScores(generated: ChartTrace, golden: ChartTrace): ChartMimicScores {
  return {
    text: textF1(generated.texts, golden.texts),
    layout: layoutF1(generated.layout, golden.layout),
    type: typeF1(generated.types, golden.types),
    color: colorF1(generated.colors, golden.colors),
    gpt4v: null,
  };
}
