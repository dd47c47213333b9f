// Performs set-up and oracle steps (stepSchema.ts) in an environment. Input steps wait for
// the screen to settle; steps that depend on the IDE reacting (a file opening, history being
// written) wait for the IDE to say so rather than sleeping.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyEdits, modify } from 'jsonc-parser';
import { paths } from '../common/paths';
import { match } from '../evaluation/matcher';
import type { Action } from '../env/actions';
import { EpisodeOverError, type EnvLike } from '../env/env';
import { scriptedStep } from './scriptedStep';
import { eventually, sleep } from '../common/eventually';
import { clickMark, waitForMark, waitForScreenText } from './screenSteps';
import { SCREEN_WAIT_MS, stepKind, type Step, type StepOf } from './stepSchema';

export class StepError extends Error {
  constructor(readonly index: number, readonly step: Step, message: string) {
    super(`step ${index + 1} (${stepKind(step)}): ${message}`);
    this.name = 'StepError';
  }
}

/** What steps leave behind besides the environment: the answer, for question tasks. */
export interface StepsOutcome { answer?: string }

export const workspacePath = (p: string) => (p.startsWith('/') ? p : `/workspace/${p}`);

async function activeEditorPath(env: EnvLike): Promise<string | null> {
  return (await env.query('ide.editors', { maxTextChars: 0 })).activeEditor?.path ?? null;
}


async function focused(env: EnvLike) {
  return (await env.query('dom.focused', {})).focused;
}

async function waitForFocus(env: EnvLike, q: { part?: string; role?: string; text?: string; path?: string }, timeoutMs: number) {
  // Multi-line, so ^ and $ match at the ends of the label and of the value (as the replay's matcher tests each).
  const re = q.text !== undefined ? new RegExp(q.text, 'im') : undefined;
  const pathRe = q.path !== undefined ? new RegExp(q.path) : undefined;
  return eventually(() => focused(env), (f) => !!f && (!q.part || f.part === q.part) && (!q.role || f.role === q.role)
    && (!re || re.test(`${f.text}\n${f.value ?? ''}`)) && (!pathRe || pathRe.test(f.path)), timeoutMs, `keyboard focus on ${JSON.stringify(q)}`);
}

/**
 * Types into the focused field and checks the field's value; keys typed while a view is still
 * opening can be lost, so it selects all and types again (at most three times).
 */
async function typeVerified(env: EnvLike, text: string, expected = text): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await scriptedStep(env, { type: 'type', text });
    try {
      await eventually(() => focused(env), (f) => (f?.value ?? '').endsWith(expected), 15_000, `the focused field holding ${JSON.stringify(expected)}`);
      return;
    } catch (err) {
      if (attempt === 3) throw err;
      await scriptedStep(env, { type: 'key', keys: 'ctrl+a' });
      if (expected !== text) await scriptedStep(env, { type: 'type', text: expected.slice(0, expected.length - text.length) });
    }
  }
}

/** Opens a quick input (ctrl+p, ctrl+shift+p), types into it and waits for a matching option. */
async function quickInput(env: EnvLike, keys: string, prefix: string, text: string, option: (t: string) => boolean): Promise<void> {
  await scriptedStep(env, { type: 'key', keys });
  await waitForFocus(env, { part: 'quickinput' }, 60_000);
  await pickOption(env, prefix, text, option);
}

/** Types into the quick input that has the keyboard, waits until the first option is a matching one, and presses enter. */
async function pickOption(env: EnvLike, prefix: string, text: string, option: (t: string) => boolean): Promise<void> {
  await typeVerified(env, text, `${prefix}${text}`);
  let seen: string[] = [];
  await eventually(async () => {
    const marks = (await env.query('dom.marks', {})).marks.filter((m) => m.part === 'quickinput' && m.role === 'option');
    seen = marks.map((m) => m.text);
    return marks;
  }, (marks) => marks.length > 0 && option(marks[0].text), SCREEN_WAIT_MS, 'a matching option').catch(() => {
    throw new Error(`nothing matching ${JSON.stringify(text)} is offered first (options: ${seen.slice(0, 8).map((t) => JSON.stringify(t)).join(', ') || 'none'})`);
  });
  await scriptedStep(env, { type: 'key', keys: 'enter' });
  await scriptedStep(env, { type: 'wait', ms: 0, quietMs: 200 });
}

/**
 * Quick open by keyboard, as a person does it; waits until the file is the active editor and
 * the keyboard is in it: the editor becomes active while quick open is still closing, and keys
 * typed in between are lost (seen on a loaded machine: a whole typed file).
 */
async function openFile(env: EnvLike, rel: string): Promise<void> {
  const want = workspacePath(rel);
  if ((await activeEditorPath(env)) === want) return;
  const base = rel.split('/').pop()!;
  await quickInput(env, 'ctrl+p', '', rel, (t) => t.includes(base));
  await eventually(() => activeEditorPath(env), (p) => p === want, 60_000, `${rel} open in the editor`);
  await waitForFocus(env, { part: 'editor' }, 60_000);
}

/** Packages an extension folder with vsce (cached by content). */
export function buildVsix(srcDir: string): Buffer {
  const h = createHash('sha256');
  const walk = (d: string) => {
    for (const e of readdirSync(d).sort()) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p); else { h.update(`${p.slice(srcDir.length)}\0`); h.update(readFileSync(p)); }
    }
  };
  walk(srcDir);
  const cache = join(paths.state, 'vsix-cache');
  const cached = join(cache, `${h.digest('hex').slice(0, 16)}.vsix`);
  if (existsSync(cached)) return readFileSync(cached);
  const work = mkdtempSync(join(tmpdir(), 'pwp-vsix-'));
  try {
    cpSync(srcDir, work, { recursive: true });
    const vsce = require.resolve('@vscode/vsce/vsce');
    const argv = [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', join(work, 'out.vsix')];
    execFileSync(process.execPath, argv, { cwd: work, stdio: ['ignore', 'ignore', 'pipe'] });
    mkdirSync(cache, { recursive: true });
    cpSync(join(work, 'out.vsix'), cached);
    return readFileSync(cached);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Runs an IDE tool; an error result is an error unless allowed. Returns its text. */
async function callTool(env: EnvLike, name: string, args: Record<string, unknown>, timeoutMs?: number, allowError = false): Promise<string> {
  const info = await scriptedStep(env, { type: 'tool', name, args, timeoutMs });
  const r = info.toolResult as { content: { type: string; text?: string }[]; isError?: boolean };
  const text = r.content.filter((c) => c.type === 'text').map((c) => (c as { text: string }).text).join('\n');
  if (r.isError && !allowError) throw new Error(`tool ${name} failed: ${text.slice(0, 1500)}`);
  return text;
}

/**
 * Saves each version of a file through the IDE in turn (the write_file tool edits the open
 * document and saves it), so the local history (Timeline) gets one entry per version.
 */
async function saveVersions(env: EnvLike, s: StepOf<'history'>, taskDir: string): Promise<void> {
  const file = s.history;
  const path = workspacePath(file);
  const versions = s.versions.map((v) => (typeof v === 'string' ? v : readFileSync(join(taskDir, v.from), 'utf8')));
  // Saves closer together than the merge window replace each other's entry.
  const merge = await env.query('ide.settings.get', { key: 'workbench.localHistory.mergeWindow' });
  await scriptedStep(env, { type: 'ide', method: 'ide.settings.update', params: { key: 'workbench.localHistory.mergeWindow', value: 1 } });
  try {
    // A file the IDE creates is not saved as an edit: start from an empty one on disk.
    if (!(await env.readFile(path))) await scriptedStep(env, { type: 'write_file', path, content: '' });
    for (const [i, content] of versions.entries()) {
      const before = (await env.query('ide.timeline', { file })).entries.length;
      await callTool(env, 'write_file', { file_path: file, contents: content });
      const t = await eventually(() => env.query('ide.timeline', { file }), (x) => x.entries.length > before, 60_000,
        `a local-history entry for version ${i + 1} of ${file} (is it the same as the version before?)`);
      const saved = await env.query('ide.timeline.read', { file, entryId: t.entries[t.entries.length - 1].id });
      if (saved.content !== content) throw new Error(`the IDE saved version ${i + 1} of ${file} differently than written`);
      if (i < versions.length - 1) await sleep(1100);
    }
  } finally {
    await scriptedStep(env, { type: 'ide', method: 'ide.settings.update', params: { key: 'workbench.localHistory.mergeWindow', value: merge.userValue } });
  }
}

async function editJson(env: EnvLike, s: StepOf<'editJson'>): Promise<void> {
  const path = workspacePath(s.editJson);
  let text = (await env.readFile(path))?.toString('utf8') ?? '{}\n';
  for (const [key, value] of Object.entries(s.set)) {
    text = applyEdits(text, modify(text, [key], value, { formattingOptions: { insertSpaces: true, tabSize: 4, eol: '\n' } }));
  }
  await scriptedStep(env, { type: 'write_file', path, content: text });
}

async function startServer(env: EnvLike, s: StepOf<'startServer'>): Promise<void> {
  await scriptedStep(env, { type: 'exec', argv: s.startServer, cwd: s.cwd, detach: true });
  // One command that waits inside the container: in an oracle it is one action, not one per probe.
  const wait = `until (exec 3<>/dev/tcp/127.0.0.1/${s.port}) 2>/dev/null; do sleep 0.1; done`;
  const r = (await scriptedStep(env, { type: 'exec', argv: ['bash', '-c', wait], timeoutSec: s.timeoutSec })).execResult!;
  if (r.exitCode !== 0) throw new Error(`no server listening on port ${s.port} within ${s.timeoutSec} s${r.timedOut ? '' : ` (exit code ${r.exitCode})`}`);
}

/** Writes a file whose content may be binary: text as text (readable in the trajectory), bytes as base64. */
function writeFileAction(path: string, content: Buffer | string): Action {
  const buf = typeof content === 'string' ? Buffer.from(content) : content;
  const text = buf.toString('utf8');
  return Buffer.from(text, 'utf8').equals(buf) && !text.includes('\u0000')
    ? { type: 'write_file', path, content: text }
    : { type: 'write_file', path, contentBase64: buf.toString('base64') };
}

async function runStep(s: Step, env: EnvLike, taskDir: string, out: StepsOutcome): Promise<void> {
  if (s.note) env.annotate({ type: 'note', text: s.note });
  if ('key' in s) { await scriptedStep(env, { type: 'key', keys: s.key, repeat: s.repeat }); return; }
  if ('type' in s) {
    if (s.verify) await typeVerified(env, s.type);
    else await scriptedStep(env, { type: 'type', text: s.type });
    return;
  }
  if ('waitForFocus' in s) {
    const t0 = Date.now();
    const deadline = t0 + s.timeoutMs;
    for (;;) {
      const left = deadline - Date.now();
      try {
        await waitForFocus(env, s.waitForFocus, s.pressAgain ? Math.min(s.pressEveryMs, Math.max(0, left)) : left);
        break;
      } catch (err) {
        if (!s.pressAgain || Date.now() >= deadline) throw err;
        await scriptedStep(env, { type: 'key', keys: s.pressAgain });
      }
    }
    // The same condition as a matcher, so a replay waits for this focus too.
    const q = s.waitForFocus;
    const base: Record<string, unknown> = { ...(q.part ? { part: q.part } : {}), ...(q.role ? { role: q.role } : {}), ...(q.path ? { path: { $regex: q.path } } : {}) };
    const focusMatch = q.text === undefined ? base : { $anyOf: [{ ...base, text: { $regex: q.text, $flags: 'i' } }, { ...base, value: { $regex: q.text, $flags: 'i' } }] };
    env.annotate({ type: 'sync', ide: 'dom.focused', params: {}, match: { focused: focusMatch }, ok: true, ms: Date.now() - t0 });
    return;
  }
  if ('click' in s) {
    if ('x' in s.click) await scriptedStep(env, { type: 'click', x: s.click.x, y: s.click.y, button: s.button, count: s.count });
    else await clickMark(env, s.click, { button: s.button, count: s.count, timeoutMs: s.timeoutMs ?? SCREEN_WAIT_MS });
    return;
  }
  if ('palette' in s) {
    const label = s.palette.toLowerCase().replace(/\.+$|…$/, '');
    await quickInput(env, 'ctrl+shift+p', '>', s.palette, (t) => t.toLowerCase().startsWith(label));
    return;
  }
  if ('pick' in s) {
    const text = s.pick.toLowerCase();
    await pickOption(env, '', s.pick, (t) => t.toLowerCase().includes(text));
    return;
  }
  if ('openFile' in s) { await openFile(env, s.openFile); return; }
  if ('ide' in s) { await scriptedStep(env, { type: 'ide', method: s.ide, params: s.params }); return; }
  if ('writeFile' in s) {
    await scriptedStep(env, writeFileAction(workspacePath(s.writeFile), s.content ?? readFileSync(join(taskDir, s.from!))));
    return;
  }
  if ('editJson' in s) { await editJson(env, s); return; }
  if ('exec' in s) {
    const r = (await scriptedStep(env, { type: 'exec', argv: s.exec, cwd: s.cwd, timeoutSec: s.timeoutSec })).execResult!;
    if (s.exitCode !== null && r.exitCode !== s.exitCode) {
      throw new Error(`${s.exec.join(' ')} exited with ${r.exitCode}${r.timedOut ? ' (timed out)' : ''}, expected ${s.exitCode}: ${(r.stderr || r.stdout).trim().slice(-1500)}`);
    }
    return;
  }
  if ('startServer' in s) { await startServer(env, s); return; }
  if ('history' in s) { await saveVersions(env, s, taskDir); return; }
  if ('restoreFromTimeline' in s) {
    const t = await env.query('ide.timeline', { file: s.restoreFromTimeline });
    const entry = t.entries.at(s.entry);
    if (!entry) throw new Error(`${s.restoreFromTimeline} has ${t.entries.length} local-history entries; there is no entry ${s.entry}`);
    await scriptedStep(env, { type: 'ide', method: 'ide.timeline.restore', params: { file: s.restoreFromTimeline, entryId: entry.id } });
    return;
  }
  if ('buildVsix' in s) { await scriptedStep(env, writeFileAction(workspacePath(s.out), buildVsix(join(taskDir, s.buildVsix)))); return; }
  if ('answer' in s) { out.answer = s.answer; return; }
  if ('tool' in s) { await callTool(env, s.tool, s.args, s.timeoutMs, s.allowError); return; }
  if ('answerFrom' in s) {
    const a = s.answerFrom;
    let text: string;
    let what: string;
    if ('exec' in a) {
      what = a.exec.join(' ');
      const r = (await scriptedStep(env, { type: 'exec', argv: a.exec, cwd: a.cwd, timeoutSec: a.timeoutSec })).execResult!;
      if (r.exitCode !== 0) throw new Error(`${what} exited with ${r.exitCode}: ${(r.stderr || r.stdout).trim().slice(-1500)}`);
      text = r.stdout;
    } else if ('tool' in a) {
      what = `the ${a.tool} tool`;
      text = await callTool(env, a.tool, a.args, a.timeoutMs);
    } else {
      what = a.ide;
      text = JSON.stringify(await env.query(a.ide as 'ide.status', a.params as never), null, 1);
    }
    if (a.regex) {
      const m = new RegExp(a.regex, 'm').exec(text);
      if (!m) throw new Error(`/${a.regex}/ found nothing in the output of ${what}:\n${text.slice(-1500)}`);
      text = m[1] ?? m[0];
    }
    out.answer = text.trim();
    return;
  }
  if ('answerFromScreen' in s) {
    const m = await waitForScreenText(env, new RegExp(s.answerFromScreen.regex, 'm'), s.answerFromScreen.timeoutMs);
    out.answer = (m[1] ?? m[0]).trim();
    return;
  }
  if ('waitForMark' in s) { await waitForMark(env, s.waitForMark, s.timeoutMs); return; }
  if ('waitForText' in s) { await waitForScreenText(env, new RegExp(s.waitForText, 'im'), s.timeoutMs); return; }
  if ('wait' in s) { await sleep(s.wait); return; }
  if ('settle' in s) { await scriptedStep(env, { type: 'wait', ms: 0, quietMs: s.settle }); return; }
  if ('waitFor' in s) {
    const w = s.waitFor;
    const t0 = Date.now();
    try {
      await eventually(() => env.query(w.ide as 'ide.status', w.params as never), (r) => match(r, w.match).ok, s.timeoutMs, `${w.ide} matching ${JSON.stringify(w.match)}`);
      env.annotate({ type: 'sync', ide: w.ide, params: w.params, match: w.match, ok: true, ms: Date.now() - t0 });
    } catch (err) {
      env.annotate({ type: 'sync', ide: w.ide, params: w.params, match: w.match, ok: false, ms: Date.now() - t0 });
      throw err;
    }
    return;
  }
  const never: never = s;
  throw new Error(`unknown step ${JSON.stringify(never)}`);
}

/** Runs steps in order; the first failure stops them with the step's number in the message. */
export async function runSteps(steps: readonly Step[], env: EnvLike, taskDir: string, signal?: AbortSignal): Promise<StepsOutcome> {
  const out: StepsOutcome = {};
  for (const [i, s] of steps.entries()) {
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
    try {
      await runStep(s, env, taskDir, out);
    } catch (err) {
      if (err instanceof StepError || err instanceof EpisodeOverError) throw err;
      throw new StepError(i, s, (err as Error).message);
    }
  }
  return out;
}
