import type { ChangeType } from './vocabulary.ts';

/** A document change as delivered by a live query: the document carries its own id. */
export interface DocumentChange<T> {
  type: ChangeType;
  /** The store's document id, used as the identity when the record has no searchUid or uid. */
  docId: string;
  doc: T;
}

interface Identifiable {
  searchUid?: string | null;
  uid?: string | null;
}

/** The identity of a held record: searchUid when present, else uid, else the document id (spec §3). */
export function recordIdentity(record: Identifiable, docId: string): string {
  return record.searchUid || record.uid || docId;
}

/**
 * Merges realtime changes into a held list without mutating it (spec §3 "Merging realtime
 * changes into a held list"). Added and modified records replace the record with the same
 * identity in place or are appended; removed ones are dropped unless `suppressRemoval` is set
 * (lists that must keep what a viewer has already seen). A record without searchUid and uid
 * gets the document id as its uid.
 */
export function mergeChanges<T extends Identifiable>(
  held: readonly T[],
  changes: readonly DocumentChange<T>[],
  options: { suppressRemoval?: boolean } = {},
): T[] {
  const result = [...held];
  for (const change of changes) {
    const doc: T = change.doc.searchUid || change.doc.uid ? change.doc : { ...change.doc, uid: change.docId };
    const identity = recordIdentity(doc, change.docId);
    const index = result.findIndex((record) => recordIdentity(record, '') === identity);
    if (change.type === 'removed') {
      if (index >= 0 && !options.suppressRemoval) result.splice(index, 1);
    } else if (index >= 0) {
      result[index] = doc;
    } else {
      result.push(doc);
    }
  }
  return result;
}
