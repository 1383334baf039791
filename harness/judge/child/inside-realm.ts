// The only judge code that runs inside a learner's realm. It is evaluated there from its source text
// (so it must stay self-contained: no imports, no free variables), before the learner's code loads,
// and it captures the built-ins it uses at that moment, so later patches cannot bend it.
//
// Everything that crosses between the judge and learner code passes through here as primitives:
// arguments arrive as primitives or text and are rebuilt in this realm; answers leave through `out`
// (an array of this realm that only this code and the judge ever see) as primitives or text. So no
// object of the judge's realm ever reaches learner code, and the judge never touches a learner
// object: it cannot be handed a getter, a proxy or a `constructor` that leads back.

/** Reply codes written to out[0]. */
export const REPLY = {
  /** out[1] is the value, a primitive. */
  primitive: 0,
  /** out[1] is the number of fields n, then out[2 + 2i] = key and out[3 + 2i] = value. */
  flatObject: 1,
  /** out[1] is the length n, then out[2 + i] = item. */
  flatArray: 2,
  /** out[1] is the value as tagged JSON text (see `TAG`). */
  json: 3,
  /** out[1] is name, out[2] message, out[3] stack, out[4] whether it was an Error. */
  threw: 4,
  /** As flatObject, but some fields the judge asked for are missing (their value is `missing`). */
  flatObjectLacking: 6,
  /**
   * out[1] is the length n of a long list of numbers (finite, no -0), out[2] a Float64Array made
   * by the bridge that holds them (the judge reads it by index only: see realm.ts).
   */
  numberList: 7,
  /** out[1] is the value as plain JSON text, with no tags: a long list of numbers and strings. */
  plainJson: 8,
} as const;

/** The most items a long list may have to cross as a list of numbers or plain JSON. */
export const LIST_MAX = 10_000_000;

/** Fields or items a reply carries in slots; larger answers travel as text. */
export const FLAT_MAX = 24;
export const OUT_SLOTS = 2 + 2 * FLAT_MAX;
/** Marks a value JSON cannot carry: { [TAG]: 'Infinity' | '-Infinity' | 'NaN' | '-0' | 'undefined' | text }. */
export const TAG = '\u0000kata';
/** Learner output kept per drain; the rest is counted, not stored. */
export const OUTPUT_CAP = 16_384;
/**
 * Outbound requests (see `post` in createBridge): how many may wait at once, how many strings one
 * may carry, and how many characters all waiting ones may carry together. The judge checks them again.
 */
export const OUTBOUND_LIMITS = { waiting: 10_000, args: 10_000, chars: 8_000_000 } as const;
/**
 * The channels of the realm's timers (see `setTimeout` in createBridge): '(timer)' carries a delay in
 * ms and is answered by the judge itself when it has passed; '(timer-clear)' carries the id of a
 * '(timer)' request the judge took and the learner cleared, and is never answered. Fixture names
 * cannot begin with '(' (the realm refuses them), so no fixture posts on these.
 */
export const TIMER_CHANNEL = '(timer)';
export const TIMER_CLEAR_CHANNEL = '(timer-clear)';

export interface Bridge {
  out: unknown[];
  /**
   * 0: the class is found; REPLY.threw: loading threw (out as for threw); 5: out[1] says what is
   * exported. With `exportsFunction` it is a function problem's function: `construct` calls it.
   */
  load(
    exportsName: string,
    errorName: string,
    className: string,
    exportsFunction?: boolean,
  ): number;
  addFactory(key: string, factory: unknown): void;
  reset(): void;
  /** With `outbound`, the fixture's function gets its `post` (see takeOutbound) before its args. */
  makeFixture(name: string, key: string, argsJson: string, outbound?: boolean): number;
  hasFixture(name: string): boolean;
  construct(target: number, kinds: string, ...args: unknown[]): number;
  call(target: number, method: string, kinds: string, ...args: unknown[]): number;
  /**
   * The hot path: a call with one or two primitive arguments (or none: pass `count`). With
   * `fields`, the answer should be an object with the keys the judge wrote into out[2 + 2i]: only
   * those fields are read (a missing one as `missing`) and answered as a flat object.
   */
  callPlain(
    target: number,
    method: string,
    count: number,
    a: unknown,
    b: unknown,
    fields?: number,
  ): number;
  /** Stands for a field the answer does not have; the judge compares it by identity only. */
  missing: object;
  fixtureCall(name: string, method: string, kinds: string, ...args: unknown[]): number;
  status(): string;
  dropInstances(): void;
  drainOutput(): string;
  /** How many times code in the realm read the real time since the last call (then zero again). */
  takeClockReads(): number;
  /**
   * Async cases: calls a method (its synchronous part runs now) and returns a ticket. Its answer is
   * awaited here, in the realm; `settled(ticket)` tells when it has settled.
   */
  begin(target: number, method: string, kinds: string, ...args: unknown[]): number;
  /**
   * -1 while the call of this ticket has not settled (or the ticket is unknown: taken already, or
   * dropped by reset); else writes its reply into `out` as `call` does and returns its code, once.
   */
  settled(ticket: number): number;
  /**
   * The requests outbound fixtures posted since the last take, as JSON text built here from strings
   * and integers alone: `[[id, channel, [arg, …]], …]`, or '' when there are none.
   */
  takeOutbound(): string;
  /**
   * Settles request `id` with `text` (a string, so resolving it reads no `then`): false when no
   * request waits under that id (answered already, or dropped by reset).
   */
  answerOutbound(id: number, text: string): boolean;
  /**
   * From now on (until reset) `Date.now()`, `new Date()` and `Date()` read the real time plus `ms`,
   * as on a server whose clock is off. 0 puts it right; anything but a finite number is ignored.
   */
  skewClock(ms: number): void;
}

/**
 * Evaluated inside the realm: returns the bridge. Keep it free of anything outside this function.
 * With `timers`, learner code gets setTimeout and clearTimeout (answered through the outbound queue,
 * see below); without, they throw as they always have.
 */
export function createBridge(global: Record<string, unknown>, timers?: boolean): Bridge {
  'use strict';
  const TAG_KEY = '\u0000kata';
  const SLOTS = 2 + 2 * 24;
  const FLAT = 24;
  const CAP = 16_384;
  const ObjectProto = Object.prototype;
  const getProto = Object.getPrototypeOf;
  const keysOf = Object.keys;
  const hasOwn = Object.hasOwn;
  const isArray = Array.isArray;
  const apply = Reflect.apply;
  const construct = Reflect.construct;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const isIs = Object.is;
  const BaseError = Error;
  const BaseTypeError = TypeError;
  const toText = String;
  const freeze = Object.freeze;
  const defineProperty = Object.defineProperty;
  const create = Object.create;
  const RealmPromise = Promise;
  const BaseRangeError = RangeError;
  const isFiniteNumber = Number.isFinite;

  // Node formats a stack with `globalThis.Error.prepareStackTrace` of the realm the error belongs
  // to, handing it call sites of every frame, the judge's included: lock both names for good.
  defineProperty(BaseError, 'prepareStackTrace', {
    value: undefined,
    writable: false,
    configurable: false,
  });
  defineProperty(global, 'Error', { value: BaseError, writable: false, configurable: false });

  const out: unknown[] = [];
  const MISSING = freeze({});
  for (let i = 0; i < SLOTS; i++) out.push(0);

  let Learner: unknown;
  // A function problem: each `construct` is a call of Learner, answered as a method's call is.
  let learnerIsFunction = false;
  let instances: unknown[] = [];
  // The instance and method callPlain last checked; NONE matches no instance, not even a missing one.
  const NONE = {};
  let checkedInstance: unknown = NONE;
  let checkedMethod = '';
  const factories: Record<string, (...args: unknown[]) => unknown> = Object.create(null);
  let fixtures: Record<
    string,
    { handle: unknown; control: Record<string, unknown>; status?: () => unknown }
  > = Object.create(null);

  // What learner code prints: kept here as text, up to a cap, until the judge drains it.
  let printed = '';
  let dropped = 0;
  const show = (value: unknown): string => {
    if (typeof value === 'string') return value;
    if (typeof value === 'function') return '[Function]';
    try {
      const text = stringify(value, (_key, v: unknown) =>
        typeof v === 'bigint' ? `${toText(v)}n` : typeof v === 'function' ? '[Function]' : v,
      );
      return text === undefined ? toText(value) : text;
    } catch {
      return toText(value);
    }
  };
  const print = (...values: unknown[]): void => {
    let line = '';
    for (let i = 0; i < values.length; i++) line += (i > 0 ? ' ' : '') + show(values[i]);
    if (printed.length < CAP) printed += `${line}\n`;
    else dropped += 1;
  };
  const console = freeze({
    log: print,
    info: print,
    warn: print,
    error: print,
    debug: print,
    trace: print,
  });
  const noTimers = (): never => {
    throw new BaseError(
      'timers are not available here: the judge calls your methods one at a time, synchronously',
    );
  };
  const onlyTimeouts = (): never => {
    throw new BaseError(
      'only setTimeout and clearTimeout are available here (no setInterval or setImmediate)',
    );
  };
  global.console = console;
  global.setTimeout = noTimers;
  global.setInterval = global.setImmediate = timers === true ? onlyTimeouts : noTimers;
  global.clearTimeout = global.clearInterval = global.clearImmediate = () => undefined;
  // Reading the real time is allowed, and counted: a failure in a case where the learner's code
  // read it most likely comes from using it instead of the clock the case hands over.
  let clockReads = 0;
  // What the judge added to the real time (skewClock): a server whose clock is off reads it so.
  let skew = 0;
  const RealDate = global.Date as DateConstructor | undefined;
  if (typeof RealDate === 'function') countClockReads(RealDate);
  function countClockReads(RealDate: DateConstructor): void {
    const realNow = RealDate.now;
    const dateText = RealDate.prototype.toString;
    defineProperty(RealDate, 'now', {
      value: function now(): number {
        clockReads += 1;
        return apply(realNow, RealDate, []) + skew;
      },
      writable: true,
      configurable: true,
    });
    const CountedDate = new Proxy(RealDate, {
      construct(target, args, newTarget) {
        if (args.length === 0) {
          clockReads += 1;
          if (skew !== 0)
            return construct(target, [apply(realNow, RealDate, []) + skew], newTarget);
        }
        return construct(target, args, newTarget);
      },
      apply(target, self, args) {
        clockReads += 1;
        // Date() ignores its arguments and tells the time now as text, as new Date().toString() would.
        if (skew === 0) return apply(target, self, args);
        return apply(dateText, construct(RealDate, [apply(realNow, RealDate, []) + skew]), []);
      },
    });
    global.Date = CountedDate;
    // So that `new Date().constructor === Date` still holds.
    defineProperty(RealDate.prototype, 'constructor', {
      value: CountedDate,
      writable: true,
      configurable: true,
    });
  }
  const resolved = Promise.resolve();
  global.queueMicrotask = (fn: () => void) => void resolved.then(fn);

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
      return Number(tag);
    }
    return value;
  };
  // `fixture(name)` anywhere inside an object argument, or inside a fixture's own arguments (a
  // limiter on the case's clock, a spy around that limiter), stands for that fixture's handle. Only
  // fixtures made before are there: a case's fixtures are made in the order it lists them.
  const revive = (key: string, value: unknown): unknown => {
    if (
      typeof value === 'object' &&
      value !== null &&
      !isArray(value) &&
      hasOwn(value, '$fixture') &&
      keysOf(value).length === 1
    ) {
      const name = (value as { $fixture: unknown }).$fixture;
      if (typeof name === 'string') {
        const made = fixtures[name];
        if (made === undefined)
          throw new BaseError(`no fixture ${name} yet: a case makes its fixtures in order`);
        return made.handle;
      }
    }
    return untag(key, value);
  };
  const primitive = (value: unknown): boolean =>
    value === null || (typeof value !== 'object' && typeof value !== 'function');

  // A long list (a function problem's answer: 10^5 numbers) is copied item by item, each read once
  // (the length too, and bounded). Numbers alone (finite, no -0) go into a Float64Array of the
  // bridge's own, which the judge copies by index; writing into a typed array consults no
  // prototype, so nothing of the learner's runs. At the first item that is not such a number the
  // copy goes on as text, from the numbers read so far: a string as JSON writes it, anything else
  // as tagged JSON. A list of numbers and strings alone is plain JSON, parsed without a reviver.
  const LIST_LIMIT = 10_000_000;
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
    return 7;
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
      return 8;
    }
    // As any answer that is not plain data: too long to show is shown as such.
    out[1] =
      text.length > 1_000_000 ? stringify({ [TAG_KEY]: '[value too large to show]' }) : text + ']';
    return 3;
  };

  /** Writes an answer into `out` and returns its reply code. */
  const reply = (value: unknown): number => {
    if (primitive(value)) {
      out[1] = value;
      return 0;
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
            return 2;
          }
        } else {
          try {
            const code = listReply(value as unknown[]);
            if (code !== NOT_A_LIST) return code;
          } catch {
            out[1] = stringify({ [TAG_KEY]: '[unreadable value]' });
            return 3;
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
          return 1;
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
    return 3;
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
    return lacking ? 6 : 1;
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
    return 4;
  };
  /**
   * Rebuilds the arguments in this realm: `kinds` has a letter per argument, '' when all are
   * primitives: 'p' a primitive, 'f' a fixture's name, 'j' tagged JSON, 'n' plain JSON (a list of
   * numbers and strings, parsed without a reviver).
   */
  const rebuild = (kinds: string, args: unknown[]): unknown[] => {
    if (kinds === '') return args;
    const built: unknown[] = [];
    for (let i = 0; i < args.length; i++) {
      const kind = kinds[i];
      const arg = args[i];
      built.push(
        kind === 'f'
          ? fixtures[arg as string]?.handle
          : kind === 'j'
            ? parse(arg as string, revive)
            : kind === 'n'
              ? parse(arg as string)
              : arg,
      );
    }
    return built;
  };

  /** The instance's method for a call, or the error the learner would see for a wrong one. */
  const methodOf = (instance: unknown, method: string): (() => unknown) => {
    if (instance === undefined || instance === null) {
      throw new BaseError(
        `the suite called ${method} before constructing ${toText((Learner as { name?: unknown }).name)}`,
      );
    }
    const fn = (instance as Record<string, unknown>)[method];
    if (typeof fn !== 'function') {
      throw new BaseTypeError(
        `${toText((Learner as { name?: unknown }).name)} has no method ${method}()`,
      );
    }
    return fn as () => unknown;
  };

  // Async calls. The outcome of each call begun waits here, in a record only this code sees, until
  // the judge collects it; the judge polls (settled) and never holds the learner's promise. The
  // answer is awaited by an async function of this realm, captured now: `await` goes through the
  // realm's own promise machinery, not through `then` or `constructor` as learner code may have
  // patched them on Promise.prototype, and a thenable's `then` is called only by that machinery, with
  // resolving functions it makes in this realm (nothing of the judge: the judge is not on the stack).
  // A `then` that calls back many times counts once; one that throws is a rejection.
  interface Pending {
    /** 0 pending, 1 fulfilled (value), 2 rejected or threw (value is the reason). */
    state: number;
    value: unknown;
  }
  let pending: Record<number, Pending> = create(null) as Record<number, Pending>;
  let nextTicket = 0;
  const settle = async (record: Pending, answer: unknown): Promise<void> => {
    try {
      const value: unknown = await answer;
      record.value = value;
      record.state = 1;
    } catch (error) {
      record.value = error;
      record.state = 2;
    }
  };

  // Outbound requests: the one way out of this realm. An outbound fixture (a Redis client's facade)
  // gets `post`, bound to its name; it queues the request here as plain strings and returns a
  // promise of this realm. Nothing leaves by a call: the judge takes the queue as text
  // (takeOutbound), carries the requests to the service, and settles each with text (answerOutbound).
  // The records have no prototype, and the text is built by concatenation, so taking and answering
  // reads no property learner code could have put on a prototype, and calls none of its code.
  interface Request {
    id: number;
    channel: string;
    args: string[];
    count: number;
  }
  // OUTBOUND_LIMITS, restated: this function may use nothing outside itself.
  const LIMITS = { waiting: 10_000, args: 10_000, chars: 8_000_000 };
  let outbox: Record<number, Request> = create(null) as Record<number, Request>;
  let answers: Record<number, (text: string) => void> = create(null) as Record<
    number,
    (text: string) => void
  >;
  let waitingCount = 0;
  let queuedChars = 0;
  let firstQueued = 0;
  let nextRequest = 0;
  // An answer is text: 'v' and JSON of plain data (strings, numbers, null, lists of them), or 'e' and
  // an error's message. It is decoded after an await, in a job of this realm's own: the judge has
  // settled the promise with a string (which has no `then` to read) and is gone from the stack by
  // the time the decoded value, or a fresh Error of this realm, reaches learner code.
  const decode = async (answer: Promise<string>): Promise<unknown> => {
    const text = await answer;
    if (text[0] === 'v') return parse(text.slice(1));
    throw new BaseError(text.slice(1));
  };
  /** Queues a request of strings already checked and copied; returns its id. */
  const enqueue = (channel: string, copy: string[], length: number, chars: number): number => {
    if (queuedChars + chars > LIMITS.chars) {
      throw new BaseRangeError(`the requests waiting to go out exceed ${LIMITS.chars} characters`);
    }
    const id = nextRequest++;
    const request = create(null) as Request;
    request.id = id;
    request.channel = channel;
    request.args = copy;
    request.count = length;
    outbox[id] = request;
    queuedChars += chars;
    return id;
  };
  /** A request answered with text: its id, and a promise of this realm that the answer settles. */
  const ask = (channel: string, copy: string[], length: number, chars: number) => {
    if (waitingCount >= LIMITS.waiting) {
      throw new BaseRangeError(`more than ${LIMITS.waiting} requests are waiting for an answer`);
    }
    const id = enqueue(channel, copy, length, chars);
    waitingCount++;
    const answer = new RealmPromise<string>((resolve) => {
      answers[id] = resolve;
    });
    // `await answer` reads answer.constructor: an own one, so that no getter learner code put on
    // Promise.prototype runs (or throws) there, and the await takes the answer as it is.
    defineProperty(answer, 'constructor', { value: RealmPromise });
    return { id, answer };
  };
  const post = (channel: string, args: unknown): Promise<unknown> => {
    if (!isArray(args)) throw new BaseTypeError('a request is a list of strings');
    const length = (args as unknown[]).length;
    if (typeof length !== 'number' || length < 1 || length > LIMITS.args) {
      throw new BaseRangeError(`a request carries 1 to ${LIMITS.args} strings, not ${length}`);
    }
    const copy: string[] = create(null) as string[];
    let chars = 0;
    for (let i = 0; i < length; i++) {
      const arg = (args as unknown[])[i];
      if (typeof arg !== 'string') throw new BaseTypeError('a request carries strings only');
      copy[i] = arg;
      chars += arg.length;
    }
    return decode(ask(channel, copy, length, chars).answer);
  };

  // Timers (realms of async problems only): setTimeout posts a '(timer)' request carrying its delay,
  // and the judge answers it once the delay has passed. The callback then runs in a job of this
  // realm's own (after an await, as decode's values reach learner code): the judge, which only
  // settled a promise with a string, is gone from the stack. Its records live here, under ids only
  // this code hands out; reset forgets them all, so a timer of a case before never fires.
  interface Timer {
    request: number;
    fn: (...args: unknown[]) => unknown;
    args: unknown[];
  }
  let live: Record<number, Timer> = create(null) as Record<number, Timer>;
  // From 1: a learner's `if (this.timer)` must see a timer.
  let nextTimer = 1;
  const TIMEOUT_MAX = 2147483647;
  /** What an uncaught exception in a callback prints, as Node would; never thrown on. */
  const uncaught = (error: unknown): void => {
    try {
      const stack = error instanceof BaseError ? (error as { stack?: unknown }).stack : undefined;
      print(`Uncaught ${typeof stack === 'string' ? stack : show(error)}`);
    } catch {
      print('Uncaught exception in a timer callback');
    }
  };
  const fire = async (handle: number, answer: Promise<string>): Promise<void> => {
    await answer;
    const timer = live[handle];
    if (timer === undefined) return;
    delete live[handle];
    try {
      apply(timer.fn, undefined, timer.args);
    } catch (error) {
      uncaught(error);
    }
  };
  const setTimeoutInRealm = function setTimeout(
    fn: unknown,
    ms?: unknown,
    ...args: unknown[]
  ): number {
    if (typeof fn !== 'function') {
      throw new BaseTypeError('The "callback" argument must be of type function');
    }
    // As Node: a delay that is not a number from 1 to 2^31 - 1 is 1 ms.
    let delay = ms === undefined ? 1 : +(ms as number);
    if (!(delay >= 1 && delay <= TIMEOUT_MAX)) delay = 1;
    const text = toText(delay);
    const copy = create(null) as string[];
    copy[0] = text;
    const { id, answer } = ask('(timer)', copy, 1, text.length);
    const handle = nextTimer++;
    const timer = create(null) as Timer;
    timer.request = id;
    timer.fn = fn as Timer['fn'];
    timer.args = args;
    live[handle] = timer;
    void fire(handle, answer);
    return handle;
  };
  const clearTimeoutInRealm = function clearTimeout(handle?: unknown): void {
    const key = typeof handle === 'number' || typeof handle === 'string' ? +handle : NaN;
    const timer = live[key];
    if (timer === undefined) return;
    delete live[key];
    const id = timer.request;
    // Answered already (its job has not run yet): nothing waits any more, on either side.
    if (answers[id] === undefined) return;
    delete answers[id];
    waitingCount--;
    const queued = outbox[id];
    if (queued !== undefined) {
      // Not taken yet: it never goes out.
      delete outbox[id];
      queuedChars -= (queued.args[0] as string).length;
      return;
    }
    // The judge has it: tell it, so that it drops its timer. Nothing answers this one. Should the
    // queue be full, the judge's timer runs out instead, and its answer finds nobody waiting.
    const text = toText(id);
    const copy = create(null) as string[];
    copy[0] = text;
    try {
      enqueue('(timer-clear)', copy, 1, text.length);
    } catch {
      // see above
    }
  };
  if (timers === true) {
    global.setTimeout = setTimeoutInRealm;
    global.clearTimeout = clearTimeoutInRealm;
  }

  return {
    out,
    missing: MISSING,
    load(exportsName, errorName, className, exportsFunction) {
      try {
        const failure = global[errorName] as { e: unknown } | undefined;
        delete global[errorName];
        if (failure !== undefined) return threw(failure.e);
        const exported = global[exportsName] as Record<string, unknown> | undefined;
        delete global[exportsName];
        const found = exported?.[className] ?? exported?.default;
        if (typeof found !== 'function') {
          // Joined here by hand: learner code ran already, and may have replaced Array's join.
          const names = exported ? keysOf(exported) : [];
          let list = '';
          for (let i = 0; i < names.length; i++) list += (i > 0 ? ', ' : '') + toText(names[i]);
          out[1] = list !== '' ? `it exports: ${list}` : 'it exports nothing';
          return 5;
        }
        Learner = found;
        learnerIsFunction = exportsFunction === true;
        return 0;
      } catch (error) {
        return threw(error);
      }
    },
    addFactory(key, factory) {
      factories[key] = factory as (...args: unknown[]) => unknown;
    },
    reset() {
      instances = [];
      checkedInstance = NONE;
      fixtures = Object.create(null);
      // A call that never settled may settle later: into a record nobody reads any more.
      pending = create(null) as Record<number, Pending>;
      // Requests of the case before are neither sent nor answered: their promises never settle.
      outbox = create(null) as Record<number, Request>;
      answers = create(null) as Record<number, (text: string) => void>;
      waitingCount = 0;
      queuedChars = 0;
      firstQueued = nextRequest;
      live = create(null) as Record<number, Timer>;
      skew = 0;
    },
    makeFixture(name, key, argsJson, outbound = false) {
      try {
        const args = parse(argsJson, revive) as unknown[];
        let list: ArrayLike<unknown> = args;
        if (outbound) {
          // Array-like without a prototype: no iterator or index setter of the learner's is consulted.
          const withPost = create(null) as Record<number, unknown> & { length: number };
          withPost[0] = (request: unknown) => post(name, request);
          for (let i = 0; i < args.length; i++) withPost[i + 1] = args[i];
          withPost.length = args.length + 1;
          list = withPost;
        }
        const made = apply(factories[key] as () => unknown, undefined, list);
        fixtures[name] = made as (typeof fixtures)[string];
        return 0;
      } catch (error) {
        return threw(error);
      }
    },
    hasFixture: (name) => fixtures[name] !== undefined,
    construct(target, kinds, ...args) {
      try {
        // Called as LeetCode calls it: plainly, `this` undefined.
        if (learnerIsFunction)
          return reply(apply(Learner as () => unknown, undefined, rebuild(kinds, args)));
        instances[target] = construct(Learner as new () => unknown, rebuild(kinds, args));
        out[1] = null;
        return 0;
      } catch (error) {
        return threw(error);
      }
    },
    call(target, method, kinds, ...args) {
      try {
        const instance = instances[target];
        const fn = methodOf(instance, method);
        return reply(apply(fn, instance, rebuild(kinds, args)));
      } catch (error) {
        return threw(error);
      }
    },
    callPlain(target, method, count, a, b, fields = -1) {
      try {
        const instance = instances[target] as Record<string, (...args: unknown[]) => unknown>;
        // The same method of the same instance, call after call: it was checked the first time.
        if (instance !== checkedInstance || method !== checkedMethod) {
          if (typeof instance?.[method] !== 'function') {
            return this.call(target, method, '', ...[a, b].slice(0, count));
          }
          checkedInstance = instance;
          checkedMethod = method;
        }
        // Called as a method, not through apply: the learner's method sees itself called normally.
        const self = instance as { [key: string]: (...args: unknown[]) => unknown };
        const answer =
          count === 0 ? self[method]!() : count === 1 ? self[method]!(a) : self[method]!(a, b);
        return fields < 0 ? reply(answer) : replyFields(answer, fields);
      } catch (error) {
        return threw(error);
      }
    },
    fixtureCall(name, method, kinds, ...args) {
      try {
        const control = fixtures[name]?.control;
        const fn = control?.[method];
        if (typeof fn !== 'function') throw new BaseTypeError(`fixture ${name} has no ${method}()`);
        return reply(apply(fn as () => unknown, control, rebuild(kinds, args)) ?? null);
      } catch (error) {
        return threw(error);
      }
    },
    status() {
      let text = '';
      for (const name in fixtures) {
        try {
          const said = fixtures[name]?.status?.();
          if (typeof said === 'string' && said !== '') text += (text ? ' ' : '') + said;
        } catch {
          // a fixture the learner broke says nothing
        }
      }
      return text;
    },
    dropInstances() {
      instances = [];
      checkedInstance = NONE;
    },
    takeClockReads() {
      const reads = clockReads;
      clockReads = 0;
      return reads;
    },
    begin(target, method, kinds, ...args) {
      const ticket = nextTicket++;
      const record: Pending = { state: 0, value: undefined };
      pending[ticket] = record;
      try {
        const instance = instances[target];
        const fn = methodOf(instance, method);
        const answer = apply(fn, instance, rebuild(kinds, args));
        if (primitive(answer)) {
          record.value = answer;
          record.state = 1;
        } else {
          void settle(record, answer);
        }
      } catch (error) {
        record.value = error;
        record.state = 2;
      }
      return ticket;
    },
    settled(ticket) {
      const record = pending[ticket];
      if (record === undefined || record.state === 0) return -1;
      delete pending[ticket];
      try {
        return record.state === 1 ? reply(record.value) : threw(record.value);
      } catch (error) {
        // An answer's getter threw as it was read, as it would have in a synchronous call.
        return threw(error);
      }
    },
    takeOutbound() {
      let text = '';
      const last = nextRequest;
      for (let id = firstQueued; id < last; id++) {
        const request = outbox[id];
        if (request === undefined) continue;
        delete outbox[id];
        let line = `[${toText(id)},${stringify(request.channel)},[`;
        const args = request.args;
        for (let i = 0; i < request.count; i++) line += (i > 0 ? ',' : '') + stringify(args[i]);
        text += (text === '' ? '' : ',') + line + ']]';
      }
      firstQueued = last;
      queuedChars = 0;
      return text === '' ? '' : `[${text}]`;
    },
    answerOutbound(id, text) {
      const resolve = typeof id === 'number' ? answers[id] : undefined;
      if (resolve === undefined || typeof text !== 'string') return false;
      delete answers[id];
      waitingCount--;
      resolve(text);
      return true;
    },
    skewClock(ms) {
      if (typeof ms === 'number' && isFiniteNumber(ms)) skew = ms;
    },
    drainOutput() {
      const text = printed + (dropped > 0 ? `… ${dropped} more lines not kept\n` : '');
      printed = '';
      dropped = 0;
      return text;
    },
  };
}
