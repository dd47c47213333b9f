// The wire protocol: every method's params and result, defined once and imported by the
// host client, the bridge and the extension. JSON-RPC 2.0 over a WebSocket.
import type { z } from 'zod';
import { captureMethods } from './capture';
import { controlMethods } from './control';
import { domMethods } from './dom';
import { ideMethods } from './ide';
import { inputMethods } from './input';
import { procMethods } from './proc';
import { runtimeMethods } from './runtime';
import { toolsMethods } from './tools';

export const methods = {
  ...inputMethods,
  ...captureMethods,
  ...procMethods,
  ...domMethods,
  ...ideMethods,
  ...toolsMethods,
  ...controlMethods,
  ...runtimeMethods,
};
export type Methods = typeof methods;
export type MethodName = keyof Methods;
/** What a caller passes (defaults optional). */
export type ParamsIn<M extends MethodName> = z.input<Methods[M]['params']>;
/** What a handler receives (defaults filled in). */
export type Params<M extends MethodName> = z.output<Methods[M]['params']>;
export type Result<M extends MethodName> = z.output<Methods[M]['result']>;

export function isMethodName(name: string): name is MethodName {
  return Object.prototype.hasOwnProperty.call(methods, name);
}

export * from './errors';
export * from './common';
export * from './extensionLink';
export { Health } from './proc';
export { RUNTIME_CHUNK_BYTES, RUNTIME_MAX_OUTPUT_BYTES } from './runtime';
export type { Image } from './capture';
export type { DomNode, Mark } from './dom';
export { ControlStatus, HumanEvent } from './control';
export { ToolEffects, ToolGroup, type ToolContent, type ToolInfo, type ToolLogEntry } from './tools';
