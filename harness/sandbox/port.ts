// How the judge reaches a class it drives: the learner's, sealed in a realm of its own, or the
// reference, run directly. Drive code sees only this interface, so it treats both alike and never
// holds a learner object itself.
import { isFixtureRef, type AnyClass, type AnyFunction, type FixtureSpec } from '../suite.ts';
import { encodeAnswer, parseOutbound, type OutboundHost } from './outbound.ts';

/** What a learner's exception is reduced to before it leaves their realm: text only. */
export interface LearnerError {
  /** Whether it was a real Error (of the learner's realm), not some other thrown value. */
  isError: boolean;
  name: string;
  message: string;
  stack: string;
}

export type Reply = { ok: true; value: unknown } | { ok: false; error: LearnerError };

/**
 * A reply is read at once: a Port may refill one reply object on every call (the realm does, since
 * a case makes millions of calls), so keep the value, never the reply.
 */
export interface Port {
  /** Drops every instance and fixture, then creates the given fixtures afresh. */
  reset(fixtures: Record<string, FixtureSpec> | undefined): void;
  /** Constructs instance `target`; in a function problem's port, calls the function instead. */
  construct(target: number, args: readonly unknown[]): Reply;
  call(target: number, method: string, args: readonly unknown[]): Reply;
  /**
   * Optional: call() for an answer expected to be an object with these fields; only they need be
   * read (an answer that lacks one may come back without it).
   */
  callExpecting?(
    target: number,
    method: string,
    args: readonly unknown[],
    fields: readonly string[],
  ): Reply;
  /** Whether `name` is one of the fixtures the last reset created. */
  hasFixture(name: string): boolean;
  fixtureCall(name: string, method: string, args: readonly unknown[]): Reply;
  /** What the fixtures say about themselves now (the clock's time), or '' when they say nothing. */
  status(): string;
  /** Lets go of every instance, so that memory can be measured without them. */
  dropInstances(): void;
  /** Optional: how often the code read the real time since last asked. */
  clockReads?(): number;
  /**
   * Optional (async cases): calls a method and returns a ticket for its answer, which may be a
   * promise. The port awaits it on its side: the learner's realm awaits the learner's promise itself.
   */
  begin?(target: number, method: string, args: readonly unknown[]): number;
  /**
   * The reply of the call of `ticket` once its answer has settled (given once), or undefined while
   * it has not. Read it at once, as any reply.
   */
  settled?(ticket: number): Reply | undefined;
  /**
   * Optional: sends what outbound fixtures (a Redis client's facade) have queued on to their
   * service. Called while an answer is awaited.
   */
  pump?(): void;
  /** Optional: resolves once the outbound fixtures made so far have connected (or failed to). */
  connected?(): Promise<void>;
}

export const NOT_CONSTRUCTED = (className: string, method: string): string =>
  `the suite called ${method} before constructing ${className}`;

/**
 * A copy of `value` in which every `fixture(name)`, at any depth of plain arrays and objects, is that
 * fixture's handle (as the learner's realm rebuilds such arguments: see `revive` in
 * bridge/fixtures.ts). Values without one come back as they are, uncopied.
 */
export function withHandles(value: unknown, handleOf: (name: string) => unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (isFixtureRef(value) && Object.keys(value).length === 1) return handleOf(value.$fixture);
  if (Array.isArray(value)) {
    const items = value.map((item) => withHandles(item, handleOf));
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const made = withHandles(item, handleOf);
    if (made !== item) copy ??= { ...value };
    // defineProperty, not `=`: a key named `__proto__` stays an own field, as JSON.parse makes it.
    if (copy)
      Object.defineProperty(copy, key, {
        value: made,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return copy ?? value;
}

/**
 * Builds a fixture from its spec in this realm: used beside the reference. Its arguments may name
 * fixtures made before it (`made`), which it then receives as their handles.
 */
export function makeFixture(
  spec: FixtureSpec,
  made: ReadonlyMap<string, { handle: unknown }> = new Map(),
  post?: (request: unknown) => Promise<unknown>,
): {
  handle: unknown;
  control: Record<string, (...args: unknown[]) => unknown>;
  status?: () => string;
} {
  let factory = factories.get(spec.source);
  if (factory === undefined) {
    // `__name`: see KEEP_NAMES_SHIM in realm.ts (a compiler may wrap functions in it).
    factory = new Function(`var __name = (fn) => fn; return (${spec.source});`)() as Factory;
    factories.set(spec.source, factory);
  }
  const args = withHandles(spec.args ?? [], (name) => {
    const earlier = made.get(name);
    if (earlier === undefined)
      throw new Error(`no fixture ${name} yet: a case makes its fixtures in order`);
    return earlier.handle;
  }) as unknown[];
  if (spec.outbound !== undefined) {
    if (post === undefined)
      throw new Error(`a fixture needs ${spec.outbound}, and there is no way to it`);
    return factory(post, ...args) as ReturnType<typeof makeFixture>;
  }
  return factory(...args) as ReturnType<typeof makeFixture>;
}

type Factory = (...args: unknown[]) => unknown;
/** Fixture factories by source: a property case builds its fixtures afresh for every run. */
const factories = new Map<string, Factory>();

function describeError(error: unknown): LearnerError {
  if (error instanceof Error) {
    return { isError: true, name: error.name, message: error.message, stack: error.stack ?? '' };
  }
  return { isError: false, name: '', message: String(error), stack: '' };
}

/**
 * Runs a trusted class (the reference) in the judge's own realm; with `exportsFunction`, a function
 * problem's function, which `construct` then calls (see `invoke` in drive.ts). With `host`, its outbound fixtures
 * (a Redis client's facade) reach their service through it directly, with the same checks and the
 * same plain answers as from a learner's realm.
 */
export function directPort(
  cls: AnyClass | AnyFunction,
  host?: OutboundHost,
  exportsFunction = false,
): Port {
  let instances: object[] = [];
  let fixtures = new Map<string, ReturnType<typeof makeFixture>>();
  let generation = 0;
  let nextRequest = 0;
  const postFor =
    (channel: string) =>
    (args: unknown): Promise<unknown> => {
      const [request] = parseOutbound(JSON.stringify([[nextRequest++, channel, args]]));
      const asked = generation;
      return new Promise((resolve, reject) =>
        host?.dispatch(request!, (answer) => {
          if (asked !== generation) return;
          const text = encodeAnswer(answer);
          if (text.startsWith('v')) resolve(JSON.parse(text.slice(1)));
          else reject(new Error(text.slice(1)));
        }),
      );
    };
  const handleOf = (name: string): unknown => fixtures.get(name)?.handle;
  const resolve = (args: readonly unknown[]): unknown[] =>
    args.map((arg) => withHandles(arg, handleOf));
  const attempt = (run: () => unknown): Reply => {
    try {
      return { ok: true, value: run() };
    } catch (error) {
      return { ok: false, error: describeError(error) };
    }
  };
  const call = (target: number, method: string, args: readonly unknown[]): Reply =>
    attempt(() => {
      const instance = instances[target] as Record<string, unknown> | undefined;
      if (instance === undefined) throw new Error(NOT_CONSTRUCTED(cls.name, method));
      const fn = instance[method];
      if (typeof fn !== 'function') throw new TypeError(`${cls.name} has no method ${method}()`);
      return (fn as (...a: unknown[]) => unknown).apply(instance, resolve(args));
    });
  // Async calls: the reference is trusted, so its promises are awaited here directly.
  let settledReplies = new Map<number, Reply | undefined>();
  let nextTicket = 0;
  return {
    reset(specs) {
      instances = [];
      settledReplies = new Map();
      fixtures = new Map();
      generation++;
      const outbound: { name: string; args: readonly unknown[] }[] = [];
      // In the order listed: a fixture may be handed the ones before it.
      for (const [name, spec] of Object.entries(specs ?? {})) {
        if (spec.outbound !== undefined) outbound.push({ name, args: spec.args ?? [] });
        const post = host === undefined ? undefined : postFor(name);
        fixtures.set(name, makeFixture(spec, fixtures, post));
      }
      host?.reset(outbound);
    },
    construct(target, args) {
      // A function problem's call: the arguments are copied, as the learner's realm rebuilds them,
      // so that a function that sorts its input in place changes nothing of the suite's.
      if (exportsFunction) {
        return attempt(() =>
          (cls as (...a: unknown[]) => unknown)(...structuredClone(resolve(args))),
        );
      }
      return attempt(() => {
        instances[target] = new (cls as new (...a: unknown[]) => object)(...resolve(args));
        return null;
      });
    },
    call,
    begin(target, method, args) {
      const ticket = nextTicket++;
      const replies = settledReplies;
      const reply = call(target, method, args);
      const value = reply.ok ? reply.value : undefined;
      const thenable =
        (typeof value === 'object' || typeof value === 'function') &&
        value !== null &&
        typeof (value as { then?: unknown }).then === 'function';
      if (!thenable) {
        replies.set(ticket, reply);
        return ticket;
      }
      replies.set(ticket, undefined);
      Promise.resolve(value).then(
        (settled) => replies.set(ticket, { ok: true, value: settled }),
        (error: unknown) => replies.set(ticket, { ok: false, error: describeError(error) }),
      );
      return ticket;
    },
    settled(ticket) {
      const reply = settledReplies.get(ticket);
      if (reply !== undefined) settledReplies.delete(ticket);
      return reply;
    },
    hasFixture: (name) => fixtures.has(name),
    fixtureCall(name, method, args) {
      return attempt(() => fixtures.get(name)?.control[method]?.(...resolve(args)) ?? null);
    },
    status: () =>
      [...fixtures.values()]
        .map((f) => f.status?.() ?? '')
        .filter(Boolean)
        .join(' '),
    dropInstances() {
      instances = [];
    },
  };
}
