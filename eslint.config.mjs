// pwp's lint rules, run by `npm run lint` (so by `npm test`, from its pretest) with zero
// warnings allowed. It exists for the bugs tsc lets through: a promise nobody awaits (its
// rejection is lost, or it races what follows), a promise handed to a caller that ignores what
// a callback returns, and value imports that are only types. Everything the package holds as
// code is linted; only data (task folders, published rows, fixtures) and build output are not.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Lines are wrapped at 180: the code's lines run long (1,000 over 160, 480 over 180 before this
 * file), and 180 is where what is left over is a long message or description, not crowded code.
 * A line is let through when a string of 40 or more characters makes it long: an error message
 * or a help text reads better whole than cut into pieces joined with `+`. max-len's own
 * ignoreStrings would let through every line with any string in it, imports included. */
const LONG_STRING = String.raw`'[^']{40,}'|"[^"]{40,}"|` + '`[^`]{40,}`';

export default tseslint.config(
  {
    ignores: ['dist/', 'extension/dist/', 'tasks/', 'datasets/', 'python/', 'examples/', 'test/fixtures/', 'test-results/', '.pwp/'],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // A leading `_` marks a name kept on purpose: a parameter an interface requires, or a
      // field taken out of an object so that `...rest` holds the others.
      // `let` where a closure above the assignment reads the name, or where one of the names a
      // destructuring declares is reassigned.
      'prefer-const': ['error', { destructuring: 'all', ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // core max-len is deprecated for @stylistic/max-len but kept until ESLint 11; one
      // dependency fewer until then.
      'max-len': ['error', { code: 180, ignoreUrls: true, ignoreRegExpLiterals: true, ignorePattern: LONG_STRING }],
    },
  },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // `import type { A }` when every name is a type, `import { x, type A }` when they mix:
      // the fixer writes inline `type`s, and no-import-type-side-effects lifts an import whose
      // names are all inline types to `import type`.
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-import-type-side-effects': 'error',
    },
  },
  {
    // Plain Node scripts, not type-checked (they are outside tsconfig.json).
    files: ['**/*.cjs', '**/*.mjs'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    // require() is how CommonJS imports.
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
