// serve(): the child's side of the judge, driven in-process by faking its IPC channel.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { serve, type ChildMessage, type ParentMessage } from '../../harness/child/serve.ts';
import { defineSuite } from '../../harness/suite.ts';
import { scratchDir, writeLearnerFile } from '../helpers.ts';

class Counter {
  n = 0;
  inc(): number {
    return ++this.n;
  }
}

const suite = defineSuite({
  reference: Counter,
  cases: [
    {
      name: 'counts',
      tier: 'example',
      trap: null,
      methods: ['Counter', 'inc', 'inc'],
      args: [[], [], []],
      expected: [null, 1, 2],
    },
    {
      name: 'counts fast',
      tier: 'core',
      trap: 'speed',
      hint: 'Be quick.',
      timeLimitMs: 50,
      methods: ['Counter', 'inc', 'inc', 'inc'],
      args: [[], [], [], []],
      expected: [null, 1, 2, 3],
    },
  ],
});

const dir = scratchDir('serve');
let bundles = 0;
/** A learner bundle as the judge would compile it: plain ESM, a fresh file each time. */
function bundle(source: string): string {
  bundles += 1;
  return writeLearnerFile(dir, `learner-${bundles}.mjs`, source);
}

const original = {
  argv: process.argv,
  send: process.send,
  exit: process.exit,
  listeners: [] as ((...args: unknown[]) => void)[],
};
let sent: ChildMessage[];

beforeEach(() => {
  sent = [];
  original.listeners = process.listeners('message') as never;
  // The vitest worker keeps its own reference to send; this one only sees what serve() sends.
  process.send = ((message: ChildMessage) => {
    sent.push(message);
    return true;
  }) as typeof process.send;
});

afterEach(() => {
  process.argv = original.argv;
  process.send = original.send;
  process.exit = original.exit;
  for (const listener of process.listeners('message')) {
    if (!original.listeners.includes(listener as never)) process.off('message', listener);
  }
});

const parent = (message: ParentMessage): void => {
  (process as NodeJS.EventEmitter).emit('message', message);
};

/** Starts serve() on a bundle, lets it load, and returns what it sent. */
async function started(file: string, className = 'Counter'): Promise<ChildMessage[]> {
  process.argv = [process.argv[0] as string, 'runner.mjs', file, file, className];
  const serving = serve(suite);
  // Anything but a load request is ignored until the bundle has been loaded.
  parent({ type: 'run', index: 0 });
  expect(sent.map((m) => m.type)).toEqual(['cases']);
  parent({ type: 'load' });
  await serving;
  return sent;
}

describe('serve', () => {
  test('lists the cases before loading anything, with default limits filled in', async () => {
    const file = bundle('export class Counter { n = 0; inc() { return ++this.n; } }');
    const [cases] = await started(file);
    expect(cases?.type).toBe('cases');
    const listed = (cases as Extract<ChildMessage, { type: 'cases' }>).cases;
    expect(listed).toHaveLength(2);
    expect(listed[0]).toMatchObject({
      name: 'counts',
      tier: 'example',
      trap: null,
      hint: null,
      timeLimitMs: 1000,
    });
    expect(listed[1]).toMatchObject({ name: 'counts fast', hint: 'Be quick.', timeLimitMs: 50 });
  });

  test('imports nothing until the parent asks it to load', async () => {
    const file = bundle('export class Counter { n = 0; inc() { return ++this.n; } }');
    process.argv = [process.argv[0] as string, 'runner.mjs', file, file, 'Counter'];
    const serving = serve(suite);
    parent({ type: 'run', index: 0 });
    const early = await Promise.race([
      serving.then(() => 'served'),
      new Promise((resolve) => setTimeout(() => resolve('waiting'), 100)),
    ]);
    expect(early).toBe('waiting');
    expect(sent.map((m) => m.type)).toEqual(['cases']);
    parent({ type: 'load' });
    await serving;
    expect(sent.map((m) => m.type)).toEqual(['cases', 'ready']);
  });

  test('loads the bundle, says ready, then runs each case asked for', async () => {
    const file = bundle(
      'export class Counter { n = 0; inc() { return this.n === 2 ? 0 : ++this.n; } }',
    );
    await started(file);
    expect(sent.at(-1)).toEqual({ type: 'ready' });

    parent({ type: 'run', index: 0 });
    parent({ type: 'run', index: 1 });
    parent({ type: 'run', index: 99 });
    const results = sent.filter((m) => m.type === 'result');
    expect(results.map((m) => [m.index, m.result.name, m.result.status])).toEqual([
      [0, 'counts', 'passed'],
      [1, 'counts fast', 'failed'],
    ]);
  });

  test('process.exit becomes an exception once learner code may run', async () => {
    await started(bundle('export class Counter { inc() { process.exit(3); } }'));
    expect(() => process.exit(3)).toThrow(
      'process.exit(3) was called; a solution must return instead',
    );
    parent({ type: 'run', index: 0 });
    const result = sent.find((m) => m.type === 'result');
    expect(result?.type === 'result' && result.result).toMatchObject({
      status: 'runtime-error',
      message: 'ProcessExitError: process.exit(3) was called; a solution must return instead',
    });
  });

  test('a bundle that throws while loading is a runtime error with its stack', async () => {
    const file = bundle(
      'function boot() {\n  throw new TypeError("bad start");\n}\nboot();\nexport class Counter {}\n',
    );
    await started(file);
    const failed = sent.at(-1);
    expect(failed).toMatchObject({
      type: 'load-failed',
      status: 'runtime-error',
      message: 'loading the solution threw TypeError: bad start',
    });
    expect(failed?.type === 'load-failed' && failed.stack).toMatch(/learner-\d+\.mjs:2:\d+/);
    expect(sent.some((m) => m.type === 'ready')).toBe(false);
  });

  test('a bundle that throws a non-Error while loading is still reported', async () => {
    await started(bundle('throw "nope";\nexport class Counter {}\n'));
    expect(sent.at(-1)).toMatchObject({
      type: 'load-failed',
      status: 'runtime-error',
      message: 'loading the solution threw Error: nope',
    });
  });

  test('a bundle without the class is a compile error naming what it exports', async () => {
    const file = bundle('export class Count {}\nexport const helper = 1;\n');
    await started(file);
    expect(sent.at(-1)).toEqual({
      type: 'load-failed',
      status: 'compile-error',
      message: `${file} must export a class named Counter (it exports: Count, helper)`,
    });
    parent({ type: 'run', index: 0 });
    expect(sent.some((m) => m.type === 'result')).toBe(false);
  });

  test('a bundle that exports nothing says so', async () => {
    const file = bundle('const Counter = class {};\n');
    await started(file);
    expect(sent.at(-1)).toMatchObject({
      type: 'load-failed',
      status: 'compile-error',
      message: `${file} must export a class named Counter (it exports nothing)`,
    });
  });

  test('an export of the right name that is not a class is a compile error', async () => {
    await started(bundle('export const Counter = 42;\n'));
    expect(sent.at(-1)).toMatchObject({ type: 'load-failed', status: 'compile-error' });
  });
});
