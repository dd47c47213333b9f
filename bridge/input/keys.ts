// Key chords as people write them ("ctrl+shift+p", "ctrl+k ctrl+t", "enter") turned into
// X keysym names for xdotool. Anything that is not a key name is refused, never passed on.
import { InvalidParamsError } from '../protocol';
import { KEYSYM_NAMES } from './keysymNames';

const MODIFIERS: Record<string, string> = {
  ctrl: 'ctrl', control: 'ctrl', shift: 'shift', alt: 'alt', option: 'alt', opt: 'alt',
  super: 'super', meta: 'super', cmd: 'super', command: 'super', win: 'super',
};

const NAMED: Record<string, string> = {
  enter: 'Return', return: 'Return', esc: 'Escape', escape: 'Escape', tab: 'Tab', space: 'space',
  backspace: 'BackSpace', delete: 'Delete', del: 'Delete', insert: 'Insert', ins: 'Insert',
  up: 'Up', down: 'Down', left: 'Left', right: 'Right', home: 'Home', end: 'End',
  pageup: 'Prior', pgup: 'Prior', page_up: 'Prior', pagedown: 'Next', pgdn: 'Next', page_down: 'Next',
  plus: 'plus', minus: 'minus', capslock: 'Caps_Lock', menu: 'Menu', printscreen: 'Print',
};

const PUNCTUATION: Record<string, string> = {
  '`': 'grave', '-': 'minus', '=': 'equal', '[': 'bracketleft', ']': 'bracketright', '\\': 'backslash',
  ';': 'semicolon', "'": 'apostrophe', ',': 'comma', '.': 'period', '/': 'slash', '+': 'plus',
  '~': 'asciitilde', '!': 'exclam', '@': 'at', '#': 'numbersign', '$': 'dollar', '%': 'percent',
  '^': 'asciicircum', '&': 'ampersand', '*': 'asterisk', '(': 'parenleft', ')': 'parenright',
  '_': 'underscore', '{': 'braceleft', '}': 'braceright', '|': 'bar', ':': 'colon', '"': 'quotedbl',
  '<': 'less', '>': 'greater', '?': 'question',
};

/** Keysym names by lower case, for names written in another case ("kp_enter"); ambiguous ones are left out. */
const KEYSYM_BY_LOWER = new Map<string, string | null>();
for (const n of KEYSYM_NAMES) {
  const l = n.toLowerCase();
  KEYSYM_BY_LOWER.set(l, KEYSYM_BY_LOWER.has(l) ? null : n);
}

/** Keysyms by number (0xff0d) or Unicode code point (U20AC), which xdotool also resolves. */
const KEYSYM_NUMBER = /^(0x[0-9a-fA-F]{1,8}|U[0-9a-fA-F]{4,6})$/;

/** What the refusal of an unknown key lists as valid. */
export const VALID_KEYS_HELP =
  `modifiers (${Object.keys(MODIFIERS).join(', ')}), named keys (${Object.keys(NAMED).join(', ')}), f1 to f35, ` +
  'single letters, digits and punctuation, X keysym names (Return, Prior, KP_Enter, XF86AudioMute, … as in X11\'s keysymdef.h) ' +
  'and keysym numbers (0xff0d, U20AC)';

/** Up to three known names closest to a mistyped one (edit distance ≤ 2). */
export function closestKeyNames(token: string): string[] {
  const t = token.toLowerCase();
  const candidates = [...Object.keys(MODIFIERS), ...Object.keys(NAMED), ...KEYSYM_BY_LOWER.keys()];
  return candidates
    .map((c) => ({ c, d: editDistance(t, c) }))
    .filter((x) => x.d <= 2 && x.d < t.length)
    .sort((a, b) => a.d - b.d || a.c.length - b.c.length)
    .slice(0, 3)
    .map((x) => KEYSYM_BY_LOWER.get(x.c) ?? x.c);
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

/** The refusal of a token that names no key; xdotool would skip it silently and exit 0. */
export function unknownKey(token: string, where: string): InvalidParamsError {
  const near = closestKeyNames(token);
  const hint = near.length ? ` (did you mean ${near.map((n) => `'${n}'`).join(' or ')}?)` : '';
  return new InvalidParamsError(`${where}: '${token}' is not a key name${hint}; valid keys are ${VALID_KEYS_HELP}`, { key: token, suggestions: near });
}

/** The keysym for a name written as a keysym: exact, in another case when unambiguous, or by number. */
export function keysymFor(token: string): string | undefined {
  if (KEYSYM_NAMES.has(token) || KEYSYM_NUMBER.test(token)) return token;
  return KEYSYM_BY_LOWER.get(token.toLowerCase()) ?? undefined;
}

function keyName(token: string, chord: string): string {
  const lower = token.toLowerCase();
  if (MODIFIERS[lower]) return MODIFIERS[lower];
  if (NAMED[lower]) return NAMED[lower];
  if (/^f([1-9]|[12][0-9]|3[0-5])$/.test(lower)) return lower.toUpperCase();
  if (token.length === 1 && PUNCTUATION[token]) return PUNCTUATION[token];
  if (token.length === 1 && /[A-Za-z0-9]/.test(token)) return lower;
  const sym = keysymFor(token);
  if (sym) return sym;
  throw unknownKey(token, `params.keys: in '${chord}'`);
}

/** Splits one chord on '+', keeping a literal '+' key ("ctrl++"). */
function chordParts(chord: string): string[] {
  if (chord === '+') return ['+'];
  const parts = chord.endsWith('++') ? [...chord.slice(0, -2).split('+'), '+'] : chord.split('+');
  if (parts.some((p) => p === '')) throw new InvalidParamsError(`params.keys: '${chord}' has an empty key`);
  return parts;
}

/** "ctrl+k ctrl+t" -> ["ctrl+k", "ctrl+t"], each part a keysym name xdotool knows. */
export function parseKeySequence(keys: string): string[] {
  const chords = keys.trim().split(/\s+/).filter(Boolean);
  if (chords.length === 0) throw new InvalidParamsError('params.keys: no key given');
  if (chords.length > 50) throw new InvalidParamsError('params.keys: at most 50 chords in one sequence');
  return chords.map((chord) => chordParts(chord).map((t) => keyName(t, chord)).join('+'));
}
