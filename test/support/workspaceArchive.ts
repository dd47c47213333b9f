// Archives of /workspace as the container engine gives them, with links and folders where a
// test needs them: what grading reads (test/unit/host/evaluation/archiveSandbox.test.ts,
// test/integration/hostGrading.test.ts).
import { bufferOf, packEntries, type Header } from '../../host/deployment/tarArchive';

const owner = { uid: 1000, gid: 1000 };

/** A workspace by path: text a file, `null` a folder, `{ link }` a symlink, `{ hard }` a hard link to another path of it. */
export type WorkspaceSpec = Record<string, string | { link: string } | { hard: string } | null>;

export function workspaceArchive(spec: WorkspaceSpec): Promise<Buffer> {
  return bufferOf(packEntries([
    { header: { name: 'workspace/', type: 'directory', mode: 0o755, ...owner } as Header, content: Buffer.alloc(0) },
    ...Object.entries(spec).map(([p, v]) => {
      const name = `workspace/${p}`;
      if (v === null) return { header: { name: `${name}/`, type: 'directory', mode: 0o755, ...owner } as Header, content: Buffer.alloc(0) };
      if (typeof v === 'object' && 'link' in v) return { header: { name, type: 'symlink', linkname: v.link, mode: 0o777, ...owner } as Header, content: Buffer.alloc(0) };
      if (typeof v === 'object') return { header: { name, type: 'link', linkname: `workspace/${v.hard}`, mode: 0o644, ...owner } as Header, content: Buffer.alloc(0) };
      return { header: { name, type: 'file', mode: 0o644, ...owner } as Header, content: Buffer.from(v) };
    }),
  ]));
}
