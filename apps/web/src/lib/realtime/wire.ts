// The realtime protocol's plain values, from the zod-free module of the protocol package.
export {
  CLOSE_CODES,
  REALTIME_PATH,
  REALTIME_PROTOCOL_VERSION,
  RECONNECT_DELAYS_MS,
  subscriptionKey,
} from '@vitrine/protocol';
