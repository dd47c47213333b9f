import { strict as assert } from 'node:assert';
import { compareFlowchart, MermaidSyntaxError, parseFlowchart, type Flowchart } from '../../../../host/evaluation/mermaidFlowchart';

const edgesOf = (c: Flowchart) => c.edges.map((e) => `${e.from}${e.directed ? '->' : '-'}${e.to}${e.label ? `|${e.label}` : ''}`);
const labels = (c: Flowchart) => Object.fromEntries(c.nodes.map((n) => [n.id, n.label]));

describe('Mermaid flowcharts: parsing', () => {
  it('reads node shapes and their labels, quoted or not, with ids alone labelled by their id', () => {
    const c = parseFlowchart([
      'flowchart LR',
      '  a[Client] --> b(API gateway) --> c{Is it cached?}',
      '  d((Cache)) --- e([Worker]) --- f[[Queue]]',
      '  g[(Orders DB)] --> h{{Prepare}} --> i>Flag] --> j[/Input/] --> k[\\Output\\] --> l[/Mixed\\]',
      '  m["Quoted (with parens) and ; semicolon"] --> n(((Stop)))',
      '  o["line one<br/>line two"] --> plain_id',
      '  p@{ shape: rect, label: "New syntax" } --> q:::hot',
    ].join('\n'));
    assert.equal(c.direction, 'LR');
    assert.deepEqual(labels(c), {
      a: 'Client', b: 'API gateway', c: 'Is it cached?', d: 'Cache', e: 'Worker', f: 'Queue', g: 'Orders DB', h: 'Prepare', i: 'Flag',
      j: 'Input', k: 'Output', l: 'Mixed', m: 'Quoted (with parens) and ; semicolon', n: 'Stop', o: 'line one line two', plain_id: 'plain_id',
      p: 'New syntax', q: 'q',
    });
  });

  it('reads every link style, link text in both forms, chains and & groups', () => {
    const c = parseFlowchart([
      'graph TD',
      'A --> B',
      'A --- C',
      'A -.-> D',
      'A ==> E',
      'A -->|yes| F',
      'A -- no --> G',
      'A -. maybe .-> H',
      'A == sure ==> I',
      'A ---->J',
      'A --o K',
      'A --x L',
      'A <--> M',
      'A ~~~ N',
      'A-->B2-->C2',
      'X & Y --> Z',
      'P-- x --oQ',
      'R e1@--> S',
    ].join('\n'));
    assert.deepEqual(edgesOf(c), [
      'A->B', 'A-C', 'A->D', 'A->E', 'A->F|yes', 'A->G|no', 'A->H|maybe', 'A->I|sure', 'A->J', 'A->K', 'A->L', 'A-M', 'A-N',
      'A->B2', 'B2->C2', 'X->Z', 'Y->Z', 'P->Q|x', 'R->S',
    ]);
    assert.deepEqual(edgesOf(parseFlowchart('graph LR;A-->B;B-->C;')), ['A->B', 'B->C'], 'statements on the header\'s line');
  });

  it('skips comments, front matter and style statements, splits at ";", and keeps subgraph members as nodes', () => {
    const c = parseFlowchart([
      '---',
      'title: Orders',
      '---',
      '%% the order flow',
      'flowchart TB',
      '  subgraph backend [Back end]',
      '    direction LR',
      '    api[API]; db[(DB)]',
      '    api --> db',
      '  end',
      '  ui[Web UI] --> backend',
      '  classDef hot fill:#f00',
      '  class api hot',
      '  style db fill:#0f0',
      '  linkStyle 0 stroke:#00f',
      '  click api "https://example.com"',
    ].join('\r\n'));
    assert.deepEqual(labels(c), { api: 'API', db: 'DB', ui: 'Web UI', backend: 'Back end' });
    assert.deepEqual(edgesOf(c), ['api->db', 'ui->backend']);
  });

  it('gives a later definition\'s label to a node first seen bare', () => {
    assert.deepEqual(labels(parseFlowchart('flowchart TD\nA --> B\nB[Billing]')), { A: 'A', B: 'Billing' });
  });

  it('refuses malformed input with the line and the reason, never a crash', () => {
    const bad: [string, RegExp][] = [
      ['', /line 1: the file is empty/],
      ['sequenceDiagram\nA->>B: hi', /line 1: a flowchart starts with "flowchart <direction>"/],
      ['flowchart TD\nA[Client --> B', /line 2: the label of node A is not closed: expected "\]"/],
      ['flowchart TD\nA["Client] --> B', /line 2: the label of node A has no closing quote/],
      ['flowchart TD\nA -->', /line 2: the link "-->" has no node after it/],
      ['flowchart TD\nA B', /line 2: cannot read "B" in "A B": expected a link/],
      ['flowchart TD\n--> B', /line 2: expected a node id at "--> B"/],
      ['flowchart TD\nsubgraph one\nA --> B', /line 2: subgraph "one" has no "end"/],
      ['flowchart TD\nA --> B\nend', /line 3: "end" without a subgraph to close/],
      ['flowchart TD\nA[] --> B', /line 2: node A has an empty label/],
      ['---\ntitle: x\nflowchart TD', /line 1: the front matter opened with "---" is not closed/],
    ];
    for (const [src, why] of bad) assert.throws(() => parseFlowchart(src), (err: Error) => err instanceof MermaidSyntaxError && why.test(err.message), src);
  });

  it('answers any scrambled input with a chart or a MermaidSyntaxError', () => {
    const pieces = ['A', 'B', ' ', '-->', '--', '-', '.', '=', '|', '[', ']', '(', ')', '{', '}', '"', ';', '&', '<', '>', 'o', 'x', '\n', 'end', 'subgraph ', '%%', ':::', '@{'];
    let seed = 15;
    const rand = (n: number) => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed % n; };
    for (let k = 0; k < 2000; k++) {
      let body = '';
      for (let i = rand(30); i > 0; i--) body += pieces[rand(pieces.length)];
      try { parseFlowchart(`flowchart TD\n${body}`); } catch (err) { assert.ok(err instanceof MermaidSyntaxError, `${JSON.stringify(body)}: ${String(err)}`); }
    }
  });
});

describe('Mermaid flowcharts: comparing with the expected structure', () => {
  const chart = parseFlowchart('flowchart LR\n  c[Client] -->|HTTPS| a[API]\n  a --> d[(Database)]\n  a --- q[Queue]\n');

  it('matches nodes and edges by label, ignoring case and white space, and links without arrowheads either way', () => {
    const r = compareFlowchart(chart, { nodes: ['client', ' API ', 'DATABASE'], edges: [['Client', 'API', 'https'], ['API', 'Database'], ['Queue', 'api']], exact: false });
    assert.deepEqual(r, { ok: true, why: '4 nodes and 3 edges as expected' });
  });

  it('names every missing node and edge, and an edge drawn the wrong way or with the wrong text', () => {
    const r = compareFlowchart(chart, { nodes: ['Client', 'Cache'], edges: [['Database', 'API'], ['Client', 'API', 'gRPC'], ['API', 'Cache']], exact: false });
    assert.equal(r.ok, false);
    assert.equal(r.why, 'missing nodes: "Cache"; missing edges: "Database" --> "API", "Client" -->|gRPC| "API", "API" --> "Cache"');
  });

  it('with exact, also names the nodes and edges the spec does not have', () => {
    const r = compareFlowchart(chart, { nodes: ['Client', 'API', 'Database'], edges: [['Client', 'API'], ['API', 'Database']], exact: true });
    assert.equal(r.ok, false);
    assert.equal(r.why, 'extra nodes: "Queue"; extra edges: "API" --- "Queue"');
    const expected = { nodes: [], edges: [['Client', 'API'], ['API', 'Database'], ['API', 'Queue']] as [string, string][], exact: true };
    assert.equal(compareFlowchart(chart, expected).ok, true, 'nodes named by edges count as expected');
  });

  it('counts a repeated edge once per expected edge', () => {
    const twice = parseFlowchart('flowchart TD\nA --> B\nA --> B');
    assert.equal(compareFlowchart(twice, { nodes: [], edges: [['A', 'B']], exact: true }).why, 'extra edges: "A" --> "B"');
    assert.equal(compareFlowchart(twice, { nodes: [], edges: [['A', 'B'], ['A', 'B']], exact: true }).ok, true);
  });
});
