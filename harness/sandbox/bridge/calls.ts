// Calls into learner code, a part of the bridge (see inside-realm.ts): finding the class (or a
// function problem's function) the learner's bundle exported, constructing instances, and calling
// their methods, with `callPlain` as the hot path (a case makes millions of calls). Each answer is
// written into `out` by the codec (codec.ts); what is thrown is described there too. Runs inside
// the realm from its own text: it names nothing outside itself.
import type { Codec } from './codec.ts';
import type { Fixtures } from './fixtures.ts';

export interface Calls {
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
  /** Calls a method of instance `target` with the arguments rebuilt; what it throws is thrown. */
  invoke(target: number, method: string, kinds: string, args: unknown[]): unknown;
  dropInstances(): void;
  /** Drops the instances of the case before. */
  reset(): void;
}

/** `global` is where the learner's bundle leaves its exports (see load). */
export function makeCalls(
  global: Record<string, unknown>,
  codec: Codec,
  rebuild: Fixtures['rebuild'],
): Calls {
  'use strict';
  const apply = Reflect.apply;
  const construct = Reflect.construct;
  const defineProperty = Object.defineProperty;
  const keysOf = Object.keys;
  const toText = String;
  const BaseError = Error;
  const BaseTypeError = TypeError;
  const { out, reply, replyFields, threw } = codec;

  let Learner: unknown;
  // A function problem: each `construct` is a call of Learner, answered as a method's call is.
  let learnerIsFunction = false;
  let instances: unknown[] = [];
  // The instance and method callPlain last checked; NONE matches no instance, not even a missing one.
  const NONE = {};
  let checkedInstance: unknown = NONE;
  let checkedMethod = '';

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
  const invoke = (target: number, method: string, kinds: string, args: unknown[]): unknown => {
    const instance = instances[target];
    const fn = methodOf(instance, method);
    return apply(fn, instance, rebuild(kinds, args));
  };
  const call = (target: number, method: string, kinds: string, ...args: unknown[]): number => {
    try {
      return reply(invoke(target, method, kinds, args));
    } catch (error) {
      return threw(error);
    }
  };

  return {
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
    construct(target, kinds, ...args) {
      try {
        // Called as LeetCode calls it: plainly, `this` undefined.
        if (learnerIsFunction)
          return reply(apply(Learner as () => unknown, undefined, rebuild(kinds, args)));
        // Defined, not assigned: an assignment past the end would call a setter learner code may
        // have put on Array.prototype, handing it the instance instead of keeping it.
        defineProperty(instances, target, {
          value: construct(Learner as new () => unknown, rebuild(kinds, args)),
          writable: true,
          enumerable: true,
          configurable: true,
        });
        out[1] = null;
        return 0;
      } catch (error) {
        return threw(error);
      }
    },
    call,
    callPlain(target, method, count, a, b, fields = -1) {
      try {
        const instance = instances[target] as Record<string, (...args: unknown[]) => unknown>;
        // The same method of the same instance, call after call: it was checked the first time.
        if (instance !== checkedInstance || method !== checkedMethod) {
          if (typeof instance?.[method] !== 'function') {
            // Spelled out: spreading a list would call Array.prototype's iterator, which learner
            // code may have replaced by now.
            if (count === 0) return call(target, method, '');
            return count === 1 ? call(target, method, '', a) : call(target, method, '', a, b);
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
    invoke,
    dropInstances() {
      instances = [];
      checkedInstance = NONE;
    },
    reset() {
      instances = [];
      checkedInstance = NONE;
    },
  };
}
