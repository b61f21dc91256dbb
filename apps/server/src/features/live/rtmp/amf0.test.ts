import { describe, expect, it } from 'vitest';
import { Amf0EcmaArray, Amf0Error, type Amf0Value, amf0Fields, decodeAmf0, encodeAmf0 } from './amf0.ts';

const roundTrip = (...values: Amf0Value[]) => decodeAmf0(encodeAmf0(...values));

describe('AMF0', () => {
  it('encodes each type as the specification lays it out', () => {
    expect(encodeAmf0(1.5)).toEqual(Buffer.from('003ff8000000000000', 'hex'));
    expect(encodeAmf0(true, false)).toEqual(Buffer.from('01010100', 'hex'));
    expect(encodeAmf0('ab')).toEqual(Buffer.from('0200026162', 'hex'));
    expect(encodeAmf0(null, undefined)).toEqual(Buffer.from('0506', 'hex'));
    expect(encodeAmf0({ a: 1 })).toEqual(Buffer.from('03000161003ff0000000000000000009', 'hex'));
    expect(encodeAmf0(new Amf0EcmaArray({ a: true }))).toEqual(
      Buffer.from('080000000100016101010000' + '09', 'hex'),
    );
    expect(encodeAmf0([1, 'x'])).toEqual(Buffer.from('0a00000002003ff0000000000000020001' + '78', 'hex'));
    expect(encodeAmf0(new Date(0))).toEqual(Buffer.from('0b00000000000000000000', 'hex'));
  });

  it('round-trips numbers, booleans, strings, null, undefined, dates and nested containers', () => {
    const values: Amf0Value[] = [
      0,
      -1.25,
      Number.MAX_SAFE_INTEGER,
      true,
      false,
      '',
      'héllo ✓',
      null,
      undefined,
      new Date(Date.UTC(2026, 10, 29, 6, 0, 0, 123)),
      { level: 'status', code: 'NetStream.Publish.Start', nested: { deep: [1, 2, { x: null }] } },
      new Amf0EcmaArray({ width: 1280, height: 720, framerate: 30, encoder: 'obs' }),
      [],
      ['a', 2, false, undefined],
    ];
    expect(roundTrip(...values)).toEqual(values);
  });

  it('writes a string over 65535 bytes as a long string, and reads it back', () => {
    const long = 'x'.repeat(70_000);
    const bytes = encodeAmf0(long);
    expect(bytes[0]).toBe(0x0c);
    expect(bytes.readUInt32BE(1)).toBe(70_000);
    expect(decodeAmf0(bytes)).toEqual([long]);
  });

  it('reads a typed object and an XML document, and a date with a time zone', () => {
    const typed = Buffer.concat([
      Buffer.from(`100003${Buffer.from('Foo').toString('hex')}`, 'hex'),
      Buffer.from('0001' + '61' + '0101' + '000009', 'hex'),
    ]);
    expect(decodeAmf0(typed)).toEqual([{ a: true }]);
    expect(decodeAmf0(Buffer.from('0f00000002' + '3c61', 'hex'))).toEqual(['<a']);
    expect(decodeAmf0(Buffer.from('0b' + '0000000000000000' + 'ff88', 'hex'))).toEqual([new Date(0)]);
  });

  it('keeps an ECMA array apart from an object, and gives the fields of either', () => {
    const [ecma, object] = roundTrip(new Amf0EcmaArray({ a: 1 }), { a: 1 });
    expect(ecma).toBeInstanceOf(Amf0EcmaArray);
    expect(amf0Fields(ecma!)).toEqual({ a: 1 });
    expect(amf0Fields(object!)).toEqual({ a: 1 });
    expect(amf0Fields('a')).toBeNull();
    expect(amf0Fields([1])).toBeNull();
  });

  it('reads an ECMA array whose count is wrong (the end marker ends it)', () => {
    const bytes = Buffer.from('08' + '00000000' + '0001' + '61' + '0101' + '000009', 'hex');
    expect(amf0Fields(decodeAmf0(bytes)[0]!)).toEqual({ a: true });
  });

  it('keeps a property named __proto__ as a property', () => {
    const [value] = decodeAmf0(encodeAmf0({ ['__proto__']: 1 } as never));
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    const evil = Buffer.concat([
      Buffer.of(0x03),
      Buffer.from('0009', 'hex'),
      Buffer.from('__proto__'),
      encodeAmf0({ polluted: true }),
      Buffer.from('000009', 'hex'),
    ]);
    const [decoded] = decodeAmf0(evil);
    expect(Object.keys(decoded as object)).toEqual(['__proto__']);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('throws for every value cut short, never reading past the message', () => {
    const whole = encodeAmf0(
      'connect',
      1,
      {
        app: 'live',
        flashVer: 'FMLE/3.0',
        list: [1, 'two', new Date(5)],
        ecma: new Amf0EcmaArray({ x: null }),
      },
      true,
      'x'.repeat(70_000).slice(0, 300),
    );
    for (let length = 1; length < whole.length; length += 1) {
      const cut = whole.subarray(0, length);
      let result: unknown;
      try {
        result = decodeAmf0(cut);
      } catch (error) {
        expect(error).toBeInstanceOf(Amf0Error);
        continue;
      }
      // Only a cut between whole values decodes.
      expect(Array.isArray(result)).toBe(true);
      const reencoded = encodeAmf0(...(result as Amf0Value[]));
      expect(reencoded.equals(cut)).toBe(true);
    }
  });

  it('refuses lengths that run past the message', () => {
    // A string of 100 bytes with 3 there; a long string of 2^32 - 1; a strict array of a million.
    expect(() => decodeAmf0(Buffer.from('020064616263', 'hex'))).toThrow(Amf0Error);
    expect(() => decodeAmf0(Buffer.from('0cffffffff61', 'hex'))).toThrow(Amf0Error);
    expect(() => decodeAmf0(Buffer.from('0a000f4240' + '05', 'hex'))).toThrow(/runs past/);
    // An object without its end marker.
    expect(() => decodeAmf0(Buffer.from('0300016101', 'hex'))).toThrow(Amf0Error);
  });

  it('refuses markers it does not know, an object end alone, a reference and deep nesting', () => {
    expect(() => decodeAmf0(Buffer.of(0x11))).toThrow(/not supported/);
    expect(() => decodeAmf0(Buffer.of(0x07, 0, 0))).toThrow(/not supported/);
    expect(() => decodeAmf0(Buffer.of(0x09))).toThrow(Amf0Error);
    expect(() => decodeAmf0(Buffer.of(0x03, 0, 0, 0x05))).toThrow(/empty name/);
    // Strict arrays of one strict array of one…, 200 deep.
    const deep = Buffer.concat(Array.from({ length: 200 }, () => Buffer.from('0a00000001', 'hex')));
    expect(() => decodeAmf0(deep)).toThrow(/nested too deep/);
  });
});
