/**
 * AMF0 (Adobe's Action Message Format 0, the AMF0 specification of 2007), the encoding of RTMP's
 * commands (`connect`, `publish`, `_result`, `onStatus`) and data messages (`@setDataFrame`,
 * `onMetaData`). Every value a publisher may send is read; a value that runs past its message or
 * an unknown type marker throws an `Amf0Error`, never reads beyond the bytes given.
 */

/** An ECMA array (marker 8): an associative array, as `onMetaData` is usually sent. */
export class Amf0EcmaArray {
  constructor(readonly entries: { [key: string]: Amf0Value }) {}
}

export type Amf0Object = { [key: string]: Amf0Value };

export type Amf0Value =
  | number
  | boolean
  | string
  | null
  | undefined
  | Date
  | Amf0Object
  | Amf0EcmaArray
  | Amf0Value[];

export class Amf0Error extends Error {}

const MARKER = {
  number: 0x00,
  boolean: 0x01,
  string: 0x02,
  object: 0x03,
  movieclip: 0x04,
  null: 0x05,
  undefined: 0x06,
  reference: 0x07,
  ecmaArray: 0x08,
  objectEnd: 0x09,
  strictArray: 0x0a,
  date: 0x0b,
  longString: 0x0c,
  unsupported: 0x0d,
  xmlDocument: 0x0f,
  typedObject: 0x10,
} as const;

/** Nesting deeper than this is refused (a hostile message would otherwise exhaust the stack). */
const MAX_DEPTH = 64;

/** The fields of an object or ECMA array; null for any other value. */
export function amf0Fields(value: Amf0Value): Amf0Object | null {
  if (value instanceof Amf0EcmaArray) return value.entries;
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date)) {
    return value;
  }
  return null;
}

/** Reads AMF0 values one after the other from `bytes` (from `offset`). */
export class Amf0Reader {
  constructor(
    private readonly bytes: Buffer,
    public offset = 0,
  ) {}

  get done(): boolean {
    return this.offset >= this.bytes.length;
  }

  private need(count: number, what: string) {
    if (this.offset + count > this.bytes.length) {
      throw new Amf0Error(`AMF0 ${what} runs past the end of its message (${count} bytes at ${this.offset})`);
    }
  }

  private u8(what: string): number {
    this.need(1, what);
    return this.bytes.readUInt8(this.offset++);
  }

  private u16(what: string): number {
    this.need(2, what);
    const value = this.bytes.readUInt16BE(this.offset);
    this.offset += 2;
    return value;
  }

  private u32(what: string): number {
    this.need(4, what);
    const value = this.bytes.readUInt32BE(this.offset);
    this.offset += 4;
    return value;
  }

  private double(what: string): number {
    this.need(8, what);
    const value = this.bytes.readDoubleBE(this.offset);
    this.offset += 8;
    return value;
  }

  private utf8(length: number, what: string): string {
    this.need(length, what);
    const text = this.bytes.toString('utf8', this.offset, this.offset + length);
    this.offset += length;
    return text;
  }

  /** The UTF-8 string with a 16-bit length that names a property, without a marker. */
  private key(): string {
    return this.utf8(this.u16('property name length'), 'property name');
  }

  /** Properties up to the object end (an empty name, then marker 9). */
  private properties(depth: number): Amf0Object {
    const object: Amf0Object = {};
    for (;;) {
      const name = this.key();
      if (name === '') {
        const marker = this.u8('object end');
        if (marker !== MARKER.objectEnd)
          throw new Amf0Error(`AMF0 object: an empty name before marker ${marker}`);
        return object;
      }
      const value = this.value(depth + 1);
      // Own properties only: a name like __proto__ must not reach the prototype.
      Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true });
    }
  }

  /** The next value. */
  read(): Amf0Value {
    return this.value(0);
  }

  private value(depth: number): Amf0Value {
    if (depth > MAX_DEPTH) throw new Amf0Error('AMF0 values nested too deep');
    const marker = this.u8('type marker');
    switch (marker) {
      case MARKER.number:
        return this.double('number');
      case MARKER.boolean:
        return this.u8('boolean') !== 0;
      case MARKER.string:
        return this.utf8(this.u16('string length'), 'string');
      case MARKER.longString:
        return this.utf8(this.u32('long string length'), 'long string');
      case MARKER.xmlDocument:
        return this.utf8(this.u32('XML document length'), 'XML document');
      case MARKER.object:
        return this.properties(depth);
      case MARKER.typedObject:
        this.key();
        return this.properties(depth);
      case MARKER.null:
        return null;
      case MARKER.undefined:
      case MARKER.unsupported:
        return undefined;
      case MARKER.ecmaArray: {
        // The count is a hint only (encoders disagree on it): the end marker ends the array.
        this.u32('ECMA array count');
        return new Amf0EcmaArray(this.properties(depth));
      }
      case MARKER.strictArray: {
        const count = this.u32('strict array count');
        // Each value takes at least its marker: a count beyond the bytes left is a lie.
        this.need(count, 'strict array');
        const values: Amf0Value[] = [];
        for (let index = 0; index < count; index += 1) values.push(this.value(depth + 1));
        return values;
      }
      case MARKER.date: {
        const milliseconds = this.double('date');
        // The time zone (a signed 16-bit count of minutes) is reserved: dates are UTC.
        this.u16('date time zone');
        return new Date(milliseconds);
      }
      case MARKER.objectEnd:
        throw new Amf0Error('AMF0 object end outside an object');
      default:
        throw new Amf0Error(`AMF0 type marker ${marker} is not supported`);
    }
  }
}

/** Every value of `bytes`, in order (a command or data message's body). */
export function decodeAmf0(bytes: Buffer): Amf0Value[] {
  const reader = new Amf0Reader(bytes);
  const values: Amf0Value[] = [];
  while (!reader.done) values.push(reader.read());
  return values;
}

class Amf0Writer {
  private parts: Buffer[] = [];

  private push(bytes: Buffer) {
    this.parts.push(bytes);
  }

  private marker(marker: number) {
    this.push(Buffer.of(marker));
  }

  private key(name: string) {
    const bytes = Buffer.from(name, 'utf8');
    if (bytes.length > 0xffff) throw new Amf0Error('an AMF0 property name longer than 65535 bytes');
    const length = Buffer.alloc(2);
    length.writeUInt16BE(bytes.length);
    this.push(length);
    this.push(bytes);
  }

  private properties(object: Amf0Object) {
    for (const [name, value] of Object.entries(object)) {
      if (name === '') throw new Amf0Error('an AMF0 property needs a name');
      this.key(name);
      this.value(value);
    }
    this.push(Buffer.of(0, 0, MARKER.objectEnd));
  }

  value(value: Amf0Value): void {
    if (typeof value === 'number') {
      const bytes = Buffer.alloc(9);
      bytes.writeUInt8(MARKER.number);
      bytes.writeDoubleBE(value, 1);
      this.push(bytes);
    } else if (typeof value === 'boolean') {
      this.push(Buffer.of(MARKER.boolean, value ? 1 : 0));
    } else if (typeof value === 'string') {
      const bytes = Buffer.from(value, 'utf8');
      if (bytes.length <= 0xffff) {
        const head = Buffer.alloc(3);
        head.writeUInt8(MARKER.string);
        head.writeUInt16BE(bytes.length, 1);
        this.push(head);
      } else {
        const head = Buffer.alloc(5);
        head.writeUInt8(MARKER.longString);
        head.writeUInt32BE(bytes.length, 1);
        this.push(head);
      }
      this.push(bytes);
    } else if (value === null) {
      this.marker(MARKER.null);
    } else if (value === undefined) {
      this.marker(MARKER.undefined);
    } else if (value instanceof Date) {
      const bytes = Buffer.alloc(11);
      bytes.writeUInt8(MARKER.date);
      bytes.writeDoubleBE(value.getTime(), 1);
      this.push(bytes);
    } else if (value instanceof Amf0EcmaArray) {
      const head = Buffer.alloc(5);
      head.writeUInt8(MARKER.ecmaArray);
      head.writeUInt32BE(Object.keys(value.entries).length, 1);
      this.push(head);
      this.properties(value.entries);
    } else if (Array.isArray(value)) {
      const head = Buffer.alloc(5);
      head.writeUInt8(MARKER.strictArray);
      head.writeUInt32BE(value.length, 1);
      this.push(head);
      for (const item of value) this.value(item);
    } else {
      this.marker(MARKER.object);
      this.properties(value);
    }
  }

  bytes(): Buffer {
    return Buffer.concat(this.parts);
  }
}

/**
 * The AMF0 encoding of `values`, one after the other. A string longer than 65535 bytes is a long
 * string; a plain object is an object, an `Amf0EcmaArray` an ECMA array, an array a strict array.
 */
export function encodeAmf0(...values: Amf0Value[]): Buffer {
  const writer = new Amf0Writer();
  for (const value of values) writer.value(value);
  return writer.bytes();
}
