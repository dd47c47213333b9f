// Path globs for ignore lists and test-infrastructure lists, as picomatch reads them: `**`
// crosses folders, `*` and `?` stay within one, `{a,b}` and `[ab]` are alternatives, and
// dotfiles match like any other name (a workspace's `.vscode/` or `.mocharc.json` are files
// like the rest).
import picomatch from 'picomatch';

const OPTIONS: picomatch.PicomatchOptions = { dot: true };

/** A matcher for one glob or several. */
export function globMatcher(globs: string | readonly string[]): (path: string) => boolean {
  const list = typeof globs === 'string' ? [globs] : [...globs];
  if (!list.length) return () => false;
  return picomatch(list, OPTIONS);
}

export function matchesAny(path: string, globs: readonly string[]): boolean {
  return globMatcher(globs)(path);
}
