// Async suites, judged end to end: a suite written to a temporary problem folder, learner files
// whose methods return promises, the real child process. The learners here use no timers (realms of
// async problems have setTimeout, see test/unit/realm-timers.test.ts): their promises settle by
// microtasks, or never.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { ChildMessage, ParentMessage } from '../harness/judge/child/protocol.ts';
import { compileLearner, runnerBundle } from '../harness/judge/compile.ts';
import { judge } from '../harness/judge/judge.ts';
import type { Problem } from '../harness/judge/problems.ts';
import { scratchDir, writeLearnerFile } from './helpers.ts';

const HARNESS_SUITE = path.resolve(import.meta.dirname, '../harness/suite.ts');
const CALL_DEADLINE_MS = 300;

/** A limiter of `limit` units per key, its count behind an await as if kept in a store. */
const REFERENCE = `
export class AsyncLimiter {
  private used = new Map<string, number>();
  constructor(private readonly limit: number) {}
  async allow(key: string, cost = 1): Promise<{ allowed: boolean; remaining: number }> {
    if (cost < 0) throw new RangeError('cost must not be negative');
    const used = this.used.get(key) ?? 0;
    const allowed = used + cost <= this.limit;
    if (allowed) this.used.set(key, used + cost);
    await null;
    return { allowed, remaining: this.limit - (allowed ? used + cost : used) };
  }
}`;

const SUITE = `
import { defineSuite, parallel, PARALLEL } from ${JSON.stringify(HARNESS_SUITE)};
${REFERENCE}
export default defineSuite({
  reference: AsyncLimiter,
  async: true,
  callDeadlineMs: ${CALL_DEADLINE_MS},
  cases: [
    {
      name: 'three calls',
      tier: 'example',
      trap: null,
      methods: ['AsyncLimiter', 'allow', 'allow', 'allow'],
      args: [[2], ['a'], ['a'], ['a']],
      expected: [null, { allowed: true, remaining: 1 }, { allowed: true, remaining: 0 }, { allowed: false, remaining: 0 }],
    },
    {
      name: 'a burst on one key',
      tier: 'core',
      trap: 'exact-under-concurrency',
      hint: 'read and write the count in one step',
      methods: ['AsyncLimiter', PARALLEL, 'allow'],
      args: [[3], Array.from({ length: 8 }, () => ({ method: 'allow', args: ['k'] })), ['k']],
      expected: [null, { where: { allowed: true }, between: [3, 3] }, { allowed: false, remaining: 0 }],
    },
    {
      name: 'one call on each of five instances',
      tier: 'core',
      trap: 'instances',
      hint: 'each instance counts for itself',
      generate: (emit) => {
        for (let i = 0; i < 5; i++) emit({ method: 'AsyncLimiter', args: [1], expected: null, target: i });
        emit(parallel(Array.from({ length: 5 }, (_, i) => ({ method: 'allow', args: ['k'], target: i })), { allowed: true }, [5, 5]));
      },
      describe: 'five instances, one call each, at once',
    },
    {
      name: 'a negative cost',
      tier: 'core',
      trap: 'bad-cost',
      hint: 'refuse it',
      methods: ['AsyncLimiter', 'allow'],
      args: [[1], ['a', -1]],
      expected: [null, { throws: 'RangeError' }],
    },
  ],
});`;

const root = scratchDir('async-judge');
const problemDir = path.join(root, 'async-limiter');
const suiteFile = writeLearnerFile(problemDir, 'suite.ts', SUITE);
writeFileSync(path.join(problemDir, 'solution.ts'), REFERENCE);

const problem: Problem = {
  title: 'Async limiter',
  difficulty: 'Medium',
  className: 'AsyncLimiter',
  order: 0,
  idea: 'answers that are promises',
  dir: 'async-limiter',
  id: 'async-limiter',
  slug: 'async-limiter',
  statementFile: path.join(problemDir, 'README.md'),
  stubFile: path.join(problemDir, 'stub.ts'),
  referenceFile: path.join(problemDir, 'solution.ts'),
  suiteFile,
  mistakesDir: path.join(problemDir, 'mistakes'),
};

const learners = path.join(root, 'learners');
async function judgeSource(name: string, source: string, budgetMs?: number) {
  const solutionFile = writeLearnerFile(learners, `${name}.ts`, `// @ts-nocheck\n${source}`);
  return judge({ problem, solutionFile, typeCheck: false, budgetMs });
}

/** The reference's class with `allow`'s body replaced. */
const limiter = (allow: string): string => `
export class AsyncLimiter {
  used = new Map();
  constructor(limit) { this.limit = limit; }
  allow(key, cost = 1) { ${allow} }
}`;

describe('async suites', () => {
  test('the reference, and a solution answering plain values, are accepted', async () => {
    const report = await judgeSource('reference', REFERENCE);
    expect(report.verdict).toBe('accepted');
    expect(report.cases.map((c) => c.status)).toEqual(['passed', 'passed', 'passed', 'passed']);
    const burst = report.cases[1]!;
    expect(burst.calls?.[1]).toMatchObject({
      method: 'parallel',
      args: '8× allow("k")',
      expected: '3 of 8 match {allowed:true}',
      actual: '3 of 8 match {allowed:true}',
      ok: true,
    });
    const plain = await judgeSource(
      'plain',
      limiter(`if (cost < 0) throw new RangeError('no');
        const used = this.used.get(key) ?? 0; const allowed = used + cost <= this.limit;
        if (allowed) this.used.set(key, used + cost);
        return { allowed, remaining: this.limit - (allowed ? used + cost : used) };`),
    );
    expect(plain.verdict).toBe('accepted');
  });

  test('read, await, write: the parallel step lets too many through and says how many', async () => {
    const report = await judgeSource(
      'racy',
      limiter(`return (async () => {
        if (cost < 0) throw new RangeError('no');
        const used = this.used.get(key) ?? 0;
        await null;
        const allowed = used + cost <= this.limit;
        if (allowed) this.used.set(key, used + cost);
        return { allowed, remaining: this.limit - (allowed ? used + cost : used) };
      })();`),
    );
    expect(report.verdict).toBe('wrong-answer');
    const burst = report.cases.find((c) => c.name === 'a burst on one key')!;
    expect(burst.status).toBe('failed');
    expect(burst.divergedAt).toBe(1);
    expect(burst.calls?.[1]).toMatchObject({
      expected: '3 of 8 match {allowed:true}',
      actual: '8 of 8 match {allowed:true}',
      ok: false,
    });
    expect(burst.hint).toBe('read and write the count in one step');
    // Single calls and one call per instance cannot show the race.
    expect(report.cases[0]?.status).toBe('passed');
    expect(report.cases[2]?.status).toBe('passed');
  });

  test('a rejection is a runtime error with its message and the learner’s stack', async () => {
    const report = await judgeSource(
      'rejects',
      limiter(`return Promise.reject(new Error('store down: ' + key));`),
    );
    expect(report.verdict).toBe('runtime-error');
    const first = report.cases[0]!;
    expect(first.status).toBe('runtime-error');
    expect(first.message).toBe('Error: store down: a');
    expect(first.stack).toMatch(/rejects\.ts:\d+/);
    // An expected exception may arrive as a rejection.
    const bad = await judgeSource(
      'rejects-bad-cost',
      REFERENCE.replace(
        "throw new RangeError('cost must not be negative')",
        "return Promise.reject(new RangeError('negative'))",
      ),
    );
    expect(bad.verdict).toBe('accepted');
  });

  test('a promise that never settles is a time limit at the call deadline, naming the call', async () => {
    const report = await judgeSource('hangs', limiter(`return new Promise(() => {});`));
    expect(report.verdict).toBe('time-limit-exceeded');
    expect(report.cases[0]).toMatchObject({
      status: 'time-limit-exceeded',
      message: `call 1 allow("a") did not settle within ${CALL_DEADLINE_MS} ms`,
    });
    expect(report.cases[1]?.message).toBe(
      `call 1 (8 calls at once): 8 did not settle within ${CALL_DEADLINE_MS} ms, the first allow("k") on instance 0`,
    );
    // Stopped by the call deadline, as the messages say: the 15 s wall backstop would have said
    // how long it waited and how little CPU it used. (The wall time, once held under the three
    // deadlines plus 4 s, is the machine's to stretch.)
    expect(report.cases.map((c) => c.message ?? '').join('\n')).not.toMatch(/of wall time/);
    // Waiting costs no CPU time.
    expect(report.cases[0]!.ms).toBeLessThan(CALL_DEADLINE_MS);
  });

  test('a thenable that resolves to itself forever is stopped like an endless loop', async () => {
    const report = await judgeSource(
      'self-thenable',
      limiter(`const t = { then(ok) { ok(t); } }; return t;`),
      1,
    );
    expect(report.verdict).toBe('time-limit-exceeded');
    expect(report.cases[0]?.message).toMatch(/^no answer within/);
  });

  test("a thenable's callbacks lead nowhere: the judge's process cannot be reached to forge a pass", async () => {
    const report = await judgeSource(
      'escape',
      limiter(`return { then(ok) {
        try {
          const proc = ok.constructor.constructor('return process')();
          proc.send({ type: 'result', index: 0, result: { name: 'three calls', status: 'passed', ms: 0 }, output: '' });
        } catch {}
        ok({ allowed: false, remaining: -1 });
      } };`),
    );
    expect(report.verdict).toBe('wrong-answer');
    expect(report.cases[0]?.status).toBe('failed');
  });
});

describe('the child, for an async case', () => {
  const originalSend = process.send;
  afterAll(() => {
    process.send = originalSend;
  });

  test('tells the parent how long the case may wait, then answers once the answers are awaited', async () => {
    const sent: ChildMessage[] = [];
    // worker.ts takes process.send when first imported: replaced first, as in worker.test.ts.
    process.send = ((message: ChildMessage) => {
      sent.push(message);
      return true;
    }) as typeof process.send;
    const { handleMessage } = (await import('../harness/judge/child/worker.ts')) as {
      handleMessage: (message: ParentMessage) => void;
    };
    const learnerFile = writeLearnerFile(learners, 'worker.ts', REFERENCE);
    const compiled = await compileLearner(learnerFile);
    if (!compiled.ok) throw new Error(compiled.message);
    handleMessage({
      type: 'open',
      runner: await runnerBundle(suiteFile),
      learnerFile,
      className: 'AsyncLimiter',
    });
    handleMessage({ type: 'load', code: compiled.code, libraries: compiled.libraries });
    expect(sent.map((m) => m.type)).toEqual(['cases', 'ready']);
    sent.length = 0;
    handleMessage({ type: 'run', index: 1 });
    // Listed and announced at once; the result comes once the answers have been awaited.
    expect(sent).toEqual([{ type: 'waiting', index: 1, ms: 3 * CALL_DEADLINE_MS }]);
    for (let i = 0; i < 200 && sent.length < 2; i++) await new Promise((r) => setTimeout(r, 5));
    expect(sent[1]).toMatchObject({ type: 'result', index: 1, result: { status: 'passed' } });
    handleMessage({ type: 'close' });
  });
});
