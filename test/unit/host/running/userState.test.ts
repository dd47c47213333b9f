// userState.py's process classification, on listings made up here and read against this
// machine's /proc (the program runs in the container; the parts tested need only a /proc).
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const PROGRAM = join(__dirname, '../../../../host/running/userState.py');

/** classify() of userState.py on `ps` (pid → uid, ppid, argv): [stray, ide]. */
function classify(ps: Record<number, { uid: number; ppid: number; argv: string[] }>): [number[], number[]] {
  const script = [
    'import importlib.util, json, sys',
    `spec = importlib.util.spec_from_file_location('userState', ${JSON.stringify(PROGRAM)})`,
    'm = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)',
    'ps = {int(k): v for k, v in json.loads(sys.argv[1]).items()}',
    'print(json.dumps([sorted(x) for x in m.classify(ps)]))',
  ].join('\n');
  const out = execFileSync('python3', ['-c', script, JSON.stringify(ps)], { env: { ...process.env, PWP_UID: '1000', PWP_BASELINE: '/nonexistent' } });
  return JSON.parse(out.toString()) as [number[], number[]];
}

describe('userState.py: which of the user\'s processes are the IDE\'s', function () {
  // The bridge (root) started code-server, whose extension host started the rest.
  const ide = {
    1: { uid: 0, ppid: 0, argv: ['node', '/opt/pwp/bridge.js'] },
    2: { uid: 1000, ppid: 1, argv: ['/opt/code-server/lib/node', '/opt/code-server/out/node/entry'] },
    3: { uid: 1000, ppid: 2, argv: ['/opt/code-server/lib/node', '/opt/code-server/out/bootstrap-fork', '--type=extensionHost'] },
  };

  it('a helper of the extension host that ended while the listing was read is the IDE\'s, not left behind', function () {
    // No such process: its /proc entry is gone, as a `git rev-parse` of the Git view's is by then.
    const gone = 4_000_000;
    const [stray, mine] = classify({ ...ide, [gone]: { uid: 1000, ppid: 3, argv: ['git', 'rev-parse', '--show-toplevel'] } });
    assert.deepEqual([stray, mine], [[], [2, 3, gone]]);
  });

  it('a live child of the extension host that is not one of the IDE\'s helper programs is stray, and so is a shell', function () {
    // This test's own process: alive, and node is not /usr/bin/git.
    const [stray] = classify({ ...ide, [process.pid]: { uid: 1000, ppid: 3, argv: ['git', 'status'] }, 5: { uid: 1000, ppid: 1, argv: ['bash'] } });
    assert.deepEqual(stray, [5, process.pid].sort((a, b) => a - b));
  });
});
