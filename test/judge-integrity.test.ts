// Hostile solutions: each tries a way to forge a verdict, poison later gradings or reach the judge
// from learner code, and each must get the verdict its real behaviour earns. Every attack here
// worked against the judge before learner code was sealed in a realm of its own.
import { readdirSync, renameSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { compileLearner } from '../harness/judge/compile.ts';
import { readVerified } from '../harness/judge/verified-file.ts';
import { SCRATCH_DIR } from '../harness/paths.ts';
import { judge, releaseSlot, type SessionSlot } from '../harness/judge/judge.ts';
import { findProblem, loadProblems } from '../harness/judge/problems.ts';
import { recentCounter, scratchDir, writeLearnerFile } from './helpers.ts';

const problems = loadProblems();
const p933 = findProblem(problems, '933')!;
const p346 = findProblem(problems, '346')!;
const p362 = findProblem(problems, '362')!;
const dir = scratchDir('integrity');

/**
 * The attacks below reach for `process`, `require` and casts that TypeScript refuses: a learner who
 * wants them to run opts out of the type check, as `// @ts-nocheck` allows. What is tested here is
 * what the code can do once it runs.
 */
const UNCHECKED = '// @ts-nocheck\n';

async function judgeSource(name: string, source: string, problem = p933, slot?: SessionSlot) {
  const solutionFile = writeLearnerFile(dir, `${name}.ts`, UNCHECKED + source);
  return judge({ problem, solutionFile, slot });
}

/** Judges only as far as the first case that fails: enough for a verdict, quick for a loop. */
async function firstVerdict(name: string, source: string) {
  const solutionFile = writeLearnerFile(dir, `${name}.ts`, UNCHECKED + source);
  return judge({ problem: p933, solutionFile, budgetMs: 1 });
}

/** A ping that is always wrong: it never counts anything. */
const wrongPing = `return 0;`;
/** A ping that never returns. */
const loopingPing = `for (;;) {}`;

describe('a verdict cannot be forged from learner code', () => {
  test('the runner is out of reach: replacing it changes nothing', async () => {
    const report = await judgeSource(
      'runner',
      recentCounter(
        wrongPing,
        `const g = globalThis as any;
         for (const key of Object.getOwnPropertyNames(g)) {
           const v = g[key];
           if (v && typeof v === 'object' && typeof v.run === 'function') v.run = () => ({ status: 'passed' });
         }
         g.__kataRunner = { run: () => ({ status: 'passed' }), cases: [] };`,
      ),
    );
    expect(report.verdict).toBe('wrong-answer');
  });

  test('patching the built-ins the comparison could use changes nothing', async () => {
    const report = await judgeSource(
      'builtins',
      recentCounter(
        wrongPing,
        `Object.is = () => true; JSON.stringify = () => '"same"';
         Array.isArray = () => false; Object.keys = () => [];`,
      ),
    );
    expect(report.verdict).toBe('wrong-answer');
    const moving = await judgeSource(
      'math-abs',
      `Math.abs = () => 0;
       export class MovingAverage {
         constructor(private size: number) {}
         next(val: number): number { return val * 1000 + 0.5; }
       }`,
      p346,
    );
    expect(moving.verdict).toBe('wrong-answer');
  });

  test('the process, its IPC channel and require are not there to wrap', async () => {
    for (const [name, attack] of [
      ['send', `(process as any).send = () => true;`],
      ['listeners', `process.removeAllListeners('message'); process.on('message', () => {});`],
      ['require', `const r = 'require'; (globalThis as any)[r]('node:fs');`],
      ['module', `(module as any).exports = {};`],
    ] as const) {
      const report = await firstVerdict(`ipc-${name}`, recentCounter(loopingPing, attack));
      expect(report.verdict, name).toBe('runtime-error');
      expect(report.message, name).toMatch(
        /(ReferenceError|TypeError): .* (not defined|not a function)/,
      );
    }
  });

  test('the clock and memory gauges the judge uses cannot be reached', async () => {
    const tle = await firstVerdict(
      'clock',
      recentCounter(
        loopingPing,
        `try { (performance as any).now = () => 0; } catch {}
         try { (Date as any).now = () => 0; } catch {}
         try { (process as any).hrtime = () => [0, 0]; } catch {}`,
      ),
    );
    expect(tle.verdict).toBe('time-limit-exceeded');

    const hog = await judgeSource(
      'gauges',
      `try { (process as any).memoryUsage = () => ({ heapUsed: 0, arrayBuffers: 0 }); } catch {}
       try { (globalThis as any).gc = () => {}; } catch {}
       export class HitCounter {
         hits: number[] = [];
         hit(t: number): void { this.hits.push(t); }
         getHits(t: number): number { let n = 0; for (const h of this.hits) if (h > t - 300) n++; return n; }
       }`,
      p362,
    );
    const memory = hog.cases.find((c) => c.trap === 'bounded-memory');
    expect(memory?.status).toBe('memory-limit-exceeded');
  });

  test('code cannot be made from strings: no way back through a constructor', async () => {
    for (const [name, attack] of [
      ['function-ctor', `(function () {}).constructor('return process')()`],
      ['global-ctor', `(globalThis as any).constructor.constructor('return process')()`],
      ['eval', `eval('process')`],
      ['new-function', `new Function('return this')()`],
    ] as const) {
      const report = await judgeSource(`gen-${name}`, recentCounter(`return ${attack};`));
      expect(report.verdict, name).toBe('runtime-error');
      expect(report.cases[0]?.message ?? report.message, name).toMatch(
        /EvalError|TypeError|not a function/,
      );
    }
  });

  test('a stack formatter cannot collect the judge call sites', async () => {
    for (const [name, attack] of [
      ['error-prepare', `(Error as any).prepareStackTrace = (e: unknown, cs: unknown) => cs;`],
      [
        'replace-error',
        `(globalThis as any).Error = { prepareStackTrace: (e: unknown, cs: unknown) => cs };`,
      ],
    ] as const) {
      const report = await judgeSource(`stack-${name}`, recentCounter(wrongPing, attack));
      expect(report.verdict, name).toBe('runtime-error');
      expect(report.message, name).toMatch(/TypeError: Cannot assign to read only property/);
    }
  });

  test('a solution may import nothing: not the answers, not Node, not a package', async () => {
    const reference = path.relative(dir, p933.referenceFile);
    for (const [name, line] of [
      ['answers', `export { RecentCounter } from '${reference}';`],
      [
        'esbuild-path',
        `export { RecentCounter } from 'esbuild/../../solutions/${p933.dir}/solution.ts';`,
      ],
      ['node', `import { readFileSync } from 'node:fs'; export const x = readFileSync;`],
      ['package', `import fc from 'fast-check'; export const x = fc;`],
    ] as const) {
      const report = await judgeSource(`import-${name}`, line);
      expect(report.verdict, name).toBe('compile-error');
      expect(report.message, name).toMatch(/may not import anything/);
    }
    // Type-only imports vanish when compiled, so they are fine.
    const typed = await judgeSource(
      'import-type',
      `import type { Suite } from '../../harness/suite.ts';\n${recentCounter(wrongPing)}`,
    );
    expect(typed.verdict).toBe('wrong-answer');
  });

  test('a dynamic import loads nothing', async () => {
    const source = recentCounter(
      `return (globalThis as any).fs ? 1 : 0;`,
      `const spec = 'node:' + 'fs';
       import(spec).then((fs) => { (globalThis as any).fs = fs; }, (e) => { throw e; });`,
    );
    const file = writeLearnerFile(dir, 'dynamic-import.ts', source);
    // import() never reaches the realm: it is compiled into a require() that the realm lacks.
    const compiled = await compileLearner(file);
    expect(compiled.ok && /\bimport\s*\(/.test(compiled.code)).toBe(false);
    const report = await judge({ problem: p933, solutionFile: file });
    expect(report.verdict).toBe('wrong-answer');
    expect(report.output).toMatch(/rejected and nothing handled it/);
  });

  test('patching Function.prototype.call steals nothing from the judge', async () => {
    const report = await judgeSource(
      'steal-call',
      recentCounter(
        `const found = (globalThis as any).__stolen; return found ? new found(3000).ping(t) : 0;`,
        `const call = Function.prototype.call;
         Function.prototype.call = function (this: any, ...args: any[]) {
           if (typeof this === 'function' && /class/.test(String(this))) (globalThis as any).__stolen = this;
           return call.apply(this, args as never);
         };`,
      ),
    );
    expect(report.verdict).toBe('wrong-answer');
  });

  test('learner values reach the judge only as copies', async () => {
    // A proxy and getters as answers: the judge reads them inside the learner's realm, as text.
    const report = await judgeSource(
      'proxy-answer',
      recentCounter(
        `return new Proxy({}, { get: () => () => { throw new Error('judge touched me'); } }) as any;`,
      ),
    );
    expect(report.verdict).toBe('wrong-answer');
    expect(JSON.stringify(report)).not.toMatch(/judge touched me/);
  });

  test("one problem's solution cannot disturb the next problem judged in the same child", async () => {
    const slot: SessionSlot = {};
    try {
      const hostile = await judgeSource(
        'neighbour',
        recentCounter(
          wrongPing,
          `try { (performance as any).now = () => 1e12; } catch {}
           try { (process as any).on('message', () => {}); } catch {}
           (Object.prototype as any).ok = true; (Array.prototype as any).push = () => 0;`,
        ),
        p933,
        slot,
      );
      expect(hostile.verdict).toBe('wrong-answer');
      const next = await judge({ problem: p362, solutionFile: p362.referenceFile, slot });
      expect(next.verdict).toBe('accepted');
      expect(next.cases.filter((c) => c.status !== 'passed')).toEqual([]);
    } finally {
      releaseSlot(slot);
    }
  });

  test('process.kill and child processes are not available to learner code', async () => {
    const report = await judgeSource(
      'signal',
      recentCounter(wrongPing, `(process as any).kill((process as any).ppid, 'SIGSTOP');`),
    );
    expect(report.verdict).toBe('runtime-error');
  });
});

describe('nothing persists from one grading to the next', () => {
  test('a cached bundle that was changed is not used', async () => {
    const file = writeLearnerFile(dir, 'cached.ts', recentCounter(wrongPing));
    const first = await compileLearner(file);
    expect(first.ok).toBe(true);
    const cached = readdirSync(SCRATCH_DIR)
      .filter((f) => f.startsWith('learner-') && f.endsWith('.js'))
      .map((f) => path.join(SCRATCH_DIR, f))
      .find((f) => readVerified(f) === (first as { code: string }).code);
    expect(cached).toBeDefined();
    writeFileSync(
      cached as string,
      'var __kataLearner = { RecentCounter: class { ping() { return 1; } } };',
    );
    expect(readVerified(cached as string)).toBeUndefined();
    const second = await compileLearner(file);
    expect(second).toEqual(first);
  });

  test('a solution.ts that was a symbolic link and becomes a file is judged as it is now', async () => {
    const linkDir = scratchDir('symlink');
    const target = writeLearnerFile(linkDir, 'target.ts', recentCounter(wrongPing));
    const link = path.join(linkDir, 'solution.ts');
    symlinkSync(target, link);
    expect((await judge({ problem: p933, solutionFile: link })).verdict).toBe('wrong-answer');
    unlinkSync(link);
    writeFileSync(`${link}.tmp`, recentCounter(loopingPing));
    renameSync(`${link}.tmp`, link);
    expect((await judge({ problem: p933, solutionFile: link, budgetMs: 1 })).verdict).toBe(
      'time-limit-exceeded',
    );
  });

  test('a dangling link or a loop of links gets a clear compile error', async () => {
    const linkDir = scratchDir('links');
    const dangling = path.join(linkDir, 'dangling.ts');
    symlinkSync(path.join(linkDir, 'missing.ts'), dangling);
    const a = path.join(linkDir, 'a.ts');
    const b = path.join(linkDir, 'b.ts');
    symlinkSync(b, a);
    symlinkSync(a, b);
    const one = await judge({ problem: p933, solutionFile: dangling });
    expect(one.verdict).toBe('compile-error');
    expect(one.message).toMatch(/symbolic link to .*missing\.ts, which does not exist/);
    const two = await judge({ problem: p933, solutionFile: a });
    expect(two.verdict).toBe('compile-error');
    expect(two.message).toMatch(/loops back on itself/);
  });
});
