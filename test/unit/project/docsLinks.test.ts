// README.md and docs/*.md point only at things that exist: a moved file or a renamed heading
// fails here instead of leaving a reader at a dead end. What is checked, outside fenced code
// blocks (commands and examples in them are not checked):
//   - every relative Markdown link, inline `[text](target)`, image `![alt](target)` or reference
//     `[label]: target`, resolved from the file's folder: the target exists (a file or a folder);
//     with `#anchor` into a Markdown file (or `#anchor` alone: this file), one of its headings
//     has that GitHub-style anchor. http(s): and mailto: links are not followed; an absolute
//     path is an error (it breaks on GitHub and in any other clone).
//   - every repository path written as inline code. An inline code span is taken as a path when
//     its text is one word (no white space) that, after a leading `./`, starts with the name of
//     a top-level folder of the repository followed by `/` (`host/env/env.ts`, `tasks/`,
//     `scripts/setup.sh`, `test/unit/project/`); the top-level folders are those in the
//     checkout, less the ones .gitignore names (`node_modules/`, `dist/`, …) and `.git`. A
//     segment holding a placeholder (`<`, `>`, `*`, `?`, `{`, `}`, `[`, `]`, `|`, `…` or `...`)
//     ends the path: `tasks/<suite>/<id>/` checks `tasks`. Paths inside the container or a
//     task's workspace (`/workspace`, `tests/test_x.py`, `.vscode/settings.json`) do not start
//     with a top-level folder and are not checked.
// The first test plants a broken link, anchor and path in a scratch tree and requires each to
// be reported, so this check is shown to fire.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');

/** The Markdown files whose links and paths are checked: README.md and docs/*.md. */
function markdownFiles(root: string): string[] {
  const docs = join(root, 'docs');
  const pages = existsSync(docs) ? readdirSync(docs).filter((f) => f.endsWith('.md')).map((f) => join('docs', f)) : [];
  return ['README.md', ...pages.sort()];
}

/** The text with fenced code blocks blanked out (line numbers kept). */
function withoutFences(text: string): string {
  let inFence = false;
  return text.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) { inFence = !inFence; return ''; }
    return inFence ? '' : line;
  }).join('\n');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped (not - or _), spaces to hyphens. */
export function githubSlug(heading: string): string {
  const text = heading.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1');
  return text.trim().toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors of a Markdown text's headings, with GitHub's -1, -2 for repeated ones. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of withoutFences(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = githubSlug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Top-level folders of the checkout that hold the repository's own files. */
function topLevelFolders(root: string): Set<string> {
  const ignoreFile = join(root, '.gitignore');
  const ignored = new Set(['.git']);
  if (existsSync(ignoreFile)) {
    for (const line of readFileSync(ignoreFile, 'utf8').split('\n')) {
      const m = /^\/?([^/*?\s#][^/*?\s]*)\/$/.exec(line.trim());
      if (m) ignored.add(m[1]);
    }
  }
  return new Set(readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory() && !ignored.has(d.name)).map((d) => d.name));
}

const PLACEHOLDER = /[<>*?{}[\]|…]|^\.\.\.$/;

/** A backticked word taken as a repository path, cut before its first placeholder segment; null when it is not one. */
export function repoPath(code: string, folders: Set<string>): string | null {
  if (/\s/.test(code)) return null;
  const word = code.replace(/^\.\//, '');
  const segments = word.split('/');
  if (segments.length < 2 || !folders.has(segments[0])) return null;
  const kept: string[] = [];
  for (const s of segments) {
    if (PLACEHOLDER.test(s)) break;
    kept.push(s);
  }
  return kept.filter(Boolean).join('/');
}

/** Every broken link, anchor or path in the Markdown files of a tree, one line each: `file:line: what`. */
export function brokenReferences(root: string): string[] {
  const folders = topLevelFolders(root);
  const files = markdownFiles(root);
  const anchorCache = new Map<string, Set<string>>();
  const anchorsOf = (file: string) => {
    if (!anchorCache.has(file)) anchorCache.set(file, anchors(readFileSync(file, 'utf8')));
    return anchorCache.get(file)!;
  };
  const problems: string[] = [];
  for (const file of files) {
    const abs = join(root, file);
    const lines = withoutFences(readFileSync(abs, 'utf8')).split('\n');
    lines.forEach((line, i) => {
      const where = `${file}:${i + 1}`;
      const codeSpans = [...line.matchAll(/(`+)([^`]+?)\1/g)].map((m) => m[2]);
      const prose = line.replace(/(`+)([^`]+?)\1/g, '');
      const targets = [
        ...[...prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]),
        ...[...prose.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g)].map((m) => m[1]),
      ];
      for (const target of targets) {
        if (/^(https?:|mailto:)/i.test(target)) continue;
        const [pathPart, anchor] = target.split('#', 2);
        if (isAbsolute(pathPart)) { problems.push(`${where}: link to an absolute path ${target}`); continue; }
        const resolved = pathPart ? resolve(dirname(abs), decodeURIComponent(pathPart)) : abs;
        const shown = relative(root, resolved) || '.';
        if (relative(root, resolved).startsWith('..')) { problems.push(`${where}: link ${target} leaves the repository`); continue; }
        if (!existsSync(resolved)) { problems.push(`${where}: link ${target}: ${shown} does not exist`); continue; }
        if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) {
          problems.push(`${where}: link ${target}: ${shown} has no heading with the anchor #${anchor}`);
        }
      }
      for (const code of codeSpans) {
        const path = repoPath(code.trim(), folders);
        if (path !== null && !existsSync(join(root, path))) problems.push(`${where}: \`${code}\`: ${path} does not exist`);
      }
    });
  }
  return problems;
}

describe('README.md and docs/*.md', () => {
  it('report a planted broken link, anchor and path (the check fires)', () => {
    const root = mkdtempSync(join(tmpdir(), 'pwp-docs-links-'));
    try {
      mkdirSync(join(root, 'docs'));
      mkdirSync(join(root, 'host', 'env'), { recursive: true });
      mkdirSync(join(root, 'node_modules', 'x'), { recursive: true });
      writeFileSync(join(root, '.gitignore'), 'node_modules/\n');
      writeFileSync(join(root, 'host', 'env', 'env.ts'), '');
      writeFileSync(join(root, 'docs', 'page.md'), '# A page\n\n## Same\n\n## Same\n\n```sh\n# not a heading\n```\n');
      writeFileSync(join(root, 'README.md'), [
        '# Title',
        'Good: [page](docs/page.md), [second](docs/page.md#same-1), [here](#title), `host/env/env.ts`, `host/env/`,',
        '`tasks/<suite>/<id>/` is cut at its placeholder, `node_modules/x/y.js` is not the repository\'s, `tests/test_x.py` neither.',
        'Broken: [gone](docs/missing.md), [anchor](docs/page.md#not-a-heading), `host/env/gone.ts`, [abs](/etc/passwd).',
        '```sh',
        'ls host/nothing/ [fenced](nowhere.md) `host/fenced.ts`',
        '```',
      ].join('\n'));
      assert.deepEqual(brokenReferences(root), [
        'README.md:4: link docs/missing.md: docs/missing.md does not exist',
        'README.md:4: link docs/page.md#not-a-heading: docs/page.md has no heading with the anchor #not-a-heading',
        'README.md:4: link to an absolute path /etc/passwd',
        'README.md:4: `host/env/gone.ts`: host/env/gone.ts does not exist',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('anchors follow GitHub: punctuation and code marks dropped, spaces to hyphens', () => {
    assert.equal(githubSlug('Public benchmarks as tasks: `pwp dataset`'), 'public-benchmarks-as-tasks-pwp-dataset');
    assert.equal(githubSlug('Pair programming: `ask_person`'), 'pair-programming-ask_person');
    assert.equal(githubSlug('pwp — Programming with Pixels, done properly'), 'pwp--programming-with-pixels-done-properly');
    assert.equal(githubSlug('### `tests`'.replace(/^#+\s*/, '')), 'tests');
  });

  it('have no broken relative link, anchor or repository path', () => {
    const problems = brokenReferences(ROOT);
    assert.deepEqual(problems, [], `\n${problems.join('\n')}`);
  });
});
