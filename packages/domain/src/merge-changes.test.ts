import { describe, expect, it } from 'vitest';
import { type DocumentChange, mergeChanges, recordIdentity } from './merge-changes.ts';

interface Item {
  searchUid?: string | null;
  uid?: string | null;
  name: string;
}

function change(type: DocumentChange<Item>['type'], docId: string, doc: Item): DocumentChange<Item> {
  return { type, docId, doc };
}

describe('recordIdentity', () => {
  it('prefers searchUid over uid and the document id (spec §3 "Merging realtime changes": matched by searchUid when present)', () => {
    expect(recordIdentity({ searchUid: 's1', uid: 'u1' }, 'd1')).toBe('s1');
  });

  it('uses uid when there is no searchUid (spec §3 "otherwise by uid")', () => {
    expect(recordIdentity({ uid: 'u1' }, 'd1')).toBe('u1');
    expect(recordIdentity({ searchUid: null, uid: 'u1' }, 'd1')).toBe('u1');
    expect(recordIdentity({ searchUid: '', uid: 'u1' }, 'd1')).toBe('u1');
  });

  it('uses the document id when there is neither (spec §3 "the document id is used as uid")', () => {
    expect(recordIdentity({}, 'd1')).toBe('d1');
    expect(recordIdentity({ searchUid: null, uid: null }, 'd1')).toBe('d1');
  });
});

describe('mergeChanges', () => {
  it('appends an added record to the held list (spec §3 "Merging realtime changes": added)', () => {
    const held: Item[] = [{ uid: 'a', name: 'A' }];
    const merged = mergeChanges(held, [change('added', 'b', { uid: 'b', name: 'B' })]);
    expect(merged).toEqual([
      { uid: 'a', name: 'A' },
      { uid: 'b', name: 'B' },
    ]);
  });

  it('matches by searchUid over uid: same searchUid, different uid replaces (spec §3 "matched by searchUid when present")', () => {
    const held: Item[] = [{ searchUid: 's1', uid: 'u-old', name: 'old' }];
    const merged = mergeChanges(held, [
      change('modified', 'd9', { searchUid: 's1', uid: 'u-new', name: 'new' }),
    ]);
    expect(merged).toEqual([{ searchUid: 's1', uid: 'u-new', name: 'new' }]);
  });

  it('matches by searchUid over uid: same uid, different searchUid does not replace (spec §3 "matched by searchUid when present")', () => {
    const held: Item[] = [{ searchUid: 's1', uid: 'u1', name: 'first' }];
    const merged = mergeChanges(held, [
      change('modified', 'u1', { searchUid: 's2', uid: 'u1', name: 'second' }),
    ]);
    expect(merged.map((r) => r.name)).toEqual(['first', 'second']);
  });

  it('matches by uid over docId: same uid under a different document id replaces (spec §3 "otherwise by uid")', () => {
    const held: Item[] = [{ uid: 'u1', name: 'old' }];
    const merged = mergeChanges(held, [change('modified', 'some-other-doc', { uid: 'u1', name: 'new' })]);
    expect(merged).toEqual([{ uid: 'u1', name: 'new' }]);
  });

  it('matches by uid over docId: a docId equal to another record\'s uid does not replace it (spec §3 "otherwise by uid")', () => {
    const held: Item[] = [{ uid: 'd1', name: 'held' }];
    const merged = mergeChanges(held, [change('added', 'd1', { uid: 'u2', name: 'incoming' })]);
    expect(merged.map((r) => r.name)).toEqual(['held', 'incoming']);
  });

  it('assigns the document id as uid when a record has neither searchUid nor uid (spec §3 "the document id is used as uid")', () => {
    const merged = mergeChanges<Item>([], [change('added', 'doc-1', { name: 'no ids' })]);
    expect(merged).toEqual([{ uid: 'doc-1', name: 'no ids' }]);
  });

  it('assigns the document id as uid when searchUid and uid are null or empty (spec §3 "If neither exists")', () => {
    const merged = mergeChanges<Item>(
      [],
      [
        change('added', 'doc-1', { searchUid: null, uid: null, name: 'nulls' }),
        change('added', 'doc-2', { searchUid: '', uid: '', name: 'empties' }),
      ],
    );
    expect(merged.map((r) => r.uid)).toEqual(['doc-1', 'doc-2']);
  });

  it('matches later changes to a record that got its uid from the document id (spec §3 "the document id is used as uid")', () => {
    const first = mergeChanges<Item>([], [change('added', 'doc-1', { name: 'v1' })]);
    const second = mergeChanges(first, [change('modified', 'doc-1', { name: 'v2' })]);
    expect(second).toEqual([{ uid: 'doc-1', name: 'v2' }]);
    const third = mergeChanges(second, [change('removed', 'doc-1', { name: 'v2' })]);
    expect(third).toEqual([]);
  });

  it('does not alter the incoming document when assigning the document id as uid (spec §3 "Merging realtime changes")', () => {
    const doc: Item = { name: 'no ids' };
    mergeChanges<Item>([], [change('added', 'doc-1', doc)]);
    expect(doc).toEqual({ name: 'no ids' });
  });

  it('replaces a modified record in place, keeping its position (spec §3 "Merging realtime changes": modified)', () => {
    const held: Item[] = [
      { uid: 'a', name: 'A' },
      { uid: 'b', name: 'B' },
      { uid: 'c', name: 'C' },
    ];
    const merged = mergeChanges(held, [change('modified', 'b', { uid: 'b', name: 'B2' })]);
    expect(merged.map((r) => r.name)).toEqual(['A', 'B2', 'C']);
  });

  it('appends a modified record that is not yet held (spec §3 "Merging realtime changes": modified)', () => {
    const held: Item[] = [{ uid: 'a', name: 'A' }];
    const merged = mergeChanges(held, [change('modified', 'z', { uid: 'z', name: 'Z' })]);
    expect(merged.map((r) => r.uid)).toEqual(['a', 'z']);
  });

  it('drops a removed record (spec §3 "Merging realtime changes": removed)', () => {
    const held: Item[] = [
      { uid: 'a', name: 'A' },
      { uid: 'b', name: 'B' },
      { uid: 'c', name: 'C' },
    ];
    const merged = mergeChanges(held, [change('removed', 'b', { uid: 'b', name: 'B' })]);
    expect(merged.map((r) => r.uid)).toEqual(['a', 'c']);
  });

  it('drops a removed record matched by searchUid (spec §3 "matched by searchUid when present", removed)', () => {
    const held: Item[] = [{ searchUid: 's1', uid: 'u1', name: 'A' }];
    expect(mergeChanges(held, [change('removed', 'd', { searchUid: 's1', name: 'A' })])).toEqual([]);
  });

  it('ignores removal of a record that is not held (spec §3 "Merging realtime changes": removed)', () => {
    const held: Item[] = [{ uid: 'a', name: 'A' }];
    expect(mergeChanges(held, [change('removed', 'x', { uid: 'x', name: 'X' })])).toEqual(held);
  });

  it('keeps a removed record when suppressRemoval is set (spec §3 "Removal can be suppressed by a flag")', () => {
    const held: Item[] = [
      { uid: 'a', name: 'A' },
      { uid: 'b', name: 'B' },
    ];
    const merged = mergeChanges(held, [change('removed', 'b', { uid: 'b', name: 'B' })], {
      suppressRemoval: true,
    });
    expect(merged).toEqual(held);
  });

  it('still applies added and modified changes when suppressRemoval is set (spec §3 "Removal can be suppressed by a flag")', () => {
    const held: Item[] = [{ uid: 'a', name: 'A' }];
    const merged = mergeChanges(
      held,
      [change('modified', 'a', { uid: 'a', name: 'A2' }), change('added', 'b', { uid: 'b', name: 'B' })],
      { suppressRemoval: true },
    );
    expect(merged.map((r) => r.name)).toEqual(['A2', 'B']);
  });

  it('does not mutate the held input list or its records (spec §3 "Merging realtime changes into a held list")', () => {
    const held: Item[] = [
      { uid: 'a', name: 'A' },
      { uid: 'b', name: 'B' },
    ];
    const snapshot = JSON.parse(JSON.stringify(held));
    const merged = mergeChanges(held, [
      change('modified', 'a', { uid: 'a', name: 'A2' }),
      change('removed', 'b', { uid: 'b', name: 'B' }),
      change('added', 'c', { uid: 'c', name: 'C' }),
    ]);
    expect(held).toEqual(snapshot);
    expect(merged).not.toBe(held);
    expect(merged.map((r) => r.name)).toEqual(['A2', 'C']);
  });

  it('returns a new list even when there are no changes (spec §3 "Merging realtime changes into a held list")', () => {
    const held: Item[] = [{ uid: 'a', name: 'A' }];
    const merged = mergeChanges(held, []);
    expect(merged).toEqual(held);
    expect(merged).not.toBe(held);
  });

  it('does not duplicate a record added twice; the second copy replaces the first (spec §3 "Merging realtime changes")', () => {
    const merged = mergeChanges<Item>(
      [],
      [change('added', 'a', { uid: 'a', name: 'first' }), change('added', 'a', { uid: 'a', name: 'second' })],
    );
    expect(merged).toEqual([{ uid: 'a', name: 'second' }]);
  });

  it('does not duplicate a record that is added again when already held (spec §3 "Merging realtime changes")', () => {
    const held: Item[] = [{ uid: 'a', name: 'A' }];
    const merged = mergeChanges(held, [change('added', 'a', { uid: 'a', name: 'A again' })]);
    expect(merged).toEqual([{ uid: 'a', name: 'A again' }]);
  });

  it('does not duplicate a record without ids added twice under the same document id (spec §3 "the document id is used as uid")', () => {
    const merged = mergeChanges<Item>(
      [],
      [change('added', 'd', { name: 'x' }), change('added', 'd', { name: 'y' })],
    );
    expect(merged).toEqual([{ uid: 'd', name: 'y' }]);
  });

  it('applies changes in order: added then removed leaves nothing, removed then added leaves the record (spec §3)', () => {
    const doc: Item = { uid: 'a', name: 'A' };
    expect(mergeChanges<Item>([], [change('added', 'a', doc), change('removed', 'a', doc)])).toEqual([]);
    expect(mergeChanges<Item>([], [change('removed', 'a', doc), change('added', 'a', doc)])).toEqual([doc]);
  });
});
