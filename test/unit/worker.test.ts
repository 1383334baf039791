// The child's side of the judge (harness/judge/child/worker.ts), driven in-process by faking its IPC
// channel: it opens a problem in a vm context, loads the learner's bundle, runs cases, closes.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { compileLearner, runnerBundle } from '../../harness/judge/compile.ts';
import type { ChildMessage, ParentMessage } from '../../harness/judge/child/protocol.ts';
import { handleMessage } from '../../harness/judge/child/worker.ts';
import { findProblem, loadProblems } from '../../harness/judge/problems.ts';
import { recentCounter, scratchDir, writeLearnerFile } from '../helpers.ts';

const problem = findProblem(loadProblems(), '933')!;
const dir = scratchDir('worker');
const original = { send: process.send, exit: process.exit };
let sent: ChildMessage[] = [];
let runner: string;

beforeAll(async () => {
  // The vitest worker keeps its own reference to send; this one only sees what the worker sends.
  process.send = ((message: ChildMessage) => {
    sent.push(message);
    return true;
  }) as typeof process.send;
  runner = await runnerBundle(problem.suiteFile);
});

afterAll(() => {
  process.send = original.send;
  process.exit = original.exit;
});

function post(message: ParentMessage): ChildMessage[] {
  sent = [];
  handleMessage(message);
  return sent;
}

async function open(name: string, source: string): Promise<ChildMessage[]> {
  const learnerFile = writeLearnerFile(dir, `${name}.ts`, source);
  const compiled = await compileLearner(learnerFile);
  if (!compiled.ok) throw new Error(compiled.message);
  const listed = post({
    type: 'open',
    runner,
    learnerBundle: compiled.bundle,
    learnerFile,
    className: 'RecentCounter',
  });
  expect(listed[0]?.type).toBe('cases');
  return post({ type: 'load' });
}

const correct = `this.times.push(t); while (this.times[0] < t - this.window) this.times.shift(); return this.times.length;`;

describe('the judge child', () => {
  test('lists the cases, loads the learner, runs a case and closes', async () => {
    expect(await open('ok', recentCounter(correct))).toEqual([{ type: 'ready' }]);
    const [result] = post({ type: 'run', index: 0 });
    expect(result).toMatchObject({
      type: 'result',
      index: 0,
      result: { status: 'passed', name: 'statement example' },
    });
    expect(post({ type: 'close' })).toEqual([]);
    // Nothing open: loads and runs are ignored.
    expect(post({ type: 'load' })).toEqual([]);
    expect(post({ type: 'run', index: 0 })).toEqual([]);
  });

  test('a throw at load is a runtime error whose stack points at the learner source', async () => {
    const [message] = await open(
      'top-throw',
      `\nthrow new TypeError('at load');\n${recentCounter(correct)}`,
    );
    expect(message).toMatchObject({ type: 'load-failed', status: 'runtime-error' });
    expect((message as { message: string }).message).toBe(
      'loading the solution threw TypeError: at load',
    );
    expect((message as { stack: string }).stack).toMatch(/top-throw\.ts:2:\d+/);
  });

  test('a missing class is a compile error that lists what is exported', async () => {
    const [message] = await open('misnamed', 'export class Counter {}\nexport const x = 1;');
    expect(message).toMatchObject({ type: 'load-failed', status: 'compile-error' });
    expect((message as { message: string }).message).toMatch(
      /must export a class named RecentCounter \(it exports: Counter, x\)/,
    );
    const [empty] = await open('empty', 'export {};');
    expect((empty as { message: string }).message).toMatch(/\(it exports nothing\)/);
  });

  test('process.exit becomes an exception of the learner realm, with their stack', async () => {
    await open('exits', recentCounter('process.exit(3);'));
    const [message] = post({ type: 'run', index: 0 });
    const result = (message as { result: { status: string; message: string; stack: string } })
      .result;
    expect(result.status).toBe('runtime-error');
    expect(result.message).toBe(
      'ProcessExitError: process.exit(3) was called; a solution must return instead',
    );
    expect(result.stack).toMatch(/exits\.ts:\d+:\d+/);
  });

  test('each problem gets its own globals: a patched built-in does not leak to the next one', async () => {
    await open(
      'patches',
      `Array.prototype.push = function () { return 0; };\n${recentCounter(correct)}`,
    );
    post({ type: 'run', index: 0 });
    post({ type: 'close' });
    await open('clean', recentCounter(correct));
    const [message] = post({ type: 'run', index: 0 });
    expect((message as { result: { status: string } }).result.status).toBe('passed');
    expect([1].push(2)).toBe(2);
  });

  test('timers the learner started are cleared when the problem closes', async () => {
    await open(
      'timers',
      `setInterval(() => console.log('tick'), 5);\nsetTimeout(() => {}, 10_000);\nsetImmediate(() => {});\n${recentCounter(correct)}`,
    );
    post({ type: 'close' });
    const before = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(
      process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length,
    ).toBeLessThanOrEqual(before);
  });
});
