// runtime.* methods: what the host does inside the environment (commands, files, archives)
// through the bridge, so that a host that reaches only the bridge's URL (another node of a
// cluster) needs no Docker API. The same operations as host/deployment/runtime.ts.
// Archives move in chunks through a transfer (a file the bridge stages in its own run folder),
// so no message exceeds the protocol's size limit whatever the archive's size.
import { z } from 'zod';
import { method } from './common';

/** Largest chunk of a transfer, and of a file read or written in one call (before base64). */
export const RUNTIME_CHUNK_BYTES = 4 * 1024 * 1024;
/** Largest output kept of each of stdout and stderr. */
export const RUNTIME_MAX_OUTPUT_BYTES = 3 * 1024 * 1024;

const AbsolutePath = z.string().min(1).max(4096)
  .refine((p) => p.startsWith('/'), 'must be an absolute path')
  .refine((p) => !p.includes('\0'), 'must not contain NUL')
  .refine((p) => !p.split('/').includes('..'), 'must not contain ".."');
/** A user name of the container's /etc/passwd, or a numeric uid (then its passwd entry's group, or gid = uid). */
const UserSpec = z.string().regex(/^([a-z_][a-z0-9_-]{0,31}|\d{1,10})$/, 'a user name or a numeric uid');
const Base64 = z.base64().max(Math.ceil(RUNTIME_CHUNK_BYTES / 3) * 4);
const TransferId = z.string().regex(/^t[0-9a-f]{16}$/, 'a transfer id from runtime.archiveOut or runtime.transferOpen');
export const RuntimeOwner = z.object({ uid: z.int().min(0).max(2 ** 31), gid: z.int().min(0).max(2 ** 31) }).strict();

export const RuntimeExecResult = z.object({
  exitCode: z.int(),
  /** The signal that ended it, when one did (exitCode is then 128 + its number). */
  signal: z.string().nullable(),
  stdout: z.string(),
  stderr: z.string(),
  /** More output came than maxOutputBytes; the rest was dropped. */
  stdoutTruncated: z.boolean(),
  stderrTruncated: z.boolean(),
  /** Ended by timeoutSec (exit code 124). */
  timedOut: z.boolean(),
  durationMs: z.number(),
});

export const runtimeMethods = {
  'runtime.exec': method(
    'Run argv (never through a shell) inside the environment and wait for it: as `user` (the IDE user unless ' +
      'given), in `cwd` (/workspace unless given), with `env` added to the container\'s, stdin from base64, ' +
      'killed after timeoutSec (exit code 124). Each of stdout and stderr keeps at most maxOutputBytes. With ' +
      'detach it is started in the background and the call returns at once.',
    z.object({
      argv: z.array(z.string().max(128 * 1024).refine((a) => !a.includes('\0'), 'must not contain NUL')).min(1).max(4096),
      user: UserSpec.optional(),
      cwd: AbsolutePath.optional(),
      env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name'), z.string().max(128 * 1024)).optional(),
      stdin: Base64.optional(),
      timeoutSec: z.int().min(1).max(86_400).optional(),
      maxOutputBytes: z.int().min(0).max(RUNTIME_MAX_OUTPUT_BYTES).default(1024 * 1024),
      detach: z.boolean().default(false),
    }).strict(),
    RuntimeExecResult,
  ),
  'runtime.readFile': method(
    `One regular file's content (base64; at most ${RUNTIME_CHUNK_BYTES} bytes, larger ones through runtime.archiveOut), ` +
      'or exists: false when there is no regular file at the path.',
    z.object({ path: AbsolutePath }).strict(),
    z.object({ exists: z.boolean(), size: z.int(), content: z.string().nullable() }),
  ),
  'runtime.archiveOut': method(
    'Stage a tar archive of `path` (entries prefixed with its base name, owners and modes kept), made as the ' +
      'owner of `path`; read it with runtime.transferRead, drop it with runtime.transferClose. exists: false when ' +
      'nothing is at the path.',
    z.object({ path: AbsolutePath }).strict(),
    z.object({ exists: z.boolean(), transfer: TransferId.nullable(), bytes: z.int() }),
  ),
  'runtime.transferOpen': method(
    'Open an empty transfer to upload an archive into with runtime.transferWrite, for runtime.archiveIn.',
    z.object({}).strict(),
    z.object({ transfer: TransferId }),
  ),
  'runtime.transferRead': method(
    `Read up to \`length\` bytes (at most ${RUNTIME_CHUNK_BYTES}) of a transfer from \`offset\`, base64; eof when the end was reached.`,
    z.object({ transfer: TransferId, offset: z.int().min(0), length: z.int().min(1).max(RUNTIME_CHUNK_BYTES).default(RUNTIME_CHUNK_BYTES) }).strict(),
    z.object({ data: z.string(), eof: z.boolean() }),
  ),
  'runtime.transferWrite': method(
    'Append a base64 chunk to an open transfer at `offset`, which must be its current size (chunks in order).',
    z.object({ transfer: TransferId, offset: z.int().min(0), data: Base64 }).strict(),
    z.object({ bytes: z.int() }),
  ),
  'runtime.transferClose': method(
    'Drop a transfer and its staged file (a transfer is also dropped after 10 minutes unused).',
    z.object({ transfer: TransferId }).strict(),
    z.object({ ok: z.literal(true) }),
  ),
  'runtime.archiveIn': method(
    'Unpack an uploaded transfer (a tar archive) into the existing folder `dir`, as `owner` (the files become ' +
      'theirs; the owner must be able to write there), keeping the entries\' modes; the transfer is dropped.',
    z.object({ transfer: TransferId, dir: AbsolutePath, owner: RuntimeOwner }).strict(),
    z.object({ ok: z.literal(true) }),
  ),
};
