// Pieces of the Python grading files that converters hide in a task (hidden/workspace/…), which
// run inside the verifier's pytest with the agent's workspace on sys.path.

/**
 * Imports of standard-library modules that never resolve to a workspace file of the same name
 * (an agent's `secrets.py` or `random.py` beside the grader would otherwise stand in for them).
 */
export function stdlibImports(modules: readonly string[]): string[] {
  return [
    '# The image\'s standard library, never a workspace module of the same name (the workspace is',
    '# on sys.path while this file runs).',
    'import sys',
    '',
    '_path = list(sys.path)',
    'sys.path[:] = [p for p in sys.path if p and not p.startswith("/workspace")]',
    ...modules.map((m) => `import ${m}  # noqa: E402`),
    'sys.path[:] = _path',
  ];
}

/**
 * A Python function `stdlib_shadows(root, initial)`: the top-level modules the agent added under
 * `root` that are named like a standard-library module, which a script run from `root` would
 * import in its place. Needs `pathlib` and `sys` imported.
 */
export const STDLIB_SHADOWS = `def stdlib_shadows(root, initial):
    names = set(sys.stdlib_module_names)
    found = []
    for p in sorted(pathlib.Path(root).iterdir()):
        name = p.stem if p.suffix == ".py" else p.name if (p / "__init__.py").exists() else None
        if name in names and not (pathlib.Path(initial) / p.name).exists():
            found.append(p.name)
    return found
`;
