// SWE-bench's FAIL_TO_PASS and PASS_TO_PASS ids as its log parsers wrote them, matched against
// this project's runs. Two kinds of published id cannot be compared as they are:
// - an absolute path of the harness's machine in a parameter
//   (`test_x[/n/fs/p-swe-bench/temp/…/pydicom__pydicom__2.2/pydicom/data/x.dcm-data0]`, a file the
//   tests downloaded into the harness user's home, or both paths of a two-file parameter joined
//   by `-`): the path is the harness's checkout, not ours. It becomes the same file's path in
//   this run (/workspace/<file>, or the tests' HOME for files they download); the harness's
//   current parser (parse_log_pytest_options) keeps only the file's name on both sides, which
//   comes to the same match. A path is the harness's when it lies under the harness's roots
//   (`/n/fs/`, where the published logs were made; `/testbed/`, its container's checkout), in
//   its checkout folder (`<owner>__<name>__<version>/`) or in the tests' download folder; any
//   other absolute path is the test's own constant (pytest's `/tmp/pycs`) and stays as it is;
// - an id cut at its first space by parse_log_pytest (`test_unpack[` for `test_unpack[a b]`):
//   it stays as it is and is matched by prefix, as the harness's grading does (_resolve_case:
//   more `[` than `]`; the cases found must agree).
// An id that can match nothing (a path of the harness's checkout naming no file of the
// repository, or a pytest temporary folder of that run) stays in the list and counts as failed,
// as the harness counts an id missing from its log; the converter reports each as a dataset
// quirk and marks the row invalid, never silently.

/** The tests' HOME in the verifier (isolatedRunner.ts testsEnv). */
export const TESTS_HOME = '/home/pwp';

export interface IdMapping {
  /** The ids to expect, in the order given. */
  ids: string[];
  /** Ids given this run's paths: [as published, as expected here]. */
  mapped: [string, string][];
  /** Ids cut at a space, matched by prefix. */
  cut: string[];
  /** Ids that can match no test of this run. */
  unmatchable: string[];
}

/** Whether an id was cut inside its parameter (more `[` than `]`): matched by prefix. */
export const isTruncated = (id: string): boolean => id.split('[').length > id.split(']').length;

/** Where the harness ran: the cluster of the published logs, and its containers' checkout. */
const HARNESS_ROOTS = ['/n/fs/', '/testbed/'];
/** A folder only one run of pytest had (tmp_path): no later run can name it. */
const PYTEST_TMP = /^\/tmp\/pytest-of-[^/]+\//;

export interface IdContext {
  /** The repository's files after the test patch, by relative path. */
  files: ReadonlySet<string>;
  /** owner/name: the harness's checkout folder is `<owner>__<name>__<version>`. */
  repo: string;
  /** Folders under HOME where the tests keep what they download. */
  homeData?: readonly string[];
}

/** The ids as this run names the same tests. */
export function mapTestIds(ids: readonly string[], ctx: IdContext): IdMapping {
  const out: IdMapping = { ids: [], mapped: [], cut: [], unmatchable: [] };
  for (const id of ids) {
    const cut = isTruncated(id);
    if (cut) out.cut.push(id);
    const m = (cut ? /^(.*?)\[(.*)$/s : /^(.*?)\[(.*)\]$/s).exec(id);
    if (!m || !m[2].includes('/')) { out.ids.push(id); continue; }
    const [, head, option] = m;
    // Parameters are joined by `-`: each absolute path starts a piece of its own.
    const pieces = option.split(/-(?=\/(?!\/))/);
    let lost = false;
    const now = pieces.map((p, i) => {
      // The last piece of a cut id is a path's beginning: its file cannot be looked up.
      const r = p.startsWith('/') && !p.startsWith('//') ? mapPath(p, ctx, cut && i === pieces.length - 1) : p;
      if (r === undefined) lost = true;
      return r ?? p;
    }).join('-');
    const expected = `${head}[${now}${cut ? '' : ']'}`;
    if (lost) out.unmatchable.push(id);
    else if (expected !== id) out.mapped.push([id, expected]);
    out.ids.push(lost ? id : expected);
  }
  return out;
}

/**
 * A harness path as this run's (/workspace/<file><suffix>, or the download under HOME); the
 * piece itself when it is not the harness's; undefined when it is but names nothing here.
 * `partial`: the piece was cut, so only where it starts is mapped.
 */
function mapPath(piece: string, ctx: IdContext, partial: boolean): string | undefined {
  if (PYTEST_TMP.test(piece)) return undefined;
  for (const d of ctx.homeData ?? []) {
    const at = piece.indexOf(`/${d}/`);
    if (at >= 0) return `${TESTS_HOME}/${d}/${piece.slice(at + d.length + 2)}`;
  }
  const [owner, name] = ctx.repo.split('/');
  const segs = piece.split('/');
  const checkoutAt = segs.findIndex((s) => s.startsWith(`${owner}__${name}__`));
  const rel = checkoutAt >= 0 ? segs.slice(checkoutAt + 1) : piece.startsWith('/testbed/') ? segs.slice(2) : undefined;
  if (rel) return partial ? `/workspace/${rel.join('/')}` : repoFile(rel, ctx.files);
  if (!HARNESS_ROOTS.some((r) => piece.startsWith(r))) return piece;
  if (partial) return undefined;
  // Under the harness's root but not in a folder named like its checkout: the longest tail that is a file here.
  for (let i = 1; i < segs.length; i++) {
    const found = repoFile(segs.slice(i), ctx.files);
    if (found) return found;
  }
  return undefined;
}

/** `dir/…/file<suffix>` as /workspace/dir/…/file<suffix> when the file is the repository's (a parameter id may add `-data0`). */
function repoFile(rel: string[], files: ReadonlySet<string>): string | undefined {
  if (!rel.length) return undefined;
  const dir = rel.slice(0, -1).join('/');
  const last = rel[rel.length - 1];
  for (let cut = last.length; cut > 0; cut--) {
    const rest = last.slice(cut);
    if (rest && !/^[-_]/.test(rest)) continue;
    const file = `${dir ? `${dir}/` : ''}${last.slice(0, cut)}`;
    if (files.has(file)) return `/workspace/${file}${rest}`;
  }
  return undefined;
}

/**
 * The converter's notes on a mapping, one per kind (a real row has dozens of each): how many
 * ids, one example, and every id that can match nothing by name.
 */
export function mappingNotes(m: IdMapping): string[] {
  const notes: string[] = [];
  if (m.mapped.length) {
    const [from, to] = m.mapped[0];
    notes.push(`${m.mapped.length} expected test ids carry absolute paths of the harness's machine; each is expected with this run's path of the same file (e.g. ${from} as ${to})`);
  }
  if (m.cut.length) {
    notes.push(`${m.cut.length} expected test ids were cut at a space by SWE-bench's log parser (${m.cut.slice(0, 3).join(', ')}${m.cut.length > 3 ? ', …' : ''}); each matches the tests it begins, which must agree, as SWE-bench's grading resolves them`);
  }
  for (const id of m.unmatchable) {
    notes.push(`${id}: a path of the harness's run naming no file of this repository; it can match nothing and counts as failed, as SWE-bench counts an id missing from its log`);
  }
  return notes;
}
