// Text and file-name search over the workspace with ripgrep (in the image), plus the ranking
// helpers the search tools share. Pure apart from running rg.
import { relative } from 'node:path';
import { runProcess } from './processRunner';
import { ToolError } from './toolError';

/** Folders that no listing or search descends into. */
export const IGNORED_DIRS = ['node_modules', '.git', '__pycache__', '.venv', 'venv', 'dist', 'build', '.mypy_cache', '.pytest_cache'];

export interface GrepMatch { file: string; line: number; text: string }

export interface GrepOptions {
  root: string; env: NodeJS.ProcessEnv; signal?: AbortSignal;
  pattern: string; fixed?: boolean; caseSensitive?: boolean; wordRegexp?: boolean;
  include?: string[]; exclude?: string[]; paths?: string[]; maxResults: number;
}

function globArgs(o: { include?: string[]; exclude?: string[] }): string[] {
  const args = ['--hidden', ...IGNORED_DIRS.flatMap((d) => ['-g', `!**/${d}/**`])];
  for (const g of o.include ?? []) args.push('-g', g);
  for (const g of o.exclude ?? []) args.push('-g', `!${g}`);
  return args;
}

export async function grep(o: GrepOptions): Promise<{ matches: GrepMatch[]; more: boolean }> {
  const args = ['--line-number', '--no-heading', '--with-filename', '--color', 'never', '--max-columns', '400', '--max-columns-preview', '--null',
    ...globArgs(o), o.caseSensitive === false ? '-i' : o.caseSensitive ? '-s' : '-S'];
  if (o.fixed) args.push('-F');
  if (o.wordRegexp) args.push('-w');
  args.push('-e', o.pattern, '--', ...(o.paths?.length ? o.paths : ['.']));
  const r = await runProcess('rg', args, { cwd: o.root, env: o.env, signal: o.signal, timeoutMs: 60_000, maxBytes: 8 * 1024 * 1024 });
  if (r.code === 2 && !r.stdout) throw new ToolError(`search failed: ${r.stderr.trim().split('\n')[0]}`, 'InvalidPattern');
  const matches: GrepMatch[] = [];
  let more = r.truncated;
  for (const line of r.stdout.split('\n')) {
    if (!line) continue;
    const nul = line.indexOf('\0');
    if (nul < 0) continue;
    const rest = line.slice(nul + 1);
    const colon = rest.indexOf(':');
    if (matches.length >= o.maxResults) { more = true; break; }
    matches.push({ file: line.slice(0, nul).replace(/^\.\//, ''), line: Number(rest.slice(0, colon)), text: rest.slice(colon + 1) });
  }
  return { matches, more };
}

/** Every file in the workspace (ignored folders skipped), relative paths. */
export async function listFiles(root: string, env: NodeJS.ProcessEnv, signal?: AbortSignal, sub = '.'): Promise<string[]> {
  const r = await runProcess('rg', ['--files', '--hidden', ...globArgs({}), '--', sub], { cwd: root, env, signal, timeoutMs: 60_000 });
  return r.stdout.split('\n').filter(Boolean).map((f) => f.replace(/^\.\//, '')).sort();
}

/** Fuzzy score of a path for a query (higher is better; 0 = no match): subsequence with bonuses. */
export function fuzzyScore(path: string, query: string): number {
  const p = path.toLowerCase();
  const q = query.toLowerCase().trim();
  if (!q) return 0;
  const base = p.slice(p.lastIndexOf('/') + 1);
  if (base === q) return 1000;
  if (base.startsWith(q)) return 800 - base.length;
  if (base.includes(q)) return 600 - base.length;
  if (p.includes(q)) return 400 - p.length / 10;
  let score = 0;
  let at = -1;
  let run = 0;
  for (const ch of q) {
    const next = p.indexOf(ch, at + 1);
    if (next === -1) return 0;
    run = next === at + 1 ? run + 1 : 0;
    score += 1 + run * 2 + (next === 0 || '/_-.'.includes(p[next - 1]) ? 3 : 0);
    at = next;
  }
  return Math.max(1, score - p.length / 50);
}

/** A crude English stem, so "hashed passwords" finds hash_password (terms match as substrings). */
export function stem(w: string): string {
  if (w.length > 5 && w.endsWith('ing')) return w.slice(0, -3);
  if (w.length > 4 && w.endsWith('ed')) return w.slice(0, -2);
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

/** Words of a natural-language or code query worth searching for. */
export function queryTerms(query: string): string[] {
  const stop = new Set([
    'the', 'a', 'an', 'of', 'to', 'in', 'and', 'or', 'for', 'is', 'are', 'where', 'what', 'how', 'does', 'do', 'which', 'with', 'on', 'that', 'this', 'it',
    'be', 'by', 'from', 'code', 'function', 'find',
  ]);
  const words = query.match(/[A-Za-z_][A-Za-z0-9_]*|\d+/g) ?? [];
  const terms = new Set<string>();
  for (const w of words) {
    if (w.length < 2 || stop.has(w.toLowerCase())) continue;
    terms.add(stem(w.toLowerCase()));
    // camelCase and snake_case parts also match.
    for (const part of w.split(/_|(?<=[a-z])(?=[A-Z])/)) if (part.length > 2 && !stop.has(part.toLowerCase())) terms.add(stem(part.toLowerCase()));
  }
  return [...terms].slice(0, 12);
}

export function rel(root: string, abs: string): string { return relative(root, abs) || '.'; }
