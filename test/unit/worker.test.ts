// The child's side of the judge (harness/judge/child/worker.ts), driven in-process by faking its IPC
// channel: it opens a problem (its runner in this realm), loads the learner's compiled code into a
// sealed realm of its own, runs cases, closes.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { compileLearner, runnerBundle } from '../../harness/judge/compile.ts';
import type { ChildMessage, ParentMessage } from '../../harness/judge/child/protocol.ts';
import { findProblem, loadProblems } from '../../harness/judge/problems.ts';
import { recentCounter, scratchDir, writeLearnerFile } from '../helpers.ts';

const problem = findProblem(loadProblems(), '933')!;
const dir = scratchDir('worker');
const originalSend = process.send;
let sent: ChildMessage[] = [];
let runner: string;
let handleMessage: (message: ParentMessage) => void;

beforeAll(async () => {
  // The vitest worker keeps its own reference to send; this one only sees what the worker sends.
  // worker.ts takes process.send when it is first imported, so it is imported only after this.
  process.send = ((message: ChildMessage) => {
    sent.push(message);
    return true;
  }) as typeof process.send;
  ({ handleMessage } = await import('../../harness/judge/child/worker.ts'));
  runner = await runnerBundle(problem.suiteFile);
});

afterAll(() => {
  process.send = originalSend;
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
  const listed = post({ type: 'open', runner, learnerFile, className: 'RecentCounter' });
  expect(listed[0]?.type).toBe('cases');
  return post({ type: 'load', code: compiled.code, libraries: compiled.libraries });
}

type Run = { result: { status: string; message: string; stack: string }; output: string };

const correct = `this.times.push(t); while (this.times[0] < t - this.window) this.times.shift(); return this.times.length;`;

describe('the judge child', () => {
  test('lists the cases, loads the learner, runs a case and closes', async () => {
    expect(await open('ok', recentCounter(correct))).toEqual([{ type: 'ready', output: '' }]);
    const [result] = post({ type: 'run', index: 0 });
    expect(result).toMatchObject({
      type: 'result',
      index: 0,
      result: { status: 'passed', name: 'statement example' },
      output: '',
    });
    expect(post({ type: 'close' })).toEqual([]);
    // Nothing open: loads and runs are ignored.
    expect(post({ type: 'load', code: '', libraries: [] })).toEqual([]);
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

  test('process does not exist in the learner realm: process.exit is a ReferenceError, with their stack', async () => {
    const exitBefore = process.exit;
    expect(await open('exits', recentCounter('process.exit(3);'))).toMatchObject([
      { type: 'ready' },
    ]);
    const [message] = post({ type: 'run', index: 0 });
    const { result } = message as Run;
    expect(result.status).toBe('runtime-error');
    expect(result.message).toBe('ReferenceError: process is not defined');
    expect(result.stack).toMatch(/exits\.ts:\d+:\d+/);
    // The judge's own process is left as it was: nothing in it was patched or reached.
    expect(process.exit).toBe(exitBefore);
  });

  test('the learner realm holds no process, require or judge object', async () => {
    const probe =
      `for (const name of ['process', 'require', 'module', 'Buffer', 'fetch', '__kataRunner']) ` +
      `if (name in globalThis) throw new Error(name + ' is reachable');\n${correct}`;
    await open('escape', recentCounter(probe));
    const [message] = post({ type: 'run', index: 0 });
    expect((message as Run).result).toMatchObject({ status: 'passed' });
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
    expect((message as Run).result.status).toBe('passed');
    expect([1].push(2)).toBe(2);
  });

  test('what the learner prints is kept in their realm and travels in the messages', async () => {
    const write = vi.spyOn(process.stdout, 'write');
    const loaded = await open(
      'prints',
      recentCounter(`console.log('ping', t, { seen: this.times.length });\n${correct}`) +
        `console.error('loaded');\n`,
    );
    expect(loaded).toEqual([{ type: 'ready', output: 'loaded\n' }]);
    const [message] = post({ type: 'run', index: 0 });
    expect((message as Run).result.status).toBe('passed');
    expect((message as Run).output).toBe(
      'ping 1 {"seen":0}\nping 100 {"seen":1}\nping 3001 {"seen":2}\nping 3002 {"seen":3}\n',
    );
    // Drained with each message: the next run starts with nothing printed.
    expect((post({ type: 'run', index: 0 })[0] as Run).output).toMatch(/^ping 1 /);
    // None of it reached the judge's own stdout.
    expect(write.mock.calls.flat().join('')).not.toContain('ping 1');
    write.mockRestore();
  });

  test('timers do not exist for learner code: starting one at load is a runtime error', async () => {
    const timers = (): number =>
      process.getActiveResourcesInfo().filter((r) => r === 'Timeout' || r === 'Immediate').length;
    const before = timers();
    const [message] = await open(
      'timers',
      `setInterval(() => console.log('tick'), 5);\nsetTimeout(() => {}, 10_000);\nsetImmediate(() => {});\n${recentCounter(correct)}`,
    );
    expect(message).toMatchObject({ type: 'load-failed', status: 'runtime-error' });
    expect((message as { message: string }).message).toMatch(
      /^loading the solution threw Error: timers are not available here/,
    );
    expect((message as { stack: string }).stack).toMatch(/timers\.ts:1:\d+/);
    post({ type: 'close' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(timers()).toBeLessThanOrEqual(before);
  });
});
