// Performs set-up and oracle steps (stepSchema.ts) in an environment. Input steps wait for
// the screen to settle; steps that depend on the IDE reacting (a file opening, history being
// written) wait for the IDE to say so rather than sleeping.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyEdits, modify } from 'jsonc-parser';
import type { Mark } from '../../bridge/protocol';
import { paths } from '../image/imageInputs';
import { match } from '../evaluation/matcher';
import type { AgentEnv } from '../agents/agent';
import { stepKind, type MarkQuery, type Step, type StepOf } from './stepSchema';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class StepError extends Error {
  constructor(readonly index: number, readonly step: Step, message: string) {
    super(`step ${index + 1} (${stepKind(step)}): ${message}`);
    this.name = 'StepError';
  }
}

export const workspacePath = (p: string) => (p.startsWith('/') ? p : `/workspace/${p}`);

/** Polls `read` until `ok`, returning the last value; throws with it when time runs out. */
export async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs: number, what: string): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: T | undefined;
  let lastError: Error | undefined;
  for (;;) {
    try {
      last = await read();
      if (ok(last)) return last;
    } catch (err) { lastError = err as Error; }
    if (Date.now() > end) {
      throw new Error(`${what} not reached within ${timeoutMs} ms; last: ${lastError ? lastError.message : JSON.stringify(last).slice(0, 500)}`);
    }
    await sleep(100);
  }
}

function findMark(marks: readonly Mark[], q: MarkQuery): Mark | undefined {
  const re = q.text !== undefined ? new RegExp(q.text, 'i') : undefined;
  const found = marks.filter((m) => (!q.role || m.role === q.role) && (!q.part || m.part === q.part) && (!re || re.test(m.text)));
  return found[q.nth];
}

async function clickMark(env: AgentEnv, q: MarkQuery, button: 'left' | 'middle' | 'right', count: number): Promise<void> {
  let seen = '';
  const mark = await eventually(async () => {
    const r = await env.call('dom.marks', {});
    seen = r.text;
    return findMark(r.marks, q);
  }, (m) => m !== undefined, 5000, `an element matching ${JSON.stringify(q)}`).catch((err: Error) => {
    throw new Error(`${err.message.replace(/; last:.*$/s, '')}; on screen:\n${seen.split('\n').slice(0, 80).join('\n')}`);
  });
  await env.call('input.click', { mark: mark!.id, button, count });
  await env.settle();
}

async function activeEditorPath(env: AgentEnv): Promise<string | null> {
  return (await env.call('ide.editors', { maxTextChars: 0 })).activeEditor?.path ?? null;
}


async function focused(env: AgentEnv) {
  return (await env.call('dom.focused', {})).focused;
}

async function waitForFocus(env: AgentEnv, q: { part?: string; role?: string; text?: string; path?: string }, timeoutMs: number) {
  const re = q.text !== undefined ? new RegExp(q.text, 'i') : undefined;
  const pathRe = q.path !== undefined ? new RegExp(q.path) : undefined;
  return eventually(() => focused(env), (f) => !!f && (!q.part || f.part === q.part) && (!q.role || f.role === q.role)
    && (!re || re.test(`${f.text}\n${f.value ?? ''}`)) && (!pathRe || pathRe.test(f.path)), timeoutMs, `keyboard focus on ${JSON.stringify(q)}`);
}

/**
 * Types into the focused field and checks the field's value; keys typed while a view is still
 * opening can be lost, so it selects all and types again (at most three times).
 */
async function typeVerified(env: AgentEnv, text: string, expected = text): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await env.call('input.type', { text });
    await env.settle();
    try {
      await eventually(() => focused(env), (f) => (f?.value ?? '').endsWith(expected), 1500, `the focused field holding ${JSON.stringify(expected)}`);
      return;
    } catch (err) {
      if (attempt === 3) throw err;
      await env.call('input.key', { keys: 'ctrl+a' });
      if (expected !== text) await env.call('input.type', { text: expected.slice(0, expected.length - text.length) });
    }
  }
}

/** Opens a quick input (ctrl+p, ctrl+shift+p), types into it and waits for a matching option. */
async function quickInput(env: AgentEnv, keys: string, prefix: string, text: string, option: (t: string) => boolean): Promise<void> {
  await env.call('input.key', { keys });
  await waitForFocus(env, { part: 'quickinput' }, 10_000);
  await typeVerified(env, text, `${prefix}${text}`);
  let seen: string[] = [];
  await eventually(async () => {
    const marks = (await env.call('dom.marks', {})).marks.filter((m) => m.part === 'quickinput' && m.role === 'option');
    seen = marks.map((m) => m.text);
    return marks;
  }, (marks) => marks.length > 0 && option(marks[0].text), 5000, 'a matching option').catch(() => {
    throw new Error(`nothing matching ${JSON.stringify(text)} is offered first (options: ${seen.slice(0, 8).map((t) => JSON.stringify(t)).join(', ') || 'none'})`);
  });
  await env.call('input.key', { keys: 'enter' });
  await env.settle(200);
}

/** Quick open by keyboard, as a person does it; waits until the file is the active editor. */
async function openFile(env: AgentEnv, rel: string): Promise<void> {
  const want = workspacePath(rel);
  if ((await activeEditorPath(env)) === want) return;
  const base = rel.split('/').pop()!;
  await quickInput(env, 'ctrl+p', '', rel, (t) => t.includes(base));
  await eventually(() => activeEditorPath(env), (p) => p === want, 10_000, `${rel} open in the editor`);
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
    execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', join(work, 'out.vsix')], { cwd: work, stdio: ['ignore', 'ignore', 'pipe'] });
    mkdirSync(cache, { recursive: true });
    cpSync(join(work, 'out.vsix'), cached);
    return readFileSync(cached);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Runs an IDE tool; an error result is an error unless allowed. Returns its text. */
async function callTool(env: AgentEnv, name: string, args: Record<string, unknown>, timeoutMs?: number, allowError = false): Promise<string> {
  const r = await env.call('tools.call', { name, args, timeoutMs }, );
  const text = r.content.filter((c) => c.type === 'text').map((c) => (c as { text: string }).text).join('\n');
  if (r.isError && !allowError) throw new Error(`tool ${name} failed: ${text.slice(0, 1500)}`);
  return text;
}

/**
 * Saves each version of a file through the IDE in turn (the write_file tool edits the open
 * document and saves it), so the local history (Timeline) gets one entry per version.
 */
async function saveVersions(env: AgentEnv, s: StepOf<'history'>, taskDir: string): Promise<void> {
  const file = s.history;
  const path = workspacePath(file);
  const versions = s.versions.map((v) => (typeof v === 'string' ? v : readFileSync(join(taskDir, v.from), 'utf8')));
  // Saves closer together than the merge window replace each other's entry.
  const merge = await env.call('ide.settings.get', { key: 'workbench.localHistory.mergeWindow' });
  await env.call('ide.settings.update', { key: 'workbench.localHistory.mergeWindow', value: 1 });
  try {
    // A file the IDE creates is not saved as an edit: start from an empty one on disk.
    if (!(await env.readFile(path))) await env.writeFile(path, '');
    for (const [i, content] of versions.entries()) {
      const before = (await env.call('ide.timeline', { file })).entries.length;
      await callTool(env, 'write_file', { file_path: file, contents: content });
      const t = await eventually(() => env.call('ide.timeline', { file }), (x) => x.entries.length > before, 10_000,
        `a local-history entry for version ${i + 1} of ${file} (is it the same as the version before?)`);
      const saved = await env.call('ide.timeline.read', { file, entryId: t.entries[t.entries.length - 1].id });
      if (saved.content !== content) throw new Error(`the IDE saved version ${i + 1} of ${file} differently than written`);
      if (i < versions.length - 1) await sleep(1100);
    }
  } finally {
    await env.call('ide.settings.update', { key: 'workbench.localHistory.mergeWindow', value: merge.userValue });
  }
}

async function editJson(env: AgentEnv, s: StepOf<'editJson'>): Promise<void> {
  const path = workspacePath(s.editJson);
  let text = (await env.readFile(path))?.toString('utf8') ?? '{}\n';
  for (const [key, value] of Object.entries(s.set)) {
    text = applyEdits(text, modify(text, [key], value, { formattingOptions: { insertSpaces: true, tabSize: 4, eol: '\n' } }));
  }
  await env.writeFile(path, text);
}

async function startServer(env: AgentEnv, s: StepOf<'startServer'>): Promise<void> {
  await env.exec(s.startServer, { cwd: s.cwd ? workspacePath(s.cwd) : '/workspace', detach: true });
  // One command that waits inside the container: in an oracle it is one action, not one per probe.
  const wait = `until (exec 3<>/dev/tcp/127.0.0.1/${s.port}) 2>/dev/null; do sleep 0.1; done`;
  const r = await env.exec(['bash', '-c', wait], { timeoutSec: s.timeoutSec });
  if (r.exitCode !== 0) throw new Error(`no server listening on port ${s.port} within ${s.timeoutSec} s${r.timedOut ? '' : ` (exit code ${r.exitCode})`}`);
}

async function runStep(s: Step, env: AgentEnv, taskDir: string): Promise<void> {
  if (s.note) env.note(s.note);
  if ('key' in s) { await env.call('input.key', { keys: s.key, repeat: s.repeat }); await env.settle(); return; }
  if ('type' in s) {
    if (s.verify) await typeVerified(env, s.type);
    else { await env.call('input.type', { text: s.type }); await env.settle(); }
    return;
  }
  if ('waitForFocus' in s) {
    const t0 = Date.now();
    await waitForFocus(env, s.waitForFocus, s.timeoutMs);
    // The same condition as a matcher, so a replay waits for this focus too.
    const q = s.waitForFocus;
    const base: Record<string, unknown> = { ...(q.part ? { part: q.part } : {}), ...(q.role ? { role: q.role } : {}), ...(q.path ? { path: { $regex: q.path } } : {}) };
    const focusMatch = q.text === undefined ? base : { $anyOf: [{ ...base, text: { $regex: q.text, $flags: 'i' } }, { ...base, value: { $regex: q.text, $flags: 'i' } }] };
    env.sync({ ide: 'dom.focused', params: {}, match: { focused: focusMatch } }, true, Date.now() - t0);
    return;
  }
  if ('click' in s) {
    if ('x' in s.click) { await env.call('input.click', { x: s.click.x, y: s.click.y, button: s.button, count: s.count }); await env.settle(); }
    else await clickMark(env, s.click, s.button, s.count);
    return;
  }
  if ('palette' in s) {
    const label = s.palette.toLowerCase().replace(/\.+$|…$/, '');
    await quickInput(env, 'ctrl+shift+p', '>', s.palette, (t) => t.toLowerCase().startsWith(label));
    return;
  }
  if ('openFile' in s) { await openFile(env, s.openFile); return; }
  if ('ide' in s) { await env.call(s.ide as 'ide.status', s.params as never); return; }
  if ('writeFile' in s) {
    await env.writeFile(workspacePath(s.writeFile), s.content ?? readFileSync(join(taskDir, s.from!)));
    return;
  }
  if ('editJson' in s) { await editJson(env, s); return; }
  if ('exec' in s) {
    const r = await env.exec(s.exec, { cwd: s.cwd ? workspacePath(s.cwd) : '/workspace', timeoutSec: s.timeoutSec });
    if (s.exitCode !== null && r.exitCode !== s.exitCode) {
      throw new Error(`${s.exec.join(' ')} exited with ${r.exitCode}${r.timedOut ? ' (timed out)' : ''}, expected ${s.exitCode}: ${(r.stderr || r.stdout).trim().slice(-1500)}`);
    }
    return;
  }
  if ('startServer' in s) { await startServer(env, s); return; }
  if ('history' in s) { await saveVersions(env, s, taskDir); return; }
  if ('restoreFromTimeline' in s) {
    const t = await env.call('ide.timeline', { file: s.restoreFromTimeline });
    const entry = t.entries.at(s.entry);
    if (!entry) throw new Error(`${s.restoreFromTimeline} has ${t.entries.length} local-history entries; there is no entry ${s.entry}`);
    await env.call('ide.timeline.restore', { file: s.restoreFromTimeline, entryId: entry.id });
    return;
  }
  if ('buildVsix' in s) { await env.writeFile(workspacePath(s.out), buildVsix(join(taskDir, s.buildVsix))); return; }
  if ('answer' in s) { env.answer(s.answer); return; }
  if ('tool' in s) { await callTool(env, s.tool, s.args, s.timeoutMs, s.allowError); return; }
  if ('answerFrom' in s) {
    const a = s.answerFrom;
    let text: string;
    let what: string;
    if ('exec' in a) {
      what = a.exec.join(' ');
      const r = await env.exec(a.exec, { cwd: a.cwd ? workspacePath(a.cwd) : '/workspace', timeoutSec: a.timeoutSec });
      if (r.exitCode !== 0) throw new Error(`${what} exited with ${r.exitCode}: ${(r.stderr || r.stdout).trim().slice(-1500)}`);
      text = r.stdout;
    } else {
      what = `the ${a.tool} tool`;
      text = await callTool(env, a.tool, a.args, a.timeoutMs);
    }
    if (a.regex) {
      const m = new RegExp(a.regex, 'm').exec(text);
      if (!m) throw new Error(`/${a.regex}/ found nothing in the output of ${what}:\n${text.slice(-1500)}`);
      text = m[1] ?? m[0];
    }
    env.answer(text.trim());
    return;
  }
  if ('wait' in s) { await sleep(s.wait); return; }
  if ('settle' in s) { await env.settle(s.settle); return; }
  if ('waitFor' in s) {
    const w = s.waitFor;
    const t0 = Date.now();
    try {
      await eventually(() => env.call(w.ide as 'ide.status', w.params as never), (r) => match(r, w.match).ok, s.timeoutMs, `${w.ide} matching ${JSON.stringify(w.match)}`);
      env.sync(w, true, Date.now() - t0);
    } catch (err) {
      env.sync(w, false, Date.now() - t0);
      throw err;
    }
    return;
  }
  const never: never = s;
  throw new Error(`unknown step ${JSON.stringify(never)}`);
}

/** Runs steps in order; the first failure stops them with the step's number in the message. */
export async function runSteps(steps: readonly Step[], env: AgentEnv, taskDir: string, signal?: AbortSignal): Promise<void> {
  for (const [i, s] of steps.entries()) {
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
    try {
      await runStep(s, env, taskDir);
    } catch (err) {
      if (err instanceof StepError || (err as Error).name === 'LimitReachedError') throw err;
      throw new StepError(i, s, (err as Error).message);
    }
  }
}
