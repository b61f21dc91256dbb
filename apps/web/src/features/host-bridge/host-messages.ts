import { HostToPlayerMessage, PlayerToHostMessage } from '@vitrine/protocol';
import { HOST_MESSAGE_MAX_BYTES, HOST_PROTOCOL_VERSION } from '@vitrine/protocol/vocabulary';

/**
 * Acceptance of messages from the host page and encoding of messages to it (spec §7, the
 * envelope of packages/protocol/src/host.ts). Pure, so the checks are unit-tested; host-bridge.ts
 * wires them to window messages. This module pulls in zod: it only loads when embedded.
 */

/** The host page is untrusted: why a message was not taken. */
export type HostMessageRejection = 'origin' | 'source' | 'size' | 'json' | 'schema' | 'playerId';

/** The parts of a MessageEvent the checks read. */
export interface IncomingMessage {
  origin: string;
  source: unknown;
  data: unknown;
}

/** Who the player expects to hear from: the host origin of the embed URL, the parent window, its player id. */
export interface HostPeer {
  hostOrigin: string;
  parent: unknown;
  playerId: string;
}

export type HostMessageVerdict =
  | { ok: true; message: HostToPlayerMessage }
  | { ok: false; reason: HostMessageRejection };

/** UTF-8 bytes of a string as JSON writes it, quotes included (escapes counted as their character). */
function jsonStringBytes(text: string): number {
  let bytes = 2;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    bytes += code < 0x80 ? 1 : code < 0x800 || (code >= 0xd800 && code <= 0xdfff) ? 2 : 3;
  }
  return bytes;
}

/**
 * The size of a value as JSON in bytes, counted without building the JSON, and given up on as
 * soon as it passes `cap` (then cap + 1 is returned); values JSON cannot hold (functions,
 * cycles, Maps, binary data, …) count as too big, so they are dropped unread like oversized ones.
 */
export function boundedJsonSize(value: unknown, cap: number): number {
  const tooBig = cap + 1;
  let total = 0;
  const seen = new Set<object>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || item === true) total += 4;
    else if (item === false) total += 5;
    else if (typeof item === 'number') total += Number.isFinite(item) ? String(item).length : 4;
    else if (typeof item === 'string') total += jsonStringBytes(item);
    else if (Array.isArray(item)) {
      if (seen.has(item)) return tooBig;
      seen.add(item);
      total += 1 + item.length;
      for (const child of item) stack.push(child);
    } else if (typeof item === 'object' && Object.getPrototypeOf(item) === Object.prototype) {
      if (seen.has(item)) return tooBig;
      seen.add(item);
      const entries = Object.entries(item);
      total += 1 + entries.length;
      for (const [key, child] of entries) {
        total += jsonStringBytes(key) + 1;
        stack.push(child);
      }
    } else if (item !== undefined) {
      return tooBig;
    }
    if (total > cap) return tooBig;
  }
  return total;
}

/**
 * Decides whether to take a window message as a message from the host page. The sender's origin
 * and window are checked first, before the data is looked at; then its size (strings are JSON
 * text of at most HOST_MESSAGE_MAX_BYTES), its shape (HostToPlayerMessage) and its player id.
 */
export function acceptHostMessage(event: IncomingMessage, peer: HostPeer): HostMessageVerdict {
  if (event.origin !== peer.hostOrigin) return { ok: false, reason: 'origin' };
  if (event.source === null || event.source !== peer.parent) return { ok: false, reason: 'source' };
  let data = event.data;
  if (typeof data === 'string') {
    if (data.length > HOST_MESSAGE_MAX_BYTES) return { ok: false, reason: 'size' };
    try {
      data = JSON.parse(data);
    } catch {
      return { ok: false, reason: 'json' };
    }
  } else if (boundedJsonSize(data, HOST_MESSAGE_MAX_BYTES) > HOST_MESSAGE_MAX_BYTES) {
    return { ok: false, reason: 'size' };
  }
  const parsed = HostToPlayerMessage.safeParse(data);
  if (!parsed.success) return { ok: false, reason: 'schema' };
  if (parsed.data.playerId !== peer.playerId) return { ok: false, reason: 'playerId' };
  return { ok: true, message: parsed.data };
}

export type PlayerToHostType = PlayerToHostMessage['type'];

/** The payload of a message to the host, as the sender writes it (empty payloads may be `{}`). */
export type PlayerToHostPayload<T extends PlayerToHostType> = Extract<
  PlayerToHostMessage,
  { type: T }
>['payload'];

/**
 * The envelope of a message to the host, checked against PlayerToHostMessage and the size limit
 * so the player never posts something the host's parser would drop; null when it fails.
 */
export function encodePlayerMessage<T extends PlayerToHostType>(
  playerId: string,
  type: T,
  payload: PlayerToHostPayload<T>,
): PlayerToHostMessage | null {
  const parsed = PlayerToHostMessage.safeParse({ vitrine: HOST_PROTOCOL_VERSION, playerId, type, payload });
  if (!parsed.success) return null;
  if (boundedJsonSize(parsed.data, HOST_MESSAGE_MAX_BYTES) > HOST_MESSAGE_MAX_BYTES) return null;
  return parsed.data;
}
