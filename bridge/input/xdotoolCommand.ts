// PwP-style xdotool strings ("xdotool mousemove 1000 1200 click 1") parsed into argv.
// Quotes group words; nothing is expanded. Unquoted shell syntax is refused so that a
// caller learns at once that it was never going to run; the argv is executed without a
// shell in any case. Only input subcommands may run, with only the options that cannot read
// a file or run a program (`type --file` reads one), and key names xdotool knows (it skips an
// unknown one silently and exits 0).
import { InvalidParamsError } from '../protocol';
import { keysymFor, unknownKey } from './keys';

/** xdotool subcommands that only produce input or read the pointer. */
export const ALLOWED_SUBCOMMANDS = new Set([
  'key', 'keydown', 'keyup', 'type', 'mousemove', 'mousemove_relative', 'click', 'mousedown', 'mouseup',
  'getmouselocation', 'sleep',
]);
/** Subcommands that run programs, kill or move windows, or change the desktop. */
const FORBIDDEN_SUBCOMMANDS = new Set([
  'exec', 'behave', 'behave_screen_edge', 'windowkill', 'windowclose', 'windowquit', 'windowunmap', 'windowmap',
  'windowmove', 'windowsize', 'windowminimize', 'windowraise', 'windowreparent', 'windowactivate', 'windowfocus',
  'set_window', 'set_desktop', 'set_num_desktops', 'set_desktop_for_window', 'set_desktop_viewport', 'search',
  'selectwindow', 'getactivewindow', 'getwindowfocus', 'getwindowname', 'getwindowpid', 'getwindowgeometry',
  'getdisplaygeometry', 'get_desktop', 'get_num_desktops', 'get_desktop_for_window', 'get_desktop_viewport',
  'windowstate', 'getwindowclassname',
]);

const SHELL_SYNTAX: [RegExp, string][] = [
  [/^\$\(/, '$( )'], [/^`/, 'backticks'], [/^;/, ';'], [/^\|/, '|'], [/^&/, '&'], [/^[<>]/, 'redirection'], [/^\$\{?[A-Za-z_]/, 'variable expansion'],
];

/** Splits a command line into words: '…' literal, "…" with \" and \\ escapes, bare \x escapes. */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new InvalidParamsError('params.command: unterminated single quote');
      cur += line.slice(i + 1, end); i = end; inWord = true;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && (line[j + 1] === '"' || line[j + 1] === '\\')) j++;
        cur += line[j];
      }
      if (j >= line.length) throw new InvalidParamsError('params.command: unterminated double quote');
      i = j; inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      cur += line[++i]; inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(cur);
      cur = ''; inWord = false;
    } else {
      const rest = line.slice(i);
      const hit = SHELL_SYNTAX.find(([re]) => re.test(rest));
      if (hit) throw new InvalidParamsError(`params.command: shell syntax (${hit[1]}) is not allowed; xdotool commands never run in a shell — quote it to type it literally`);
      cur += c; inWord = true;
    }
  }
  if (inWord) words.push(cur);
  return words;
}

/**
 * The long options each allowed subcommand may take (true: it takes a value), from xdotool's
 * man page. Anything else, short options and abbreviations included, is refused: getopt would
 * take `--fi x` as `--file x`.
 */
const OPTIONS: Record<string, Record<string, boolean>> = {
  key: { window: true, delay: true, repeat: true, 'repeat-delay': true, clearmodifiers: false },
  keydown: { window: true, delay: true, clearmodifiers: false },
  keyup: { window: true, delay: true, clearmodifiers: false },
  type: { window: true, delay: true, clearmodifiers: false },
  mousemove: { window: true, screen: true, polar: false, clearmodifiers: false, sync: false },
  mousemove_relative: { polar: false, clearmodifiers: false, sync: false },
  click: { window: true, clearmodifiers: false, repeat: true, delay: true },
  mousedown: { window: true, clearmodifiers: false },
  mouseup: { window: true, clearmodifiers: false },
  getmouselocation: { shell: false, prefix: true },
  sleep: {},
};

/** xdotool's own modifier names in a keystroke ("ctrl+alt+Delete"). */
const XDOTOOL_MODIFIERS = new Set(['alt', 'ctrl', 'control', 'shift', 'super', 'meta']);

function checkKeystroke(stroke: string): void {
  for (const part of stroke.split('+')) {
    if (part === '' && stroke.endsWith('+')) continue;
    // xdotool also takes a bare number as a keycode.
    if (XDOTOOL_MODIFIERS.has(part.toLowerCase()) || /^\d{1,3}$/.test(part) || (part.length === 1 && part > ' ') || keysymFor(part)) continue;
    throw unknownKey(part, `params: xdotool keystroke '${stroke}'`);
  }
}

/** Checks one subcommand's options and arguments; returns where the next subcommand starts. */
function checkSegment(argv: string[], start: number): number {
  const name = argv[start];
  const allowed = OPTIONS[name];
  // xdotool reads options with getopt_long_only, which also takes `-name`, abbreviations and
  // options after the arguments (permuted), up to `--`: every dash word before `--` is checked.
  let end = start + 1;
  let optionsEnded = false;
  const positional: string[] = [];
  for (; end < argv.length && !ALLOWED_SUBCOMMANDS.has(argv[end]) && !FORBIDDEN_SUBCOMMANDS.has(argv[end]); end++) {
    const w = argv[end];
    if (optionsEnded || !w.startsWith('-') || /^-\d/.test(w)) { positional.push(w); continue; }
    if (w === '--') { optionsEnded = true; continue; }
    const [opt, inline] = w.replace(/^--?/, '').split(/=(.*)/s, 2);
    if (!Object.hasOwn(allowed, opt)) {
      const known = Object.keys(allowed).map((o) => `--${o}`).join(', ') || 'none';
      throw new InvalidParamsError(`params: xdotool ${name} option '${w}' is not allowed (options that read files or run programs are refused; put -- before text that starts with a dash); allowed: ${known}`);
    }
    if (allowed[opt] && inline === undefined) end++;
  }
  if (name === 'key' || name === 'keydown' || name === 'keyup') for (const stroke of positional) checkKeystroke(stroke);
  if (name === 'sleep' && !(Number(positional[0]) >= 0 && Number(positional[0]) <= 10)) throw new InvalidParamsError('params: xdotool sleep takes 0 to 10 seconds');
  return end;
}

/** Validates an argv for xdotool (without the program name). */
export function checkXdotoolArgv(argv: string[]): string[] {
  if (argv.length === 0) throw new InvalidParamsError('params: no xdotool subcommand given');
  // Chained subcommands follow the first; a forbidden name anywhere is refused (except as
  // text to type, which input.type does without this restriction).
  for (let i = 0; i < argv.length;) {
    if (FORBIDDEN_SUBCOMMANDS.has(argv[i])) throw new InvalidParamsError(`params: xdotool '${argv[i]}' is not allowed in a chain; only input subcommands run`);
    if (!ALLOWED_SUBCOMMANDS.has(argv[i])) {
      throw new InvalidParamsError(`params: xdotool '${argv[i]}' is not allowed; allowed: ${[...ALLOWED_SUBCOMMANDS].join(', ')}`);
    }
    i = checkSegment(argv, i);
  }
  return argv;
}

/** "xdotool mousemove 10 20 click 1" -> ["mousemove","10","20","click","1"]. */
export function parseXdotoolCommand(command: string): string[] {
  const words = splitWords(command);
  if (words[0] === 'xdotool') words.shift();
  return checkXdotoolArgv(words);
}

/**
 * PwP's own examples chain commands with `&&` ("xdotool mousemove 1000 1200 click 1 &&
 * xdotool type 'hello world'"): split at each unquoted `&&` into argvs run one after another,
 * each validated alone. xdotool's `type` and `key` take every remaining word, so the parts
 * cannot be joined into one argv. No shell is involved; other shell syntax is still refused.
 */
export function parseXdotoolChain(command: string): string[][] {
  const parts: string[] = [];
  let start = 0;
  let quote: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"') i++;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '\\') i++;
    else if (c === '&' && command[i + 1] === '&') { parts.push(command.slice(start, i)); start = i + 2; i++; }
  }
  parts.push(command.slice(start));
  if (parts.length > 1 && parts.some((p) => p.trim() === '')) throw new InvalidParamsError('params.command: an empty command before or after &&');
  return parts.map(parseXdotoolCommand);
}
