// Known-wrong implementations run in the judge's own realm when a failing case is replayed against
// them (mimic.ts). Some are wrong precisely about keys such as `__proto__`: one that writes through
// such a key writes on Object.prototype, of the judge's realm, where every later case and problem
// this child judges would see it. So the child notes the built-ins' own properties when it starts
// and puts them back after every case.

/** The built-ins whose properties a known-wrong implementation could reach through a key. */
const GUARDED: object[] = [
  Object,
  Function,
  Array,
  String,
  Number,
  Boolean,
  Symbol,
  BigInt,
  Map,
  Set,
  WeakMap,
  WeakSet,
  Promise,
  RegExp,
  Date,
  Error,
  TypeError,
  RangeError,
  Math,
  JSON,
].flatMap((builtin) =>
  typeof builtin === 'function' ? [builtin, builtin.prototype as object] : [builtin],
);

/** Notes the built-ins' own properties now; the function returned puts them back as they were. */
export function guardIntrinsics(): () => void {
  const noted = GUARDED.map((target) => ({
    target,
    descriptors: Object.getOwnPropertyDescriptors(target) as Record<
      PropertyKey,
      PropertyDescriptor
    >,
  }));
  return () => {
    for (const { target, descriptors } of noted) {
      for (const key of Reflect.ownKeys(target)) {
        if (!Object.hasOwn(descriptors, key)) Reflect.deleteProperty(target, key);
      }
      for (const key of Reflect.ownKeys(descriptors)) {
        const was = descriptors[key] as PropertyDescriptor;
        const now = Object.getOwnPropertyDescriptor(target, key);
        if (
          now === undefined ||
          now.value !== was.value ||
          now.get !== was.get ||
          now.set !== was.set ||
          now.writable !== was.writable ||
          now.enumerable !== was.enumerable
        ) {
          Reflect.defineProperty(target, key, was);
        }
      }
    }
  };
}
