// A few DOM helpers for the inspector page (no framework).

type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

/** h('div.cls#id', {title: 'x', onclick: fn}, child, …) */
export function h<K extends keyof HTMLElementTagNameMap>(
  spec: K | `${K}.${string}` | `${K}#${string}`, attrs: Attrs = {}, ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const [tagAndId, ...classes] = spec.split('.');
  const [tag, id] = tagAndId.split('#');
  const el = document.createElement(tag as K);
  if (id) el.id = id;
  if (classes.length) el.className = classes.join(' ');
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v as EventListener);
    else if (k === 'class') el.className += ` ${v}`;
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(typeof c === 'number' ? String(c) : c);
  return el;
}

export function clear(el: Element, ...children: (Child | Child[])[]): void {
  const present = children.flat().filter((c): c is Node | string | number => c !== null && c !== undefined && c !== false);
  el.replaceChildren(...present.map((c) => (typeof c === 'number' ? String(c) : c)));
}

export function time(t: number): string {
  const d = new Date(t);
  return d.toLocaleTimeString([], { hour12: false }) + '.' + String(d.getMilliseconds()).padStart(3, '0');
}

export function json(v: unknown): string {
  return v === undefined ? 'undefined' : JSON.stringify(v, null, 2);
}

export async function getJson<T>(url: string): Promise<T> {
  const r = await fetch(url, { cache: 'no-store' });
  if (!r.ok) throw new Error(`${r.status}: ${(await r.text()).trim()}`);
  return (await r.json()) as T;
}
