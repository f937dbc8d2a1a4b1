import type { HostMessage, HostToWebviewMessage, MessageHandlers } from '../src/shared/panelProtocol';

/**
 * Hands `data`, a message posted by the host, to its handler in `handlers`. Returns
 * `undefined` when it was handled, else what arrived, in words ("a "x" message"): only a
 * host of another build posts a type this page does not know, and the page says so.
 */
export function dispatchHostMessage(handlers: MessageHandlers<HostToWebviewMessage>, data: unknown): string | undefined {
  const type = typeof data === 'object' && data !== null ? (data as { type?: unknown }).type : undefined;
  if (typeof type !== 'string') return 'a message without a type';
  if (!Object.hasOwn(handlers, type)) return `a "${type.slice(0, 40)}" message`;
  const handler = handlers[type as HostMessage['type']] as (message: HostMessage) => void;
  handler(data as HostMessage);
  return undefined;
}
