// The live-view page: noVNC in a frame, and a bar that says who drives the IDE. When the
// agent has asked for help, the bar shows its message, a field for the person's answer and a
// button to hand control back.

export function viewPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>pwp live view</title>
<style>
  html, body { margin: 0; height: 100%; font: 14px system-ui, sans-serif; background: #1e1e1e; color: #ddd; }
  body { display: flex; flex-direction: column; }
  #bar { display: flex; gap: 12px; align-items: center; padding: 6px 12px; background: #2d2d2d; }
  #bar.human { background: #6b4f00; }
  #message { flex: 1; }
  button { font: inherit; padding: 3px 10px; }
  iframe { flex: 1; border: 0; width: 100%; }
</style></head>
<body>
<div id="bar"><strong id="holder">…</strong><span id="message"></span><span id="viewers"></span>
  <input id="answer" hidden size="40" maxlength="10000" placeholder="Your answer to the agent (optional)">
  <button id="handBack" hidden>Hand control back to the agent</button></div>
<iframe id="vnc" src="vnc.html?autoconnect=1&amp;resize=scale&amp;reconnect=1&amp;reconnect_delay=1000&amp;path=view/websockify" allow="clipboard-read; clipboard-write"></iframe>
<script>
  const $ = (id) => document.getElementById(id);
  async function refresh() {
    try {
      const s = await (await fetch('control', { cache: 'no-store' })).json();
      const human = s.holder === 'human';
      $('bar').className = human ? 'human' : '';
      $('holder').textContent = human ? 'You have control' : 'The agent has control (you can still type and click)';
      $('message').textContent = human && s.message ? 'The agent asks: ' + s.message : '';
      $('viewers').textContent = s.viewers + ' watching';
      $('handBack').hidden = !human;
      $('answer').hidden = !human;
    } catch { $('holder').textContent = 'bridge not reachable'; }
  }
  $('handBack').onclick = async () => {
    const answer = $('answer').value;
    await fetch('control/handBack', { method: 'POST', headers: { 'x-pwp-view': '1', 'content-type': 'application/json' }, body: JSON.stringify(answer ? { answer } : {}) });
    $('answer').value = '';
    refresh();
  };
  refresh();
  setInterval(refresh, 1000);
  // On a Docker host, Chromium drops requests in flight whenever a container's network comes or
  // goes (ERR_NETWORK_CHANGED); noVNC's scripts can fail to load that way and never retry. A
  // view that has not been connected for 10 s is reloaded.
  let disconnectedSince = Date.now();
  setInterval(() => {
    const frame = $('vnc');
    let connected = false;
    try { connected = frame.contentDocument.documentElement.classList.contains('noVNC_connected'); } catch {}
    if (connected) { disconnectedSince = Date.now(); return; }
    if (Date.now() - disconnectedSince > 10000) { disconnectedSince = Date.now(); frame.src = frame.src; }
  }, 1000);
</script>
</body></html>
`;
}
