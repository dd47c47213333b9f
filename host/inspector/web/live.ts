// One environment, live: the screen (changed boxes drawn onto a canvas as they arrive), the
// Set-of-Marks overlay and list, the IDE panels, who holds control (with noVNC in place of the
// canvas while the person does) and the session timeline.
import type { ControlStatus, Mark } from '../../../bridge/protocol';
import type { ClientRequest, EnvSummary, FrameHeader, PanelName, Panels, ServerMessage, TimelineEntry } from '../messages';
import { clear, h, time } from './dom';

const PANEL_TITLES: [PanelName, string][] = [
  ['editors', 'Editors'], ['diagnostics', 'Problems'], ['settings', 'Settings changed from defaults'], ['extensions', 'Extensions'],
  ['timeline', 'Timeline of the active file'], ['debug', 'Breakpoints'], ['terminals', 'Terminals'],
];

export function showEnvironment(root: HTMLElement, envId: string): () => void {
  let ws: WebSocket | null = null;
  let disposed = false;
  let env: EnvSummary | null = null;
  let marks: Mark[] = [];
  let markScreen = { width: 1280, height: 800 };
  let hovered: number | null = null;
  let control: ControlStatus | null = null;
  let nextId = 1;
  const pending = new Map<number, { ok: (v: unknown) => void; fail: (e: Error) => void }>();
  const timeline = new Map<string, TimelineEntry>();
  let frames = 0;

  // ---- layout ----
  const canvas = h('canvas#screen', { width: 1280, height: 800 });
  const overlay = h('canvas#overlay', { width: 1280, height: 800 });
  const vnc = h('iframe#vnc', { hidden: true, title: 'live control (noVNC)', allow: 'clipboard-read; clipboard-write' });
  const screenWrap = h('div.screen-wrap', {}, canvas, overlay, vnc);
  const status = h('span#connection.badge', {}, 'connecting…');
  const holder = h('span#holder.badge', {}, '');
  const fps = h('span#fps.muted', {}, '');
  const marksToggle = h('input#marks-toggle', { type: 'checkbox' });
  const takeBtn = h('button#take-control', {}, 'Take control');
  const backBtn = h('button#hand-back', { hidden: true }, 'Hand control back');
  const ctlMessage = h('span#control-message', {}, '');
  const answerInput = h('input#control-answer', { type: 'text', hidden: true, maxlength: '10000', placeholder: 'your answer to the agent (optional)' }) as HTMLInputElement;
  const toolbar = h('div.toolbar', {}, status, holder, h('label', {}, marksToggle, ' Set-of-Marks overlay'), takeBtn, ctlMessage, answerInput, backBtn, fps);
  const sessionList = h('ol#session');
  const marksSearch = h('input#marks-search', { type: 'search', placeholder: 'search marks: id, role or text' });
  const marksCount = h('span.muted', {}, '');
  const marksList = h('ul#marks-list');
  const panelBodies = new Map<PanelName, HTMLElement>();
  const panelStamps = new Map<PanelName, HTMLElement>();
  const panels = PANEL_TITLES.map(([name, title]) => {
    const body = h('div.panel-body', { 'data-panel': name }, h('span.muted', {}, 'waiting…'));
    const stamp = h('span.stamp.muted', {}, '');
    panelBodies.set(name, body);
    panelStamps.set(name, stamp);
    return h('details.panel', { open: true, id: `panel-${name}` }, h('summary', {}, title, ' ', stamp), body);
  });
  clear(root, h('div.live', {},
    h('div.left', {}, toolbar, screenWrap, h('h3', {}, 'Session ', h('span.muted', {}, '(who did what)')), sessionList),
    h('div.right', {},
      h('details.panel', { open: true, id: 'panel-marks' }, h('summary', {}, 'Set-of-Marks ', marksCount), marksSearch, marksList),
      ...panels)));

  // ---- requests ----
  const request = (r: ClientRequest): Promise<unknown> => new Promise((ok, fail) => {
    if (!ws || ws.readyState !== WebSocket.OPEN) { fail(new Error('not connected')); return; }
    const id = nextId++;
    pending.set(id, { ok, fail });
    ws.send(JSON.stringify({ ...r, id }));
  });
  const flash = (msg: string) => { ctlMessage.textContent = msg; ctlMessage.className = 'error'; };

  // ---- screen ----
  const ctx = canvas.getContext('2d')!;
  let drawing: Promise<void> = Promise.resolve();
  const onFrame = (buf: ArrayBuffer) => {
    const len = new DataView(buf).getUint32(0);
    const header = JSON.parse(new TextDecoder().decode(new Uint8Array(buf, 4, len))) as FrameHeader;
    const blob = new Blob([new Uint8Array(buf, 4 + len)], { type: `image/${header.format}` });
    // Drawn in arrival order: a later box must land on top of an earlier one.
    drawing = drawing.then(async () => {
      const img = await createImageBitmap(blob);
      if (canvas.width !== header.screen.width || canvas.height !== header.screen.height) {
        canvas.width = overlay.width = header.screen.width;
        canvas.height = overlay.height = header.screen.height;
        drawOverlay();
      }
      ctx.drawImage(img, header.box.x, header.box.y);
      img.close();
      frames++;
      canvas.dataset.frames = String(Number(canvas.dataset.frames ?? 0) + 1);
    }).catch(() => undefined);
  };
  const fpsTimer = setInterval(() => { fps.textContent = `${frames} frame${frames === 1 ? '' : 's'}/s`; frames = 0; }, 1000);

  // ---- marks ----
  const octx = overlay.getContext('2d')!;
  const matches = (m: Mark, q: string) => {
    if (!q) return true;
    const id = /^#?(\d+)$/.exec(q);
    if (id) return m.id === Number(id[1]);
    const s = q.toLowerCase();
    return m.text.toLowerCase().includes(s) || m.role.toLowerCase().includes(s) || m.part.toLowerCase().includes(s);
  };
  function drawOverlay(): void {
    octx.clearRect(0, 0, overlay.width, overlay.height);
    if (!marksToggle.checked) return;
    const q = marksSearch.value.trim();
    const sx = overlay.width / markScreen.width;
    const sy = overlay.height / markScreen.height;
    octx.font = '12px sans-serif';
    octx.textBaseline = 'top';
    for (const m of marks) {
      if (!matches(m, q) && m.id !== hovered) continue;
      const hot = m.id === hovered;
      const x = m.box.x * sx, y = m.box.y * sy, w = m.box.width * sx, hh = m.box.height * sy;
      octx.lineWidth = hot ? 3 : 1.5;
      octx.strokeStyle = hot ? '#ff2d55' : '#ffb000';
      octx.strokeRect(x, y, w, hh);
      const label = String(m.id);
      const tw = octx.measureText(label).width + 6;
      octx.fillStyle = hot ? '#ff2d55' : '#ffb000';
      octx.fillRect(x, y, tw, 15);
      octx.fillStyle = '#000';
      octx.fillText(label, x + 3, y + 1);
    }
  }
  function renderMarks(): void {
    const q = marksSearch.value.trim();
    const shown = marks.filter((m) => matches(m, q));
    marksCount.textContent = `${shown.length} of ${marks.length}`;
    clear(marksList, shown.map((m) => h('li.mark', {
      'data-mark': m.id,
      onmouseenter: () => { hovered = m.id; drawOverlay(); },
      onmouseleave: () => { hovered = null; drawOverlay(); },
    },
    h('button.click-mark', {
      title: 'click this element in the IDE',
      onclick: () => {
        request({ op: 'clickMark', mark: m.id }).catch((err: Error) => flash(err.message));
      },
    }, 'click'),
    h('code', {}, `[${m.id}]`), ' ', h('span.role', {}, m.role), ' ', h('span.text', {}, m.text || '—'), ' ', h('span.muted', {}, m.part))));
    drawOverlay();
  }
  marksToggle.addEventListener('change', drawOverlay);
  marksSearch.addEventListener('input', renderMarks);

  // ---- control ----
  function renderControl(): void {
    const human = control?.holder === 'human';
    holder.textContent = !control ? '' : human ? 'the person has control' : 'the agent has control';
    holder.className = `badge ${human ? 'human' : 'agent'}`;
    takeBtn.hidden = human;
    backBtn.hidden = !human;
    answerInput.hidden = !human;
    takeBtn.disabled = !env?.liveView;
    takeBtn.title = env?.liveView ? 'keyboard and mouse go to the IDE through the live view; the agent\'s input waits' : 'this environment does not serve the live view (start it with `pwp up --view`)';
    if (human && control?.message) { ctlMessage.textContent = control.message; ctlMessage.className = ''; }
    const showVnc = human && !!env?.liveView;
    if (showVnc && vnc.hidden) {
      vnc.src = VNC_URL;
      vnc.hidden = false;
      canvas.hidden = overlay.hidden = true;
      vnc.addEventListener('load', () => vnc.focus(), { once: true });
      vncLoadedAt = Date.now();
    } else if (!showVnc && !vnc.hidden) {
      vnc.hidden = true;
      vnc.src = 'about:blank';
      canvas.hidden = overlay.hidden = false;
    }
  }
  // noVNC is ES modules: one failed fetch (Chromium fails requests in flight with
  // ERR_NETWORK_CHANGED whenever Docker adds or removes a network interface) leaves it on its
  // loading screen for good. Load it again when it has not started after a few seconds.
  const VNC_URL = `/env/${envId}/view/vnc.html?autoconnect=1&resize=scale&reconnect=1&reconnect_delay=1000&path=${encodeURIComponent(`env/${envId}/view/websockify`)}`;
  let vncLoadedAt = 0;
  const vncWatchdog = setInterval(() => {
    if (vnc.hidden || Date.now() - vncLoadedAt < 6000) return;
    const doc = vnc.contentDocument;
    if (doc && doc.readyState === 'complete' && doc.documentElement.classList.contains('noVNC_loading')) {
      vncLoadedAt = Date.now();
      vnc.src = `${VNC_URL}&retry=${vncLoadedAt}`;
    }
  }, 1000);
  takeBtn.addEventListener('click', () => { request({ op: 'takeControl' }).catch((err: Error) => flash(err.message)); });
  backBtn.addEventListener('click', () => {
    const answer = answerInput.value.trim();
    request(answer ? { op: 'handBack', answer } : { op: 'handBack' }).then(() => { answerInput.value = ''; }, (err: Error) => flash(err.message));
  });

  // ---- session timeline ----
  function renderTimeline(): void {
    const entries = [...timeline.values()].sort((a, b) => a.t - b.t);
    const atBottom = sessionList.scrollTop + sessionList.clientHeight >= sessionList.scrollHeight - 20;
    clear(sessionList, entries.slice(-500).map((e) => h('li', { class: `actor-${e.actor}`, 'data-actor': e.actor },
      h('span.t', {}, time(e.t)), h('span.who', {}, e.actor === 'agent' ? 'agent' : 'person'), h('span.src.muted', {}, e.source),
      h('span.what', {}, e.text), e.error ? h('span.error', {}, ` ${e.error}`) : null)));
    if (atBottom) sessionList.scrollTop = sessionList.scrollHeight;
  }

  // ---- panels ----
  const table = (head: string[], rows: (string | Node)[][]) => rows.length
    ? h('table', {}, h('thead', {}, h('tr', {}, head.map((c) => h('th', {}, c)))), h('tbody', {}, rows.map((r) => h('tr', {}, r.map((c) => h('td', {}, c))))))
    : h('span.muted', {}, 'none');
  const short = (v: unknown, spec: 'code' | 'code.muted' = 'code') => {
    const text = JSON.stringify(v) ?? '—';
    return h(spec, { title: text }, text.length > 60 ? `${text.slice(0, 57)}…` : text);
  };
  const renderers: { [N in PanelName]: (d: Panels[N]) => Node } = {
    editors: (d) => h('div', {},
      d.active ? h('p', {}, 'active: ', h('code', {}, d.active.path ?? d.active.uri), ` ${d.active.languageId}, line ${d.active.line}, column ${d.active.column}${d.active.dirty ? ', unsaved' : ''}`) : h('p.muted', {}, 'no active editor'),
      table(['group', 'tab', ''], d.groups.flatMap((g) => g.tabs.map((t) => [String(g.viewColumn), t.path ?? t.label, [t.active ? 'active' : '', t.dirty ? 'unsaved' : '', t.preview ? 'preview' : ''].filter(Boolean).join(', ')])))),
    diagnostics: (d) => h('div', {},
      h('p', {}, `${d.counts.error} errors, ${d.counts.warning} warnings, ${d.counts.information} infos, ${d.counts.hint} hints`),
      table(['', 'where', 'message', 'source'], d.items.map((x) => [h('span', { class: `sev sev-${x.severity}` }, x.severity), `${(x.path ?? x.uri).replace(/^\/workspace\//, '')}:${x.line}:${x.column}`, x.message, x.source ?? '']))),
    settings: (d) => table(['setting', 'value', 'default', 'from'], d.rows.map((r) => [
      `${r.languageId ? `[${r.languageId}] ` : ''}${r.key}`, short(r.value), short(r.defaultValue, 'code.muted'),
      r.imageDefault ? h('span.muted', { title: `${r.source} settings: set by pwp's image for a clean screen` }, 'image') : r.source])),
    extensions: (d) => h('div', {},
      h('p', {}, `themes: ${d.colorTheme ?? '—'} · icons: ${d.iconTheme ?? 'none'} · product icons: ${d.productIconTheme ?? '—'} · ${d.builtinCount} built-in`),
      table(['extension', 'version', ''], d.user.map((x) => [x.displayName ? `${x.displayName} (${x.id})` : x.id, x.version, [x.enabled ? 'enabled' : 'disabled', x.active ? 'active' : ''].filter(Boolean).join(', ')]))),
    timeline: (d) => d.file
      ? h('div', {}, h('p', {}, h('code', {}, d.file)), table(['time', 'what', 'size'], d.entries.map((e) => [e.time.replace('T', ' ').slice(0, 19), e.label, e.size === null ? '' : `${e.size} B`])))
      : h('span.muted', {}, 'no file in the active editor'),
    debug: (d) => h('div', {},
      table(['breakpoint', 'enabled', 'condition'], d.breakpoints.map((b) => [b.where, b.enabled ? 'yes' : 'no', [b.condition && `if ${b.condition}`, b.hitCondition && `hits ${b.hitCondition}`, b.logMessage && `log ${b.logMessage}`].filter(Boolean).join('; ')])),
      d.sessions.length ? h('p', {}, 'sessions: ', d.sessions.map((s) => `${s.name} (${s.type})${s.active ? ' ●' : ''}`).join(', ')) : null),
    terminals: (d) => table(['terminal', 'pid', 'cwd', 'running'], d.terminals.map((t) => [`${t.name}${t.active ? ' ●' : ''}`, String(t.processId ?? ''), t.cwd ?? '', t.running.join('; ')])),
  };
  function renderPanel(m: Extract<ServerMessage, { type: 'panel' }>): void {
    const body = panelBodies.get(m.name)!;
    panelStamps.get(m.name)!.textContent = `updated ${time(m.t)}`;
    if (m.error) { clear(body, h('span.error', {}, m.error)); return; }
    clear(body, (renderers[m.name] as (d: unknown) => Node)(m.data));
  }

  // ---- connection ----
  function connect(): void {
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    const sock = new WebSocket(`${proto}://${location.host}/ws?env=${envId}`);
    ws = sock;
    sock.binaryType = 'arraybuffer';
    sock.onopen = () => { status.textContent = 'live'; status.className = 'badge ok'; };
    sock.onclose = () => {
      for (const p of pending.values()) p.fail(new Error('disconnected'));
      pending.clear();
      if (disposed || status.dataset.gone) return;
      status.textContent = 'reconnecting…';
      status.className = 'badge';
      setTimeout(() => { if (!disposed) connect(); }, 1000);
    };
    sock.onmessage = (ev) => {
      if (ev.data instanceof ArrayBuffer) { onFrame(ev.data); return; }
      const m = JSON.parse(ev.data as string) as ServerMessage;
      switch (m.type) {
        case 'hello': env = m.env; renderControl(); break;
        case 'panel': renderPanel(m); break;
        case 'marks': marks = m.marks; markScreen = m.screen; renderMarks(); break;
        case 'control': control = m.status; renderControl(); break;
        case 'timeline':
          if (m.replace) timeline.clear();
          for (const e of m.entries) timeline.set(e.id, e);
          renderTimeline();
          break;
        case 'reply': {
          const p = pending.get(m.id);
          pending.delete(m.id);
          if (m.error) p?.fail(new Error(m.error)); else p?.ok(m.result);
          break;
        }
        case 'gone':
          status.dataset.gone = '1';
          status.textContent = m.reason;
          status.className = 'badge error';
          break;
      }
    };
  }
  connect();

  return () => {
    disposed = true;
    clearInterval(fpsTimer);
    clearInterval(vncWatchdog);
    ws?.close();
  };
}
