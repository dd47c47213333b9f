// tools.* end to end, the IDE-Bench tool set, in a real container: reads, searches and edits
// checked on disk, servers started in the environment reached by api_call, websocket_test and
// ui_test, databases, notebooks and diagrams; bad calls change nothing.
import { strict as assert } from 'node:assert';
import { useEnvironment } from './environmentFixture';
import { eventually } from './ideDriving';
import { callTool, execIn, fileIn, imagesOf, isPng, textOf } from './toolsFixture';

const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

// A WebSocket echo server from the standard library (handshake and text frames only).
const WS_SERVER = String.raw`
import base64, hashlib, socket, struct, threading
def serve(c):
    req = b""
    while b"\r\n\r\n" not in req:
        req += c.recv(1024)
    key = [l.split(b": ")[1] for l in req.split(b"\r\n") if l.lower().startswith(b"sec-websocket-key")][0].strip()
    acc = base64.b64encode(hashlib.sha1(key + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest())
    c.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: " + acc + b"\r\n\r\n")
    c.sendall(b"\x81" + bytes([len(b"welcome")]) + b"welcome")
    while True:
        h = c.recv(2)
        if len(h) < 2 or h[0] & 0x0f == 8: break
        n = h[1] & 0x7f
        if n == 126: n = struct.unpack(">H", c.recv(2))[0]
        mask = c.recv(4); data = bytearray(c.recv(n))
        for i in range(len(data)): data[i] ^= mask[i % 4]
        out = b"echo:" + bytes(data)
        c.sendall(b"\x81" + bytes([len(out)]) + out)
    c.close()
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.1", 8766)); s.listen()
while True:
    threading.Thread(target=serve, args=(s.accept()[0],), daemon=True).start()
`;

const FILES = {
  'long.txt': lines,
  'app/users.py': 'import hashlib\n\n\ndef hash_password(password: str) -> str:\n    """Hash a password for storage."""\n    return hashlib.sha256(password.encode()).hexdigest()\n\n\ndef find_user(users, name):\n    return [u for u in users if u == name]\n',
  'app/dup.py': 'x = 1\nx = 1\n',
  'app/server.py': 'import http.server, json\nclass H(http.server.BaseHTTPRequestHandler):\n    def do_GET(self):\n        body = json.dumps({"path": self.path, "ok": True}).encode()\n        self.send_response(200); self.send_header("content-type", "application/json"); self.end_headers(); self.wfile.write(body)\n    def log_message(self, *a): pass\nhttp.server.HTTPServer(("127.0.0.1", 8765), H).serve_forever()\n',
  'app/ws.py': WS_SERVER,
  'web/index.html': '<!doctype html><title>Greeter</title><input id="name"><button id="go" onclick="document.getElementById(\'out\').textContent = \'Hello, \' + document.getElementById(\'name\').value">Go</button><p id="out"></p>',
  'node_modules/dep/index.js': 'hash_password\n',
  'build/out.txt': 'hash_password\n',
  'src/readme.md': 'docs\n',
};

describe('tools.*: the IDE-Bench tool set', function () {
  this.timeout(300_000); // a hang detector: a loaded machine needs several of the waits on state below
  const env = useEnvironment(FILES);

  it('read_file pages a file by offset and limit and says how to read on', async () => {
    const r = await callTool(env().client, 'read_file', { target_file: 'long.txt', offset: 10, limit: 5 });
    assert.match(textOf(r), /lines 10-14 of 30/);
    assert.match(textOf(r), /\n {4}10\tline 10\n[\s\S]* {4}14\tline 14\n\[showing lines 10-14 of 30; read on with \{"target_file": "long.txt", "offset": 15\}\]$/);
    const missing = await callTool(env().client, 'read_file', { target_file: 'nope.py' });
    assert.equal(missing.isError, true);
    assert.match(textOf(missing), /file not found/);
    const escape = await callTool(env().client, 'read_file', { target_file: '../../etc/shadow' });
    assert.match(textOf(escape), /outside the workspace/);
  });

  it('list_dir lists a folder and skips node_modules, build and the like', async () => {
    const r = textOf(await callTool(env().client, 'list_dir', {}));
    assert.match(r, /\[dir\] {2}app\/ \(4 items\)/);
    assert.match(r, /\[file\] long\.txt \(\d+ bytes\)/);
    assert.doesNotMatch(r, /node_modules|build/);
  });

  it('list_dir recurses down to max_depth with indentation, and every IDE-Bench tool takes an explanation (logged, not acted on)', async () => {
    const { client } = env();
    const r = textOf(await callTool(client, 'list_dir', { recursive: true, explanation: 'see the whole layout first' }));
    assert.match(r, /\[dir\] {2}app\/ \(4 items\)\n {2}\[file\] dup\.py \(\d+ bytes\)/);
    assert.match(r, /\[dir\] {2}src\/ \(1 items\)\n {2}\[file\] readme\.md/);
    assert.doesNotMatch(r, /node_modules|build|index\.js/);
    const shallow = textOf(await callTool(client, 'list_dir', { recursive: true, max_depth: 1 }));
    assert.doesNotMatch(shallow, /dup\.py/);
    const tools = await client.call('tools.list', { groups: ['idebench'] });
    const idebench = tools.tools.filter((t) => t.group === 'idebench');
    assert.ok(idebench.length >= 15);
    for (const t of idebench) assert.ok((t.inputSchema.properties as Record<string, unknown>).explanation, `${t.name} has no explanation parameter`);
    const read = await callTool(client, 'read_file', { target_file: 'long.txt', limit: 1, explanation: 'check the first line' });
    assert.equal(read.isError, false, textOf(read));
    const log = await client.call('tools.log', {});
    assert.ok(log.entries.some((e) => e.name === 'read_file' && JSON.stringify(e.args).includes('check the first line')), 'the explanation is not in the tool log');
    // Still strict otherwise: an unknown argument is refused.
    await assert.rejects(client.call('tools.call', { name: 'list_dir', args: { recursively: true } }), /recursively/);
  });

  it('grep_search, file_search and codebase_search find code and skip dependency folders', async () => {
    const { client } = env();
    const g = textOf(await callTool(client, 'grep_search', { query: 'def \\w+_password', include_pattern: '*.py' }));
    assert.match(g, /^1 matches:\napp\/users\.py:4: def hash_password/);
    const f = textOf(await callTool(client, 'file_search', { query: 'usrs' }));
    assert.equal(f.split('\n')[0], 'app/users.py');
    const c = textOf(await callTool(client, 'codebase_search', { query: 'where are passwords hashed' }));
    assert.match(c.split('\n')[0], /^app\/users\.py:1-/);
    assert.match(c, /def hash_password/);
    assert.doesNotMatch(c, /node_modules|build\//);
  });

  it('edit_file replaces, inserts and deletes lines, and rejects a Python syntax error without writing', async () => {
    const { client } = env();
    const path = '/workspace/app/users.py';
    const before = await fileIn(env(), path);
    const bad = await callTool(client, 'edit_file', { target_file: 'app/users.py', operation: 'REPLACE', start_line: 9, end_line: 9, content: 'def find_user(users, name:' });
    assert.equal(bad.isError, true);
    assert.match(textOf(bad), /Python syntax error at line 9/);
    assert.equal(await fileIn(env(), path), before);
    await callTool(client, 'edit_file', { target_file: 'app/users.py', operation: 'REPLACE', start_line: 9, content: 'def find_user(users, wanted):' });
    await callTool(client, 'edit_file', { target_file: 'app/users.py', operation: 'INSERT', start_line: 1, content: '# users module' });
    await callTool(client, 'edit_file', { target_file: 'app/users.py', operation: 'DELETE', start_line: 2, end_line: 2 });
    const after = (await fileIn(env(), path))!;
    assert.match(after, /^# users module\n\n\ndef hash_password/);
    assert.match(after, /def find_user\(users, wanted\):/);
    const range = await callTool(client, 'edit_file', { target_file: 'app/users.py', operation: 'DELETE', start_line: 99 });
    assert.match(textOf(range), /out of range/);
  });

  it('search_replace needs a unique match unless replace_all, and write_file and delete_file work on disk', async () => {
    const { client } = env();
    const amb = await callTool(client, 'search_replace', { file_path: 'app/dup.py', old_string: 'x = 1', new_string: 'x = 2' });
    assert.match(textOf(amb), /occurs 2 times \(lines 1, 2\)/);
    assert.equal(await fileIn(env(), '/workspace/app/dup.py'), 'x = 1\nx = 1\n');
    await callTool(client, 'search_replace', { file_path: 'app/dup.py', old_string: 'x = 1', new_string: 'x = 2', replace_all: true });
    assert.equal(await fileIn(env(), '/workspace/app/dup.py'), 'x = 2\nx = 2\n');
    await callTool(client, 'write_file', { file_path: 'gen/out.txt', contents: 'generated\n' });
    assert.equal(await fileIn(env(), '/workspace/gen/out.txt'), 'generated\n');
    await callTool(client, 'delete_file', { target_file: 'gen/out.txt' });
    assert.equal(await fileIn(env(), '/workspace/gen/out.txt'), null);
    assert.match(textOf(await callTool(client, 'delete_file', { target_file: 'app' })), /is a folder/);
    assert.match(textOf(await callTool(client, 'delete_file', { target_file: 'gen/out.txt' })), /file not found/);
  });

  it('run_terminal_cmd runs in the foreground with a timeout, and a background server answers api_call', async () => {
    const { client } = env();
    const fg = textOf(await callTool(client, 'run_terminal_cmd', { command: 'cd app && python3 -c "print(6*7)"' }));
    assert.equal(fg, '42\n[exit code 0]');
    assert.equal(textOf(await callTool(client, 'run_terminal_cmd', { command: 'pwd' })), '/workspace/app\n[exit code 0]');
    // The echo has to come out before the timeout: 3 s is plenty for that, even loaded.
    const slow = textOf(await callTool(client, 'run_terminal_cmd', { command: 'echo started; sleep 30', timeout_s: 3 }));
    assert.match(slow, /^started\n\[the command ran longer than 3 s and was interrupted/);
    await callTool(client, 'run_terminal_cmd', { command: 'python3 server.py', is_background: true });
    // The server listens once Python has started it: asked until it answers.
    const answer = await eventually(async () => textOf(await callTool(client, 'api_call', { url: 'http://127.0.0.1:8765/items?q=1' })), (a) => /HTTP 200/.test(a), 60_000, 'the server answering');
    assert.match(answer, /^HTTP 200 OK/);
    assert.match(answer, /"path": "\/items\?q=1"/);
    const refused = await callTool(client, 'api_call', { url: 'http://127.0.0.1:59999/x' });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /ECONNREFUSED/);
  });

  it('websocket_test exchanges messages with a server in the environment', async () => {
    const { client } = env();
    await callTool(client, 'run_terminal_cmd', { command: 'cd /workspace/app && python3 ws.py', is_background: true });
    // The server listens once Python has started it, and a loaded machine may answer later than one
    // wait_ms (the time the tool listens after the last message): tried again until both hold.
    const r = await eventually(
      () => callTool(client, 'websocket_test', { url: 'ws://127.0.0.1:8766/', messages: ['ping'], wait_ms: 2000, expect_substring: 'echo:ping' }),
      (x) => !x.isError || !/could not connect|^FAILED/.test(textOf(x)), 60_000, 'the echo server answering');
    assert.equal(r.isError, false, textOf(r));
    assert.match(textOf(r), /< welcome\n/);
    assert.match(textOf(r), /> ping\n[\s\S]*< echo:ping\n/);
    const miss = await callTool(client, 'websocket_test', { url: 'ws://127.0.0.1:8766/', messages: ['a'], wait_ms: 300, expect_substring: 'nothing-like-this' });
    assert.equal(miss.isError, true);
    assert.match(textOf(miss), /^FAILED/);
  });

  it('ui_test drives a page in a headless browser, and stops at a failing step with a screenshot', async () => {
    const { client } = env();
    const ok = await callTool(client, 'ui_test', {
      url: 'web/index.html',
      steps: [{ action: 'type', selector: '#name', text: 'Ada' }, { action: 'click', selector: '#go' }, { action: 'assert_text', selector: '#out', text: 'Hello, Ada' }],
    });
    assert.equal(ok.isError, false, textOf(ok));
    assert.match(textOf(ok), /ui_test passed: 3 step\(s\); page title "Greeter"/);
    assert.ok(isPng(imagesOf(ok)[0]));
    const bad = await callTool(client, 'ui_test', { url: 'web/index.html', steps: [{ action: 'click', selector: '#missing' }, { action: 'click', selector: '#go' }] });
    assert.equal(bad.isError, true);
    assert.match(textOf(bad), /FAIL step 1 \(click #missing\): no element matches #missing/);
    assert.doesNotMatch(textOf(bad), /step 2/);
  });

  it('database_query runs SQL on a SQLite file, and says honestly when no MongoDB server answers', async () => {
    const { client } = env();
    const created = await callTool(client, 'database_query', { database_type: 'sqlite', database_path: 'data/app.db', query: 'create table t(id integer primary key, name text);\ninsert into t(name) values (\'a\'), (\'b\');' });
    assert.equal(created.isError, false, textOf(created));
    const rows = textOf(
      await callTool(client, 'database_query', {
        database_type: 'sqlite',
        database_path: 'data/app.db',
        query: 'select id, name from t where name = ?',
        params: ['b'],
      }),
    );
    assert.match(rows, /id \| name\n-+-\+-+\n2 {2}\| b\n\(1 row\)/);
    assert.equal((await execIn(env(), ['sqlite3', '/workspace/data/app.db', 'select count(*) from t'])).trim(), '2');
    const err = await callTool(client, 'database_query', { database_type: 'sqlite', database_path: 'data/app.db', query: 'select * from nope' });
    assert.equal(err.isError, true);
    assert.match(textOf(err), /no such table: nope/);
    const mongo = await callTool(client, 'database_query', { database_type: 'mongodb', connection_string: 'mongodb://127.0.0.1:27017', database: 'shop', collection: 'items', operation: 'find' });
    assert.equal(mongo.isError, true);
    assert.match(textOf(mongo), /no MongoDB server answered at mongodb:\/\/127\.0\.0\.1:27017/);
  });

  it('edit_notebook creates a notebook, adds and edits cells, and refuses a syntax error', async () => {
    const { client } = env();
    await callTool(client, 'edit_notebook', { target_notebook: 'nb/analysis.ipynb', cell_idx: 0, is_new_cell: true, cell_language: 'markdown', new_string: '# Analysis' });
    await callTool(client, 'edit_notebook', { target_notebook: 'nb/analysis.ipynb', cell_idx: 1, is_new_cell: true, new_string: 'x = 1\nprint(x)\n' });
    await callTool(client, 'edit_notebook', { target_notebook: 'nb/analysis.ipynb', cell_idx: 1, old_string: 'x = 1', new_string: 'x = 2' });
    const bad = await callTool(client, 'edit_notebook', { target_notebook: 'nb/analysis.ipynb', cell_idx: 1, old_string: 'print(x)', new_string: 'print(x' });
    assert.equal(bad.isError, true);
    const nb = JSON.parse((await fileIn(env(), '/workspace/nb/analysis.ipynb'))!);
    assert.equal(nb.nbformat, 4);
    assert.deepEqual(nb.cells.map((c: { cell_type: string; source: string[] }) => [c.cell_type, c.source.join('')]), [['markdown', '# Analysis'], ['code', 'x = 2\nprint(x)\n']]);
  });

  it('create_diagram renders Mermaid to a PNG, saves it, and reports a syntax error', async () => {
    const { client } = env();
    const r = await callTool(client, 'create_diagram', { content: 'flowchart LR\n  A[Start] --> B{Ok?}\n  B -->|yes| C[Done]', output_path: 'docs/flow.png' }, { timeoutMs: 90_000 });
    assert.equal(r.isError, false, textOf(r));
    const img = imagesOf(r)[0];
    assert.ok(isPng(img));
    const onDisk = await execIn(env(), ['sh', '-c', 'head -c 4 /workspace/docs/flow.png | od -An -tx1']);
    assert.equal(onDisk.trim(), '89 50 4e 47');
    const bad = await callTool(client, 'create_diagram', { content: 'flowchart LR\n  A --> (((' });
    assert.equal(bad.isError, true);
    assert.match(textOf(bad), /does not render/);
  });

  it('web_search says it is not available offline', async () => {
    const r = await callTool(env().client, 'web_search', { search_term: 'vscode api' });
    assert.equal(r.isError, true);
    assert.match(textOf(r), /not available offline/);
  });
});
