// The child puts the built-ins back after every case (harness/sandbox/intrinsics.ts): code
// replayed in the judge's realm that writes through a key like `__proto__` must not bend the next
// case, or the next problem the same child judges.
import { expect, test } from 'vitest';
import { guardIntrinsics } from '../../harness/sandbox/intrinsics.ts';

test('added, replaced and deleted properties of the built-ins are put back', () => {
  const restore = guardIntrinsics();
  const push = Array.prototype.push;
  const get = Map.prototype.get;
  const keys = Object.keys;
  const stored: Record<string, { tokens?: number }> = {};
  try {
    // What a store kept in a plain object does with the key "__proto__".
    (stored['__proto__'] as { tokens?: number }).tokens = 5;
    expect(({} as { tokens?: number }).tokens).toBe(5);
    Array.prototype.push = () => 0;
    Object.defineProperty(Map.prototype, 'get', { value: () => 'bent', enumerable: true });
    delete (Object as { keys?: unknown }).keys;
    (Object as unknown as Record<string, number>).counter = 1;
  } finally {
    restore();
  }
  expect(Object.hasOwn(Object.prototype, 'tokens')).toBe(false);
  expect(({} as { tokens?: number }).tokens).toBeUndefined();
  expect(Array.prototype.push).toBe(push);
  expect(Map.prototype.get).toBe(get);
  expect(Object.getOwnPropertyDescriptor(Map.prototype, 'get')?.enumerable).toBe(false);
  expect(Object.keys).toBe(keys);
  expect(Object.hasOwn(Object, 'counter')).toBe(false);
});

test('nothing changed, nothing done: the same descriptors stay', () => {
  const before = Object.getOwnPropertyDescriptors(Array.prototype) as unknown as Record<
    PropertyKey,
    PropertyDescriptor
  >;
  guardIntrinsics()();
  const after = Object.getOwnPropertyDescriptors(Array.prototype) as unknown as Record<
    PropertyKey,
    PropertyDescriptor
  >;
  expect(Reflect.ownKeys(after)).toEqual(Reflect.ownKeys(before));
  for (const key of Reflect.ownKeys(before)) {
    const [was, now] = [before[key], after[key]] as PropertyDescriptor[];
    for (const field of [
      'value',
      'get',
      'set',
      'writable',
      'enumerable',
      'configurable',
    ] as const) {
      expect(Object.is(now?.[field], was?.[field]), `${String(key)}.${field}`).toBe(true);
    }
  }
});
