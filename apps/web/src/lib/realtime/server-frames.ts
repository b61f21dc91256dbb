import type { ServerFrame } from '@vitrine/protocol';
import { CHANGE_TYPES } from '@vitrine/protocol/vocabulary';

// Server frames checked by hand: zod stays out of the web bundle.

/** Whether a value is a plain object (a document's fields). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isSeq = (value: unknown) => typeof value === 'number' && Number.isInteger(value) && value >= 0;
const isLiveDocument = (value: unknown) => isRecord(value) && typeof value.docId === 'string';
const isChange = (value: unknown) =>
  isLiveDocument(value) && (CHANGE_TYPES as readonly unknown[]).includes((value as { type: unknown }).type);

/** The frame when it has the shape the client relies on (type, id, seq, lists), else null. */
export function asServerFrame(value: unknown): ServerFrame | null {
  if (!isRecord(value)) return null;
  const ok = (() => {
    switch (value.type) {
      case 'snapshot':
        return (
          typeof value.id === 'string' &&
          isSeq(value.seq) &&
          Array.isArray(value.docs) &&
          value.docs.every(isLiveDocument)
        );
      case 'changes':
        return (
          typeof value.id === 'string' &&
          isSeq(value.seq) &&
          Array.isArray(value.changes) &&
          value.changes.every(isChange)
        );
      case 'error':
        return (
          typeof value.id === 'string' && typeof value.code === 'string' && typeof value.message === 'string'
        );
      case 'auth_result':
        return value.userUid === null || typeof value.userUid === 'string';
      case 'pong':
        return true;
      default:
        return false;
    }
  })();
  return ok ? (value as ServerFrame) : null;
}
