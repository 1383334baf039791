// A learner's realm, seen from the judge: a fresh vm context holding the language's own built-ins,
// a console that keeps text, and nothing else — no process, no require, no judge object, and no
// timers unless asked for (realms of async problems: setTimeout and clearTimeout, which the judge
// answers through the outbound queue). It cannot generate code from strings, so what it runs is
// exactly the bundle it was given. The judge talks to it only through the bridge (inside-realm.ts),
// in primitives.
import vm from 'node:vm';
import type { FixtureSpec } from '../suite.ts';
import {
  bridgeSource,
  FLAT_MAX,
  LIST_MAX,
  OUTBOUND_LIMITS,
  REPLY,
  TAG,
  TIMER_CHANNEL,
  TIMER_CLEAR_CHANNEL,
  TIMEOUT_MAX,
  type Bridge,
} from './inside-realm.ts';
import {
  encodeAnswer,
  OutboundError,
  parseOutbound,
  type OutboundHost,
  type OutboundRequest,
} from './outbound.ts';
import type { LearnerError, Port, Reply } from './port.ts';

/**
 * Built-ins that code in a context reads from its global object. A context's global answers through
 * an interceptor, ~150 ns a lookup (a scale case makes millions), so learner code runs inside a
 * function that binds each of them to a local once.
 */
const REALM_GLOBALS = [
  'Object',
  'Function',
  'Array',
  'Number',
  'Boolean',
  'String',
  'Symbol',
  'BigInt',
  'Math',
  'JSON',
  'Reflect',
  'Proxy',
  'Date',
  'RegExp',
  'Promise',
  'Map',
  'Set',
  'WeakMap',
  'WeakSet',
  'WeakRef',
  'Error',
  'TypeError',
  'RangeError',
  'SyntaxError',
  'ReferenceError',
  'EvalError',
  'URIError',
  'AggregateError',
  'ArrayBuffer',
  'DataView',
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
  'Intl',
  'parseInt',
  'parseFloat',
  'isNaN',
  'isFinite',
  'NaN',
  'Infinity',
  'console',
  'queueMicrotask',
  'setTimeout',
  'clearTimeout',
  'setInterval',
  'clearInterval',
  'setImmediate',
  'clearImmediate',
];
const PROLOGUE = `(function(){"use strict";const ${REALM_GLOBALS.map((name) => `${name}=globalThis.${name}`).join(',')};`;

/** Where the learner's bundle leaves its exports, on the realm's global, until the bridge takes them. */
export const LEARNER_GLOBAL = '__kataLearner';
/** Where an exception thrown while the bundle loads is left for the bridge to describe. */
const LOAD_ERROR_GLOBAL = '__kataLoadError';

export type LoadResult =
  { ok: true } | { ok: false; error: LearnerError } | { ok: false; missing: string };

/**
 * Judge functions are carried into the realm as source text. A compiler that keeps function names
 * (tsx does) wraps them in calls to its helper `__name`: give the text one that does nothing.
 */
const KEEP_NAMES_SHIM = 'var __name = (fn) => fn;\n';

/** Turns tagged JSON text from the realm back into a value. */
function untag(_key: string, value: unknown): unknown {
  if (typeof value === 'object' && value !== null && TAG in value) {
    const tag = (value as Record<string, unknown>)[TAG];
    if (tag === 'undefined') return undefined;
    if (tag === '-0') return -0;
    if (tag === 'Infinity' || tag === '-Infinity' || tag === 'NaN') return Number(tag);
    return String(tag);
  }
  return value;
}

function tag(_key: string, value: unknown): unknown {
  if (typeof value === 'number' && (!Number.isFinite(value) || Object.is(value, -0))) {
    return { [TAG]: Object.is(value, -0) ? '-0' : String(value) };
  }
  if (value === undefined) return { [TAG]: 'undefined' };
  return value;
}

/**
 * A list of finite numbers (not -0) and strings, the suite's own data: plain JSON carries it exactly,
 * so it crosses without a replacer or a reviver (a function problem's 10^5 numbers, several times
 * faster). Anything else in it (-0, NaN, a nested list) leaves it to tagged JSON.
 */
function isPlainList(value: unknown): value is unknown[] {
  if (!Array.isArray(value) || Object.getPrototypeOf(value) !== Array.prototype) return false;
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    if (typeof item === 'string') continue;
    if (typeof item !== 'number' || !Number.isFinite(item) || Object.is(item, -0)) return false;
  }
  return true;
}

const isPrimitive = (value: unknown): boolean =>
  value === null || (typeof value !== 'object' && typeof value !== 'function');

/**
 * Thrown when the bridge left something in `out` that is not the primitive its reply promises.
 * The bridge reads every value once into primitives, so this means it was bent: the thing is
 * refused without a look (no property read, no conversion, nothing called on it).
 */
export class UnreadableReply extends Error {
  override name = 'UnreadableReply';
}

/** `value` if it is a primitive of the kind asked for (any primitive when none is), else a refusal. */
function plain<T>(value: unknown, kind?: 'string' | 'number' | 'boolean'): T {
  if (kind === undefined ? isPrimitive(value) : typeof value === kind) return value as T;
  throw new UnreadableReply('the answer was not plain data as it left the realm');
}

/** A count the bridge wrote: a whole number from 0 to `max` (FLAT_MAX unless said). */
const count = (value: unknown, max = FLAT_MAX): number => {
  const n = plain<number>(value, 'number');
  if (!Number.isInteger(n) || n < 0 || n > max) {
    throw new UnreadableReply('the answer was not plain data as it left the realm');
  }
  return n;
};

/** The judge's own readers of a typed array's internal slots: no getter of the realm's is asked. */
const typedArrayProto = Object.getPrototypeOf(Uint8Array.prototype) as object;
const typedArrayName = Object.getOwnPropertyDescriptor(typedArrayProto, Symbol.toStringTag)
  ?.get as () => unknown;
const typedArrayLength = Object.getOwnPropertyDescriptor(typedArrayProto, 'length')
  ?.get as () => unknown;

/**
 * The n numbers of a numberList reply as a list of the judge's. `numbers` must be a genuine
 * Float64Array (the bridge made it: a proxy or any other object has no such internal slot) of that
 * length; its items are read by index, which for a typed array reads the buffer and nothing else.
 */
function numberList(n: number, numbers: unknown): number[] {
  if (
    typeof numbers !== 'object' ||
    numbers === null ||
    Reflect.apply(typedArrayName, numbers, []) !== 'Float64Array' ||
    Reflect.apply(typedArrayLength, numbers, []) !== n
  ) {
    throw new UnreadableReply('the answer was not plain data as it left the realm');
  }
  const from = numbers as Float64Array;
  const value = new Array<number>(n);
  for (let i = 0; i < n; i++) value[i] = from[i] as number;
  return value;
}

export interface RealmOptions {
  /**
   * Learner code may use setTimeout and clearTimeout (realms of async problems, where calls are
   * awaited and the judge pumps the realm's requests meanwhile). Without, they throw.
   */
  timers?: boolean;
}

/** The text a fired timer's request is answered with; the realm does not read it. */
const TIMER_FIRED = 't';

export class LearnerRealm implements Port {
  private readonly context: vm.Context;
  private readonly bridge: Bridge;
  private readonly out: unknown[];
  /** The bridge's marker for a field an answer lacks: compared by identity, never looked into. */
  private readonly missing: object;
  /** Fixture factories compiled in the realm, by their source. */
  private readonly factoryKeys = new Map<string, string>();

  private readonly timers: boolean;

  constructor(fixtureSources: readonly string[] = [], options: RealmOptions = {}) {
    this.timers = options.timers === true;
    // The object behind the context's global is the judge's: with a prototype, its `constructor` is
    // the judge's Object, and that Object's constructor compiles code in the judge's realm. No
    // prototype, and the global answers from the realm's own built-ins alone.
    this.context = vm.createContext(Object.create(null) as object, {
      name: 'learner',
      codeGeneration: { strings: false, wasm: false },
    });
    const source = `${KEEP_NAMES_SHIM}${bridgeSource(this.timers)}`;
    this.bridge = new vm.Script(source, { filename: 'judge-bridge.js' }).runInContext(
      this.context,
    ) as Bridge;
    this.out = this.bridge.out;
    this.missing = this.bridge.missing;
    // Compiled before the learner's code exists, so nothing of theirs can stand in for them.
    for (const fixtureSource of new Set(fixtureSources)) {
      const key = `f${this.factoryKeys.size}`;
      const factory = new vm.Script(`${KEEP_NAMES_SHIM}(${fixtureSource})`, {
        filename: 'judge-fixture.js',
      }).runInContext(this.context) as unknown;
      this.bridge.addFactory(key, factory);
      this.factoryKeys.set(fixtureSource, key);
    }
  }

  /** Runs one of LeetCode's import-free libraries (judge-built, trusted) in the realm. */
  loadLibrary(code: string): void {
    new vm.Script(code, { filename: 'leetcode-library.js' }).runInContext(this.context);
  }

  /**
   * Runs the learner's bundle and finds their class (or, with `exportsFunction`, their function,
   * which `construct` then calls); what goes wrong is told, never thrown.
   */
  load(code: string, filename: string, className: string, exportsFunction = false): LoadResult {
    const wrapped =
      `${PROLOGUE}try{${code}\n;globalThis.${LEARNER_GLOBAL}=${LEARNER_GLOBAL};}` +
      `catch(e){globalThis.${LOAD_ERROR_GLOBAL}={e};}})();`;
    try {
      new vm.Script(wrapped, { filename }).runInContext(this.context);
    } catch {
      // Only a syntax error the compiler let through lands here: nothing of the learner's ran.
      return {
        ok: false,
        error: {
          isError: true,
          name: 'SyntaxError',
          message: 'the bundle does not parse',
          stack: '',
        },
      };
    }
    const found: unknown = this.bridge.load(
      LEARNER_GLOBAL,
      LOAD_ERROR_GLOBAL,
      className,
      exportsFunction,
    );
    if (found === 0) return { ok: true };
    if (found === REPLY.threw) {
      const reply = this.read(found);
      if (!reply.ok) return { ok: false, error: reply.error };
    }
    const said = this.out[1];
    return { ok: false, missing: typeof said === 'string' ? said : 'it exports nothing readable' };
  }

  private encode(args: readonly unknown[]): { kinds: string; values: unknown[] } {
    let kinds = '';
    let plain = true;
    for (const arg of args) {
      if (!isPrimitive(arg)) plain = false;
    }
    if (plain) return { kinds, values: args as unknown[] };
    const values = args.map((arg) => {
      if (isPrimitive(arg)) {
        kinds += 'p';
        return arg;
      }
      if (typeof arg === 'object' && arg !== null && '$fixture' in arg) {
        kinds += 'f';
        return String((arg as { $fixture: unknown }).$fixture);
      }
      if (isPlainList(arg)) {
        kinds += 'n';
        return JSON.stringify(arg);
      }
      kinds += 'j';
      return JSON.stringify(arg, tag);
    });
    return { kinds, values };
  }

  /**
   * One reply object, refilled on every call: a case makes millions of calls, and the caller reads
   * the reply at once and keeps only the value.
   */
  private readonly ok = { ok: true as const, value: undefined as unknown };

  /** The keys of the last object answer, and a function that builds an object of that shape. */
  private lastShape: { keys: unknown[]; build: (out: unknown[]) => object } | undefined;

  /**
   * A function that builds the object the bridge wrote into `out` (n fields). A limiter answers
   * millions of objects of one shape: an object literal of that shape, compiled once, builds them
   * several times faster than adding fields one by one.
   */
  private shape(n: number): (out: unknown[]) => object {
    const out = this.out;
    const last = this.lastShape;
    if (last && last.keys.length === n) {
      let same = true;
      for (let i = 0; i < n && same; i++) same = last.keys[i] === out[2 + 2 * i];
      if (same) return last.build;
    }
    const keys = Array.from({ length: n }, (_, i) => plain<string>(out[2 + 2 * i], 'string'));
    const build = keys.some((key) => key === '__proto__')
      ? (from: unknown[]): object => {
          const value = {};
          for (let i = 0; i < n; i++) {
            Object.defineProperty(value, String(from[2 + 2 * i]), {
              value: from[3 + 2 * i],
              enumerable: true,
              writable: true,
              configurable: true,
            });
          }
          return value;
        }
      : (new Function(
          'o',
          `return {${keys.map((key, i) => `${JSON.stringify(key)}: o[${3 + 2 * i}]`).join(', ')}};`,
        ) as (from: unknown[]) => object);
    this.lastShape = { keys, build };
    return build;
  }

  /**
   * Reads the reply the bridge wrote into `out` as a value of the judge's own realm. Defence in
   * depth: every slot is checked to be the primitive the reply promises before it is used, so even a
   * bent bridge cannot hand the judge an object of the learner's to print or compare.
   */
  private read(code: unknown): Reply {
    try {
      return this.readPlain(code);
    } catch (error) {
      if (!(error instanceof UnreadableReply)) throw error;
      return {
        ok: false,
        error: { isError: true, name: 'TypeError', message: error.message, stack: '' },
      };
    }
  }

  private readPlain(code: unknown): Reply {
    const out = this.out;
    switch (code) {
      case REPLY.primitive:
        this.ok.value = plain(out[1]);
        return this.ok;
      case REPLY.flatObject:
        this.ok.value = this.flatObject(count(out[1]));
        return this.ok;
      case REPLY.flatObjectLacking: {
        const value = this.flatObject(count(out[1]), true) as Record<string, unknown>;
        // A field the answer lacks came back as the bridge's marker: the copy lacks it too.
        for (const key in value) if (value[key] === this.missing) delete value[key];
        this.ok.value = value;
        return this.ok;
      }
      case REPLY.flatArray: {
        const n = count(out[1]);
        const value: unknown[] = [];
        for (let i = 0; i < n; i++) value.push(plain(out[2 + i]));
        this.ok.value = value;
        return this.ok;
      }
      case REPLY.json:
        this.ok.value = JSON.parse(plain<string>(out[1], 'string'), untag);
        return this.ok;
      case REPLY.numberList:
        this.ok.value = numberList(count(out[1], LIST_MAX), out[2]);
        return this.ok;
      case REPLY.plainJson:
        this.ok.value = JSON.parse(plain<string>(out[1], 'string'));
        return this.ok;
      case REPLY.threw:
        return {
          ok: false,
          error: {
            name: plain<string>(out[1], 'string'),
            message: plain<string>(out[2], 'string'),
            stack: plain<string>(out[3], 'string'),
            isError: plain<boolean>(out[4], 'boolean'),
          },
        };
      default:
        throw new UnreadableReply('the realm answered with an unknown reply');
    }
  }

  /** The flat object in `out` (n fields): keys are text, values primitives (or the missing marker). */
  private flatObject(n: number, lacking = false): object {
    const out = this.out;
    for (let i = 0; i < n; i++) {
      const value = out[3 + 2 * i];
      if (
        typeof value === 'object'
          ? value !== null && !(lacking && value === this.missing)
          : typeof value === 'function'
      ) {
        throw new UnreadableReply('the answer was not plain data as it left the realm');
      }
    }
    // The keys are checked by shape(), when a shape is new: an answer of the last shape has its keys.
    return this.shape(n)(out);
  }

  reset(fixtures: Record<string, FixtureSpec> | undefined): void {
    this.bridge.reset();
    // Answers still on their way belong to the case before: they are dropped, not delivered.
    this.generation++;
    for (const timer of this.judgeTimers.values()) clearTimeout(timer);
    this.judgeTimers.clear();
    // Made first: `host?.reset(make())` would skip making them in a realm with no way out.
    const outbound = this.make(fixtures ?? {});
    this.outboundHost?.reset(outbound);
  }

  /**
   * Makes more fixtures beside those of the last reset, and opens their way out: a second client
   * of a separate server's realm (see ServerRealms), whose host adds connections on reset.
   */
  addFixtures(fixtures: Record<string, FixtureSpec>): void {
    const outbound = this.make(fixtures);
    if (outbound.length > 0 && this.outboundHost !== undefined) this.outboundHost.reset(outbound);
  }

  /** Builds fixtures in the realm; returns the outbound ones, for the host to connect. */
  private make(
    fixtures: Record<string, FixtureSpec>,
  ): { name: string; args: readonly unknown[] }[] {
    const outbound: { name: string; args: readonly unknown[] }[] = [];
    for (const [name, spec] of Object.entries(fixtures)) {
      const key = this.factoryKeys.get(spec.source);
      if (key === undefined) throw new Error(`fixture ${name} was not compiled into the realm`);
      if (spec.outbound !== undefined) {
        // '(timer)' and the like are the realm's own channels.
        if (name.startsWith('(')) throw new Error(`fixture name ${name} is reserved`);
        if (this.outboundHost === undefined) {
          throw new Error(
            `fixture ${name} needs ${spec.outbound}, and this realm has no way to it`,
          );
        }
        outbound.push({ name, args: spec.args ?? [] });
      }
      const code = this.bridge.makeFixture(
        name,
        key,
        JSON.stringify(spec.args ?? [], tag),
        spec.outbound !== undefined,
      );
      if (code !== 0) {
        const said = this.out[2];
        throw new Error(`fixture ${name} failed to build: ${typeof said === 'string' ? said : ''}`);
      }
    }
    return outbound;
  }

  private outboundHost: OutboundHost | undefined;
  private generation = 0;
  private pumpScheduled = false;

  /** Gives outbound fixtures (a Redis client's facade) their way out: `host` carries their requests. */
  attachOutbound(host: OutboundHost): void {
    this.outboundHost = host;
  }

  /** Once the outbound fixtures' connections have opened (see OutboundHost.connected). */
  connected(): Promise<void> {
    return this.outboundHost?.connected?.() ?? Promise.resolve();
  }

  /**
   * Takes the requests outbound fixtures queued and hands them to the host; each answer goes back
   * into the realm as text. Called while a call is awaited (drive-async's settle), and again after
   * every answer, so that a request made in reaction to one goes out without waiting for a poll.
   */
  pump(): void {
    const host = this.outboundHost;
    if (host === undefined && !this.timers) return;
    const requests = parseOutbound(this.bridge.takeOutbound());
    const generation = this.generation;
    for (const request of requests) {
      if (this.timers && request.channel === TIMER_CHANNEL) {
        this.startTimer(request);
        continue;
      }
      if (this.timers && request.channel === TIMER_CLEAR_CHANNEL) {
        const id = Number(request.args[0]);
        clearTimeout(this.judgeTimers.get(id));
        this.judgeTimers.delete(id);
        continue;
      }
      if (host === undefined) {
        throw new OutboundError(`a request on ${request.channel}, and this realm has no way out`);
      }
      host.dispatch(request, (answer) => {
        if (generation !== this.generation) return;
        this.bridge.answerOutbound(request.id, encodeAnswer(answer));
        this.schedulePump();
      });
    }
  }

  /** The judge's timers for the realm's, by request id; all cleared at reset. */
  private readonly judgeTimers = new Map<number, NodeJS.Timeout>();

  /**
   * Answers a '(timer)' request once its delay has passed. The timer holds the realm only weakly,
   * and never keeps the process alive: a realm dropped with timers pending goes all the same.
   */
  private startTimer(request: OutboundRequest): void {
    // Cleared timers whose clearing has not come yet may still be here: room for twice the waiting.
    if (this.judgeTimers.size >= 2 * OUTBOUND_LIMITS.waiting) {
      throw new OutboundError('the realm set more timers than requests may wait');
    }
    const asked = Number(request.args[0]);
    const delay = asked >= 1 ? Math.min(asked, TIMEOUT_MAX) : 1;
    const id = request.id;
    const generation = this.generation;
    const realm = new WeakRef(this);
    const timer = setTimeout(() => {
      const self = realm.deref();
      if (self === undefined || self.generation !== generation) return;
      self.judgeTimers.delete(id);
      // A string: settling the realm's promise with it reads nothing and calls nothing of theirs.
      self.bridge.answerOutbound(id, TIMER_FIRED);
      // The callback may have made requests of its own (a retry): they go out now.
      self.schedulePump();
    }, delay);
    timer.unref();
    this.judgeTimers.set(id, timer);
  }

  /**
   * Skews the clock learner code reads (`Date.now()`, `new Date()`, `Date()`) by `ms`, as a server
   * whose clock is off; the next reset puts it right.
   */
  skewClock(ms: number): void {
    if (!Number.isFinite(ms)) throw new Error(`a clock skew is a finite number of ms, not ${ms}`);
    this.bridge.skewClock(ms);
  }

  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    // After the microtasks the answer sets off: by then the learner's next request is queued.
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  construct(target: number, args: readonly unknown[]): Reply {
    const { kinds, values } = this.encode(args);
    return this.read(this.bridge.construct(target, kinds, ...values));
  }

  call(target: number, method: string, args: readonly unknown[]): Reply {
    const count = args.length;
    if (count <= 2) {
      const a = args[0];
      const b = args[1];
      if (isPrimitive(a) && isPrimitive(b)) {
        return this.read(this.bridge.callPlain(target, method, count, a, b));
      }
    }
    const { kinds, values } = this.encode(args);
    return this.read(this.bridge.call(target, method, kinds, ...values));
  }

  callExpecting(
    target: number,
    method: string,
    args: readonly unknown[],
    fields: readonly string[],
  ): Reply {
    const count = args.length;
    const a = args[0];
    const b = args[1];
    if (count > 2 || fields.length > FLAT_MAX || !isPrimitive(a) || !isPrimitive(b)) {
      return this.call(target, method, args);
    }
    const out = this.out;
    for (let i = 0; i < fields.length; i++) out[2 + 2 * i] = fields[i];
    return this.read(this.bridge.callPlain(target, method, count, a, b, fields.length));
  }

  hasFixture(name: string): boolean {
    return this.bridge.hasFixture(name) === true;
  }

  fixtureCall(name: string, method: string, args: readonly unknown[]): Reply {
    const { kinds, values } = this.encode(args);
    return this.read(this.bridge.fixtureCall(name, method, kinds, ...values));
  }

  status(): string {
    const said: unknown = this.bridge.status();
    return typeof said === 'string' ? said : '';
  }

  dropInstances(): void {
    this.bridge.dropInstances();
  }

  begin(target: number, method: string, args: readonly unknown[]): number {
    const { kinds, values } = this.encode(args);
    return plain<number>(this.bridge.begin(target, method, kinds, ...values), 'number');
  }

  settled(ticket: number): Reply | undefined {
    const code: unknown = this.bridge.settled(ticket);
    return code === -1 ? undefined : this.read(code);
  }

  clockReads(): number {
    const reads: unknown = this.bridge.takeClockReads();
    return typeof reads === 'number' ? reads : 0;
  }

  drainOutput(): string {
    const text: unknown = this.bridge.drainOutput();
    return typeof text === 'string' ? text : '';
  }
}
