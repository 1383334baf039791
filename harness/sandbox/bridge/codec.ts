// The value codec, a part of the bridge (see inside-realm.ts): how an answer of learner code is
// written into `out` as primitives (a primitive, a flat object or list in slots, a long list of
// numbers in a Float64Array of the bridge's own, the rest as JSON text with tags for what JSON
// cannot carry), how a thrown value is described, and how tagged text is read back. Every value
// is read once: what is checked is what is written. Runs inside the realm from its own text: it
// names nothing outside itself.

export interface Codec {
  /** The slots replies are written into, from out[1] (see REPLY in inside-realm.ts). */
  out: unknown[];
  /** Stands for a field the answer does not have; the judge compares it by identity only. */
  missing: object;
  primitive(value: unknown): boolean;
  /** Writes an answer into `out` and returns its reply code. */
  reply(value: unknown): number;
  /**
   * The fields the judge wrote into out[2 + 2i] (i below `fields`), read from the answer by name,
   * a missing one as `missing`; an answer that is no such object is written as `reply` writes it.
   */
  replyFields(answer: unknown, fields: number): number;
  /** Describes what was thrown in `out`, as text; returns REPLY.threw. */
  threw(error: unknown): number;
  /** A JSON reviver for tagged text: the tags turned back into the values they stand for. */
  untag(key: string, value: unknown): unknown;
}

/** `show` describes a thrown value that is not an Error (see output.ts). */
export function makeCodec(show: (value: unknown) => string): Codec {
  'use strict';
  // TAG, FLAT_MAX, the slots they make, REPLY and LIST_MAX, restated: this function runs from its
  // own text, so it can name nothing outside itself (test/unit/bridge-constants.test.ts holds each
  // to its original).
  const TAG_KEY = '\u0000kata';
  const SLOTS = 2 + 2 * 24;
  const FLAT = 24;
  const CODE = {
    primitive: 0,
    flatObject: 1,
    flatArray: 2,
    json: 3,
    threw: 4,
    flatObjectLacking: 6,
    numberList: 7,
    plainJson: 8,
  };
  const LIST_LIMIT = 10_000_000;
  const ObjectProto = Object.prototype;
  const getProto = Object.getPrototypeOf;
  const hasOwn = Object.hasOwn;
  const isArray = Array.isArray;
  const stringify = JSON.stringify;
  const isIs = Object.is;
  const BaseError = Error;
  const toText = String;
  const toNumber = Number;
  const freeze = Object.freeze;
  const isFiniteNumber = Number.isFinite;

  const out: unknown[] = [];
  const MISSING = freeze({});
  for (let i = 0; i < SLOTS; i++) out.push(0);

  const tagged = (_key: string, value: unknown): unknown => {
    if (typeof value === 'number') {
      if (value !== value) return { [TAG_KEY]: 'NaN' };
      if (value === Infinity) return { [TAG_KEY]: 'Infinity' };
      if (value === -Infinity) return { [TAG_KEY]: '-Infinity' };
      if (isIs(value, -0)) return { [TAG_KEY]: '-0' };
      return value;
    }
    if (value === undefined) return { [TAG_KEY]: 'undefined' };
    if (typeof value === 'function') return { [TAG_KEY]: '[Function]' };
    if (typeof value === 'bigint' || typeof value === 'symbol') return { [TAG_KEY]: toText(value) };
    return value;
  };
  const untag = (_key: string, value: unknown): unknown => {
    if (typeof value === 'object' && value !== null && TAG_KEY in value) {
      const tag = (value as Record<string, unknown>)[TAG_KEY];
      if (tag === 'undefined') return undefined;
      if (tag === '-0') return -0;
      return toNumber(tag);
    }
    return value;
  };
  const primitive = (value: unknown): boolean =>
    value === null || (typeof value !== 'object' && typeof value !== 'function');

  // A long list (a function problem's answer: 10^5 numbers) is copied item by item, each read once
  // (the length too, and bounded). Numbers alone (finite, no -0) go into a Float64Array of the
  // bridge's own, which the judge copies by index; writing into a typed array consults no
  // prototype, so nothing of the learner's runs. At the first item that is not such a number the
  // copy goes on as text, from the numbers read so far: a string as JSON writes it, anything else
  // as tagged JSON. A list of numbers and strings alone is plain JSON, parsed without a reviver.
  const NOT_A_LIST = -1;
  const Float64 = Float64Array;
  const listReply = (value: unknown[]): number => {
    const length: unknown = value.length;
    if (typeof length !== 'number' || !(length >= 0 && length <= LIST_LIMIT) || length % 1 !== 0) {
      return NOT_A_LIST;
    }
    const numbers = new Float64(length);
    for (let i = 0; i < length; i++) {
      const item = value[i];
      if (typeof item === 'number' && isFiniteNumber(item) && (item !== 0 || !isIs(item, -0))) {
        numbers[i] = item;
      } else {
        return listText(value, length, numbers, i, item);
      }
    }
    out[1] = length;
    out[2] = numbers;
    return CODE.numberList;
  };
  /** The rest of listReply as text: `numbers` holds items 0 to from - 1, `first` is item `from`. */
  const listText = (
    value: unknown[],
    length: number,
    numbers: Float64Array,
    from: number,
    first: unknown,
  ): number => {
    let text = '[';
    for (let i = 0; i < from; i++) text += (i > 0 ? ',' : '') + toText(numbers[i]);
    let plainItems = true;
    for (let i = from; i < length; i++) {
      const item = i === from ? first : value[i];
      if (i > 0) text += ',';
      if (typeof item === 'number' && isFiniteNumber(item) && (item !== 0 || !isIs(item, -0))) {
        text += toText(item);
      } else if (typeof item === 'string') {
        text += stringify(item);
      } else {
        plainItems = false;
        const piece = stringify(item, tagged) as string | undefined;
        text += piece === undefined ? stringify({ [TAG_KEY]: '[unreadable value]' }) : piece;
      }
    }
    if (plainItems) {
      out[1] = text + ']';
      return CODE.plainJson;
    }
    // As any answer that is not plain data: too long to show is shown as such.
    out[1] =
      text.length > 1_000_000 ? stringify({ [TAG_KEY]: '[value too large to show]' }) : text + ']';
    return CODE.json;
  };

  /** Writes an answer into `out` and returns its reply code. */
  const reply = (value: unknown): number => {
    if (primitive(value)) {
      out[1] = value;
      return CODE.primitive;
    }
    if (typeof value === 'object') {
      if (isArray(value)) {
        // Each element, and the length, read once: what is checked is what is written. A getter or
        // a proxy may answer differently to a second read (a primitive to the check, an object to
        // the copy), and the judge prints what it copied.
        const length: unknown = (value as unknown[]).length;
        if (typeof length === 'number' && length >= 0 && length <= FLAT && length % 1 === 0) {
          let flat = true;
          for (let i = 0; i < length; i++) {
            const item = (value as unknown[])[i];
            if (!primitive(item)) {
              flat = false;
              break;
            }
            out[2 + i] = item;
          }
          if (flat) {
            out[1] = length;
            return CODE.flatArray;
          }
        } else {
          try {
            const code = listReply(value as unknown[]);
            if (code !== NOT_A_LIST) return code;
          } catch {
            out[1] = stringify({ [TAG_KEY]: '[unreadable value]' });
            return CODE.json;
          }
        }
      } else if (getProto(value) === ObjectProto) {
        // for-in with an own check allocates nothing, unlike Object.keys: this runs on every call.
        let n = 0;
        let flat = true;
        for (const key in value as object) {
          if (!hasOwn(value as object, key)) continue;
          const v = (value as Record<string, unknown>)[key];
          if (n === FLAT || !primitive(v)) {
            flat = false;
            break;
          }
          out[2 + 2 * n] = key;
          out[3 + 2 * n] = v;
          n++;
        }
        if (flat) {
          out[1] = n;
          return CODE.flatObject;
        }
      }
    }
    let text: string | undefined;
    try {
      text = stringify(value, tagged);
    } catch {
      text = undefined;
    }
    out[1] =
      text === undefined
        ? stringify({ [TAG_KEY]: '[unreadable value]' })
        : text.length > 1_000_000
          ? stringify({ [TAG_KEY]: '[value too large to show]' })
          : text;
    return CODE.json;
  };
  /** The fields the judge asked for, read by name: no walk over the answer's keys. */
  const replyFields = (answer: unknown, fields: number): number => {
    if (typeof answer !== 'object' || answer === null || isArray(answer)) return reply(answer);
    let lacking = false;
    for (let i = 0; i < fields; i++) {
      const key = out[2 + 2 * i] as string;
      const v = (answer as Record<string, unknown>)[key];
      if (v === undefined && !hasOwn(answer, key)) {
        out[3 + 2 * i] = MISSING;
        lacking = true;
      } else if (primitive(v)) {
        out[3 + 2 * i] = v;
      } else {
        return reply(answer);
      }
    }
    out[1] = fields;
    return lacking ? CODE.flatObjectLacking : CODE.flatObject;
  };
  const threw = (error: unknown): number => {
    let isError = false;
    let name = '';
    let message = '';
    let stack = '';
    try {
      isError = error instanceof BaseError;
      if (isError) {
        const e = error as { name?: unknown; message?: unknown; stack?: unknown };
        name = toText(e.name);
        message = toText(e.message);
        // Read once: a getter could answer text to the check and an object to the copy.
        const told = e.stack;
        stack = typeof told === 'string' ? told : '';
      } else {
        message = show(error);
      }
    } catch {
      message = message || '[an exception that cannot be described]';
    }
    out[1] = name;
    out[2] = message;
    out[3] = stack;
    out[4] = isError;
    return CODE.threw;
  };
  return { out, missing: MISSING, primitive, reply, replyFields, threw, untag };
}
