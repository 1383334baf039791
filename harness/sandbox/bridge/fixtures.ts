// Fixtures and the arguments that name them, a part of the bridge (see inside-realm.ts). A
// fixture (a clock the case controls, a spy, a Redis client's facade) is built in the realm by a
// factory the judge compiled there before learner code loaded; learner code gets its `handle`, the
// judge drives its `control` and reads its `status`. Arguments cross as primitives or text and are
// rebuilt here, a fixture's name standing for its handle. Runs inside the realm from its own text:
// it names nothing outside itself.
import type { Codec } from './codec.ts';

export interface Fixtures {
  addFactory(key: string, factory: unknown): void;
  /** With `outbound`, the fixture's function gets its `post` (see takeOutbound) before its args. */
  makeFixture(name: string, key: string, argsJson: string, outbound?: boolean): number;
  hasFixture(name: string): boolean;
  fixtureCall(name: string, method: string, kinds: string, ...args: unknown[]): number;
  /** What the fixtures say about themselves, for a failure's report. */
  status(): string;
  /**
   * Rebuilds the arguments in this realm: `kinds` has a letter per argument, '' when all are
   * primitives: 'p' a primitive, 'f' a fixture's name, 'j' tagged JSON, 'n' plain JSON (a list of
   * numbers and strings, parsed without a reviver).
   */
  rebuild(kinds: string, args: unknown[]): unknown[];
  /** Forgets the fixtures of the case before (the factories stay). */
  reset(): void;
}

/** `post` is the outbound queue's (see outbox.ts): outbound fixtures get it, bound to their name. */
export function makeFixtures(
  codec: Codec,
  post: (channel: string, args: unknown) => Promise<unknown>,
): Fixtures {
  'use strict';
  const apply = Reflect.apply;
  const create = Object.create;
  const defineProperty = Object.defineProperty;
  const hasOwn = Object.hasOwn;
  const keysOf = Object.keys;
  const isArray = Array.isArray;
  const parse = JSON.parse;
  const BaseError = Error;
  const BaseTypeError = TypeError;
  const { reply, threw, untag } = codec;

  interface Fixture {
    handle: unknown;
    control: Record<string, unknown>;
    status?: () => unknown;
  }
  const factories: Record<string, (...args: unknown[]) => unknown> = create(null) as Record<
    string,
    (...args: unknown[]) => unknown
  >;
  let fixtures: Record<string, Fixture> = create(null) as Record<string, Fixture>;

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
  const rebuild = (kinds: string, args: unknown[]): unknown[] => {
    if (kinds === '') return args;
    const built: unknown[] = [];
    for (let i = 0; i < args.length; i++) {
      const kind = kinds[i];
      const arg = args[i];
      // Defined, not pushed: learner code may have replaced Array.prototype.push by now, or put a
      // setter on an index.
      defineProperty(built, i, {
        value:
          kind === 'f'
            ? fixtures[arg as string]?.handle
            : kind === 'j'
              ? parse(arg as string, revive)
              : kind === 'n'
                ? parse(arg as string)
                : arg,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
    return built;
  };

  return {
    addFactory(key, factory) {
      factories[key] = factory as (...args: unknown[]) => unknown;
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
        fixtures[name] = made as Fixture;
        return 0;
      } catch (error) {
        return threw(error);
      }
    },
    hasFixture: (name) => fixtures[name] !== undefined,
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
    rebuild,
    reset() {
      fixtures = create(null) as Record<string, Fixture>;
    },
  };
}
