// Build files decide which tests exist (Cargo.toml's `autotests`, package.json's `scripts.test`,
// go.mod's `replace`), so they are test infrastructure; yet a task's fix may legitimately touch
// a part of one (a dependency added to Cargo.toml). A task names such parts
// (`grading.agentParts`); the agent's version of the file is kept only when everything outside
// those parts reads as the task's. The reading is deliberately coarse and refuses whatever it
// cannot split for sure (a TOML multi-line string, a header it cannot read, JSON that does not
// parse): such a file is put back whole, never kept on a guess.
import { isDeepStrictEqual } from 'node:util';

/**
 * Whether `after` differs from `before` only inside `parts`, by the file's kind: TOML tables
 * (`dependencies` covers `[dependencies]` and `[dependencies.serde]`; `*` is one key:
 * `target.*.dependencies`), JSON key paths (`dependencies`, `scripts.build`) and go.mod/go.work
 * directives (`require`). Files of other kinds have no parts: false.
 */
export function changedOnlyIn(path: string, before: Buffer, after: Buffer, parts: readonly string[]): boolean {
  if (!parts.length) return false;
  const name = path.split('/').pop() ?? path;
  const [a, b] = [before.toString('utf8'), after.toString('utf8')];
  if (name.endsWith('.toml')) {
    const [x, y] = [tomlOutside(a, parts), tomlOutside(b, parts)];
    return x !== undefined && y !== undefined && isDeepStrictEqual(x, y);
  }
  if (name.endsWith('.json')) {
    const [x, y] = [jsonOutside(a, parts), jsonOutside(b, parts)];
    return x !== undefined && y !== undefined && isDeepStrictEqual(x, y);
  }
  if (name === 'go.mod' || name === 'go.work') {
    const [x, y] = [goModOutside(a, parts), goModOutside(b, parts)];
    return x !== undefined && y !== undefined && isDeepStrictEqual(x, y);
  }
  return false;
}

const matchesPath = (path: readonly string[], pattern: string) => {
  const segs = pattern.split('.');
  return path.length >= segs.length && segs.every((s, i) => s === '*' || s === path[i]);
};

const KEY = String.raw`(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')`;
const HEADER = new RegExp(String.raw`^\[(\[?)\s*(${KEY}(?:\s*\.\s*${KEY})*)\s*\]\1\s*(?:#.*)?$`);

/** The lines of a TOML file outside the named tables, each with its table; undefined where the file cannot be split for sure. */
function tomlOutside(text: string, parts: readonly string[]): string[] | undefined {
  // A multi-line string can hold a line that looks like a header; a header this cannot read
  // could open a table it does not see.
  if (/"""|'''/.test(text)) return undefined;
  const out: string[] = [];
  let table: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    if (line.startsWith('[')) {
      const m = HEADER.exec(line);
      if (!m) return undefined;
      table = [...m[2].matchAll(new RegExp(KEY, 'g'))].map((k) => k[0].replace(/^"(.*)"$|^'(.*)'$/, '$1$2'));
    }
    if (!parts.some((p) => matchesPath(table, p))) out.push(`${table.join('.')}\0${line}`);
  }
  return out;
}

/** A JSON file without the named key paths; undefined when it does not parse. */
function jsonOutside(text: string, parts: readonly string[]): unknown {
  let value: unknown;
  try { value = JSON.parse(text); } catch { return undefined; }
  const strip = (v: unknown, path: string[]): unknown => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (parts.some((p) => p.split('.').length === path.length + 1 && matchesPath([...path, k], p))) continue;
      out[k] = strip(x, [...path, k]);
    }
    return out;
  };
  return strip(value, []);
}

/** go.mod/go.work lines outside the named directives (one-line and block forms), comments dropped. */
function goModOutside(text: string, parts: readonly string[]): string[] | undefined {
  // Raw strings can span lines.
  if (text.includes('`')) return undefined;
  const out: string[] = [];
  let block: string | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\/\/.*$/, '').trim().replace(/\s+/g, ' ');
    if (!line) continue;
    let directive: string;
    if (block !== undefined) {
      if (line === ')') { block = undefined; continue; }
      directive = block;
    } else {
      directive = line.split(' ')[0];
      if (line.endsWith('(')) { block = directive; continue; }
    }
    if (!parts.includes(directive)) out.push(`${directive}\0${line}`);
  }
  return out;
}
