// The link between the IDE's extension and the bridge, both sides of it: the extension host
// dials the bridge on the container's loopback with its own token and the time it activated,
// then answers the ide.* calls the bridge forwards (JSON-RPC 2.0, the extension serving).
// The bridge closes a connection with one of these codes when it will not keep it.

export const EXTENSION_LINK_CLOSE = {
  /** The token did not match. */
  WRONG_TOKEN: 4001,
  /** A newer extension host took over: do not reconnect. */
  SUPERSEDED: 4002,
  /** The right token from a process that is not the IDE's extension host. */
  NOT_THE_EXTENSION_HOST: 4003,
  /** The extension host of another browser window than the kiosk's (a person opened the IDE URL): do not reconnect. */
  OTHER_WINDOW: 4004,
} as const;

/** The largest message either side accepts on the link. */
export const EXTENSION_LINK_MAX_PAYLOAD = 64 * 1024 * 1024;

export interface ExtensionLinkHello {
  token: string | undefined;
  /** When the extension host activated (ms since the epoch): the newest one wins. */
  activated: number;
}

/** The URL an extension host dials: the hello travels in the query. */
export function extensionLinkUrl(port: number | string, hello: { token: string; activated: number }): string {
  return `ws://127.0.0.1:${port}/?token=${encodeURIComponent(hello.token)}&activated=${hello.activated}`;
}

/** The hello of a connection, from its request URL. */
export function parseExtensionLinkHello(requestUrl: string | undefined): ExtensionLinkHello {
  const url = new URL(requestUrl ?? '/', 'http://x');
  return { token: url.searchParams.get('token') ?? undefined, activated: Number(url.searchParams.get('activated') ?? 0) };
}

/** How long the bridge waits for the extension to answer an ide.* call, unless the call says more. */
export const EXTENSION_CALL_TIMEOUT_MS = 30_000;
/**
 * Each editor ide.editors.open brings up is a round of opening and showing in the workbench
 * (one more for the focus), which a workbench just started on a busy machine takes seconds
 * over: up to 15 s for a single editor at a load of 10 on 2 cores, seen.
 */
const PER_EDITOR_SHOWN_MS = 20_000;

/**
 * How long the bridge waits for the extension to answer an ide.* call. Both sides read it: the
 * host's client waits a little longer, so that the bridge's TimeoutError is the one it sees.
 */
export function extensionCallTimeoutMs(method: string, params: unknown): number {
  if (method === 'ide.editors.open') {
    const editors = (params as { editors?: unknown } | null)?.editors;
    const n = Array.isArray(editors) ? Math.min(editors.length, 100) : 1;
    return EXTENSION_CALL_TIMEOUT_MS + PER_EDITOR_SHOWN_MS * (n + 1);
  }
  return EXTENSION_CALL_TIMEOUT_MS;
}
