// Mermaid flowcharts read for grading: the nodes (id and label) and the links between them,
// from the saved source, so a diagram is graded on its structure rather than its text or its
// pixels. Covers what people write in flowcharts: `flowchart`/`graph` headers, node shapes
// ([], (), {}, (( )), ([ ]), [[ ]], [( )], {{ }}, >], [/ /]), quoted labels, links (-->, ---,
// -.->, ==>, ~~~, <-->, --o, --x, longer ones), link text (|text| or -- text -->), chains
// (A --> B --> C), `&` groups, subgraphs, `;` separators, `%%` comments, and style statements
// (ignored). Anything else is an error naming the line, never a guess.

export interface FlowNode { id: string; label: string }
export interface FlowEdge { from: string; to: string; label: string; directed: boolean }
export interface Flowchart { direction: string; nodes: FlowNode[]; edges: FlowEdge[] }

export class MermaidSyntaxError extends Error {
  constructor(readonly line: number, message: string) {
    super(`line ${line}: ${message}`);
    this.name = 'MermaidSyntaxError';
  }
}

// Shapes, longest opener first so `((` is not read as `(`.
const SHAPES: [open: string, close: string[]][] = [
  ['(((', [')))']], ['((', ['))']], ['([', ['])']], ['[[', [']]']], ['[(', [')]']], ['[/', ['/]', '\\]']], ['[\\', ['\\]', '/]']],
  ['{{', ['}}']], ['[', [']']], ['(', [')']], ['{', ['}']], ['>', [']']],
];
const ID = /^[A-Za-z0-9_\u00C0-\uFFFF](?:[\w.\u00C0-\uFFFF]|-(?![-.>=]))*/;
// A link, its text in the middle forms (-- text -->, -. text .->, == text ==>) or none.
// The plain forms first: "--o B" is a circle-ended link, not the text "o B" of a longer one.
// A closing text form may end in o or x right before the next node's id (`-- x --oH`).
const LINKS: RegExp[] = [
  /^<?()(-{2,}(?:>|[ox](?![\w]))|-{3,}|={2,}(?:>|[ox](?![\w]))|={3,}|-\.+-(?:>|[ox](?![\w]))?|~{3,})/,
  /^<?--(?![-.>])\s*([^|]*?)\s*(-{2,}[>ox]|-{3,})/,
  /^<?-\.(?![-.])\s*([^|]*?)\s*(\.-[>ox]?)/,
  /^<?==(?![=>])\s*([^|]*?)\s*(={2,}[>ox]|={3,})/,
];
/** Mermaid 11's link ids (`A e1@--> B`) name a link for styling; they are not part of its structure. */
const LINK_ID = /^[A-Za-z_][\w-]*@(?=[-=.~<])/;
const IGNORED = /^(classDef|class|style|linkStyle|click|direction|accTitle|accDescr)\b/;
const HEADER = /^(flowchart|graph)(?:\s+(TB|TD|BT|RL|LR))?\s*(?:;(.*))?$/i;

/** The visible text of a label: quotes and markdown backticks off, <br> a space, entities of Mermaid's #name; form decoded. */
export function labelText(raw: string): string {
  let s = raw.trim();
  if (s.length >= 2 && s.startsWith('"') && s.endsWith('"')) s = s.slice(1, -1);
  if (s.length >= 2 && s.startsWith('`') && s.endsWith('`')) s = s.slice(1, -1);
  return s.replace(/<br\s*\/?>/gi, ' ').replace(/#quot;/g, '"').replace(/#amp;/g, '&').replace(/#lt;/g, '<').replace(/#gt;/g, '>').replace(/\s+/g, ' ').trim();
}

/** How labels are compared: case and runs of white space do not matter. */
export const labelKey = (s: string) => labelText(s).toLowerCase();

export function parseFlowchart(source: string): Flowchart {
  const nodes = new Map<string, FlowNode>();
  const edges: FlowEdge[] = [];
  const subgraphs: { id: string; title: string; line: number }[] = [];
  const subgraphTitles = new Map<string, string>();
  let direction: string | undefined;

  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  // A YAML front matter block (---, title: …, ---) before the header configures, draws nothing.
  const first = lines.findIndex((l) => l.trim() !== '');
  const frontEnd = first >= 0 && lines[first].trim() === '---' ? lines.findIndex((l, i) => i > first && l.trim() === '---') : -1;
  if (first >= 0 && lines[first].trim() === '---' && frontEnd < 0) throw new MermaidSyntaxError(first + 1, 'the front matter opened with "---" is not closed');
  lines.forEach((raw, i) => {
    const n = i + 1;
    const line = raw.trim();
    if (!line || line.startsWith('%%') || i <= frontEnd) return;
    if (direction === undefined) {
      const h = HEADER.exec(line);
      if (!h) throw new MermaidSyntaxError(n, `a flowchart starts with "flowchart <direction>" or "graph <direction>", found ${JSON.stringify(line.slice(0, 80))}`);
      direction = (h[2] ?? 'TB').toUpperCase();
      // "graph LR;A-->B;B-->C": statements may follow the header on its line.
      for (const stmt of splitStatements(h[3] ?? '')) statement(stmt, n);
      return;
    }
    for (const stmt of splitStatements(line)) statement(stmt, n);
  });
  if (direction === undefined) throw new MermaidSyntaxError(1, 'the file is empty: a flowchart starts with "flowchart <direction>"');
  if (subgraphs.length) { const open = subgraphs[subgraphs.length - 1]; throw new MermaidSyntaxError(open.line, `subgraph ${JSON.stringify(open.title)} has no "end"`); }
  return { direction, nodes: [...nodes.values()], edges };

  function statement(stmt: string, n: number): void {
    if (IGNORED.test(stmt)) return;
    const sub = /^subgraph(?:\s+(.*))?$/.exec(stmt);
    if (sub) {
      const rest = (sub[1] ?? '').trim();
      const m = /^([\w.-]+)\s*\[(.*)\]$/.exec(rest);
      const id = m ? m[1] : rest;
      const title = labelText(m ? m[2] : rest);
      subgraphs.push({ id, title, line: n });
      if (id) subgraphTitles.set(id, title);
      return;
    }
    if (stmt === 'end') {
      if (!subgraphs.pop()) throw new MermaidSyntaxError(n, '"end" without a subgraph to close');
      return;
    }
    let pos = 0;
    let previous = group();
    skipSpace();
    while (pos < stmt.length) {
      const link = readLink();
      if (!link) throw new MermaidSyntaxError(n, `cannot read ${JSON.stringify(stmt.slice(pos, pos + 40))} in ${JSON.stringify(stmt.slice(0, 80))}: expected a link such as --> or the end of the statement`);
      skipSpace();
      if (pos >= stmt.length) throw new MermaidSyntaxError(n, `the link ${JSON.stringify(link.text)} has no node after it`);
      const next = group();
      for (const a of previous) for (const b of next) edges.push({ from: a, to: b, label: link.label, directed: link.directed });
      previous = next;
      skipSpace();
    }

    function skipSpace() { while (pos < stmt.length && /\s/.test(stmt[pos])) pos++; }

    /** Nodes joined with &, as ids. */
    function group(): string[] {
      const ids = [node()];
      skipSpace();
      while (stmt[pos] === '&') { pos++; skipSpace(); ids.push(node()); skipSpace(); }
      return ids;
    }

    function node(): string {
      const m = ID.exec(stmt.slice(pos));
      if (!m) throw new MermaidSyntaxError(n, `expected a node id at ${JSON.stringify(stmt.slice(pos, pos + 40) || '<end of line>')} in ${JSON.stringify(stmt.slice(0, 80))}`);
      const id = m[0];
      pos += id.length;
      let label: string | undefined;
      const shape = SHAPES.find(([open]) => stmt.startsWith(open, pos));
      if (shape) label = shapeLabel(id, shape);
      else if (stmt.startsWith('@{', pos)) label = attributeLabel(id);
      if (stmt.startsWith(':::', pos)) { const c = /^:::[\w-]+/.exec(stmt.slice(pos)); pos += c ? c[0].length : 3; }
      const known = nodes.get(id);
      if (!known) nodes.set(id, { id, label: label ?? subgraphTitles.get(id) ?? id });
      else if (label !== undefined) known.label = label;
      return id;
    }

    function shapeLabel(id: string, [open, closers]: [string, string[]]): string {
      pos += open.length;
      let text: string;
      if (stmt[pos] === '"') {
        const end = stmt.indexOf('"', pos + 1);
        if (end < 0) throw new MermaidSyntaxError(n, `the label of node ${id} has no closing quote`);
        text = stmt.slice(pos, end + 1);
        pos = end + 1;
        const close = closers.find((c) => stmt.startsWith(c, pos));
        if (!close) throw new MermaidSyntaxError(n, `the label of node ${id} is not closed: expected ${closers.map((c) => JSON.stringify(c)).join(' or ')} after its text`);
        pos += close.length;
      } else {
        const found = closers.map((c) => ({ c, at: stmt.indexOf(c, pos) })).filter((x) => x.at >= 0).sort((a, b) => a.at - b.at)[0];
        if (!found) throw new MermaidSyntaxError(n, `the label of node ${id} is not closed: expected ${closers.map((c) => JSON.stringify(c)).join(' or ')}`);
        text = stmt.slice(pos, found.at);
        pos = found.at + found.c.length;
      }
      const label = labelText(text);
      if (!label) throw new MermaidSyntaxError(n, `node ${id} has an empty label`);
      return label;
    }

    /** Mermaid 11's `id@{ shape: rect, label: "Text" }`. */
    function attributeLabel(id: string): string | undefined {
      const end = stmt.indexOf('}', pos);
      if (end < 0) throw new MermaidSyntaxError(n, `the attributes of node ${id} are not closed with "}"`);
      const body = stmt.slice(pos + 2, end);
      pos = end + 1;
      const m = /(?:^|,)\s*label\s*:\s*("[^"]*"|[^,]*)/.exec(body);
      return m ? labelText(m[1]) : undefined;
    }

    function readLink(): { text: string; label: string; directed: boolean } | undefined {
      const id = LINK_ID.exec(stmt.slice(pos));
      const rest = stmt.slice(pos + (id ? id[0].length : 0));
      for (const re of LINKS) {
        const m = re.exec(rest);
        if (!m) continue;
        pos += (id ? id[0].length : 0) + m[0].length;
        let label = labelText(m[1] ?? '');
        const piped = /^\s*\|([^|]*)\|/.exec(stmt.slice(pos));
        if (piped) { pos += piped[0].length; label = labelText(piped[1]); }
        const head = m[2];
        const directed = /[>ox]$/.test(head) && !m[0].startsWith('<');
        return { text: m[0], label, directed };
      }
      return undefined;
    }
  }
}

/** Splits a line at `;` outside quotes and brackets (Mermaid's statement separator). */
function splitStatements(line: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && '[({'.includes(c)) depth++;
    else if (!quoted && '])}'.includes(c)) depth = Math.max(0, depth - 1);
    else if (!quoted && depth === 0 && c === ';') { out.push(line.slice(start, i)); start = i + 1; }
  }
  out.push(line.slice(start));
  return out.map((s) => s.trim()).filter(Boolean);
}

export interface DiagramSpec { nodes: string[]; edges: ([string, string] | [string, string, string])[]; exact: boolean }

export interface DiagramComparison { ok: boolean; why: string }

const showEdge = (from: string, to: string, label: string | undefined, directed = true) => `${JSON.stringify(from)} ${directed ? '-->' : '---'}${label ? `|${label}|` : ''} ${JSON.stringify(to)}`;

/**
 * Compares a flowchart with the expected nodes (by label) and edges (by their nodes' labels,
 * and their text when the spec gives one). A link without an arrowhead matches either way.
 * `exact` also fails on nodes and edges the spec does not name.
 */
export function compareFlowchart(chart: Flowchart, spec: DiagramSpec): DiagramComparison {
  const labelOf = new Map(chart.nodes.map((nd) => [nd.id, nd.label]));
  const haveNodes = new Set(chart.nodes.map((nd) => labelKey(nd.label)));
  const missingNodes = spec.nodes.filter((l) => !haveNodes.has(labelKey(l)));
  const wantNodes = new Set([...spec.nodes, ...spec.edges.flatMap((e) => [e[0], e[1]])].map(labelKey));
  const extraNodes = spec.exact ? chart.nodes.filter((nd) => !wantNodes.has(labelKey(nd.label))).map((nd) => nd.label) : [];

  const edges = chart.edges.map((e) => ({
    from: labelKey(labelOf.get(e.from) ?? e.from),
    to: labelKey(labelOf.get(e.to) ?? e.to),
    label: labelKey(e.label),
    directed: e.directed,
    raw: e,
  }));
  const used = new Set<number>();
  const missingEdges: string[] = [];
  for (const [from, to, label] of spec.edges) {
    const f = labelKey(from);
    const t = labelKey(to);
    const hit = edges.findIndex((e, i) => !used.has(i)
      && ((e.from === f && e.to === t) || (!e.directed && e.from === t && e.to === f))
      && (label === undefined || e.label === labelKey(label)));
    if (hit < 0) missingEdges.push(showEdge(from, to, label));
    else used.add(hit);
  }
  const extraEdges = spec.exact
    ? edges.filter((_, i) => !used.has(i)).map((e) => showEdge(labelOf.get(e.raw.from) ?? e.raw.from, labelOf.get(e.raw.to) ?? e.raw.to, e.raw.label, e.raw.directed))
    : [];

  const problems = [
    missingNodes.length && `missing nodes: ${missingNodes.map((l) => JSON.stringify(l)).join(', ')}`,
    missingEdges.length && `missing edges: ${missingEdges.join(', ')}`,
    extraNodes.length && `extra nodes: ${extraNodes.map((l) => JSON.stringify(l)).join(', ')}`,
    extraEdges.length && `extra edges: ${extraEdges.join(', ')}`,
  ].filter(Boolean) as string[];
  if (problems.length) return { ok: false, why: problems.join('; ') };
  return { ok: true, why: `${chart.nodes.length} nodes and ${chart.edges.length} edges as expected${spec.exact ? ' (exactly)' : ''}` };
}
