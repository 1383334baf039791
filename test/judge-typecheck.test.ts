// Type errors are compile errors, as on LeetCode: the learner's file is checked with LeetCode's
// compiler options (not full strict: JavaScript-style code still compiles), and only errors in
// that file count. One checker serves the whole file's judgements.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { judge } from '../harness/judge/judge.ts';
import { findProblem, loadProblems } from '../harness/judge/problems.ts';
import {
  checkTypes,
  formatTypeErrors,
  typeErrorMessage,
  warmTypeChecker,
} from '../harness/judge/typecheck.ts';
import {
  serveTypeChecks,
  type CheckReply,
  type CheckRequest,
} from '../harness/judge/typecheck/server.ts';
import { checkerSetup, GLOBALS_FILE } from '../harness/judge/typecheck/setup.ts';
import { PROBLEMS_DIR, REPO_ROOT, SCRATCH_DIR, SOLUTIONS_DIR } from '../harness/paths.ts';
import { copyRepo } from '../scripts/lib/repo-copy.ts';
import { correctPing, recentCounter, scratchDir, writeLearnerFile } from './helpers.ts';

const problems = loadProblems();
const problem933 = findProblem(problems, '933')!;
const dir = scratchDir('typecheck');
const shown = (file: string): string => path.relative(process.cwd(), file);

describe('type errors', () => {
  test('`const n: string = 5` is a compile error naming the file, line, column and message', async () => {
    const stub = readFileSync(problem933.stubFile, 'utf8');
    const file = writeLearnerFile(dir, 'string-five.ts', `${stub}\nconst n: string = 5;\n`);
    const line = stub.split('\n').length + 1;
    const report = await judge({ problem: problem933, solutionFile: file });
    expect(report.verdict).toBe('compile-error');
    expect(report.message).toBe(
      `${shown(file)}:${line}:7: error TS2322: Type 'number' is not assignable to type 'string'.\n` +
        `    const n: string = 5;`,
    );
    // Nothing ran: every case is reported skipped, as for any compile error.
    expect(report.cases.length).toBeGreaterThan(0);
    for (const c of report.cases) {
      expect(c.status).toBe('skipped');
      expect(c.message).toBe('not run: the solution does not compile');
    }
    expect(report.output).toBe('');
  });

  test('a type error in a correct solution still fails it, and stops cases already running', async () => {
    const file = writeLearnerFile(
      dir,
      'loops-and-mistyped.ts',
      recentCounter(`if (t > 0) { for (;;) {} } ${correctPing}`, 'const limit: number = "3000";\n'),
    );
    const onDecided = vi.fn();
    const report = await judge({ problem: problem933, solutionFile: file, onDecided });
    expect(report.verdict).toBe('compile-error');
    expect(report.message).toContain(
      `${shown(file)}:1:7: error TS2322: Type 'string' is not assignable to type 'number'.`,
    );
    expect(report.cancelled).toBeUndefined();
    // The verdict a learner is told is never one that the check then takes back.
    for (const [verdict] of onDecided.mock.calls) expect(verdict).not.toBe('accepted');
  });

  test('every error is listed, with a chain of reasons indented under its first line', async () => {
    const file = writeLearnerFile(
      dir,
      'several.ts',
      `export class RecentCounter {
  times: number[] = [];
  ping(t: number): number {
    const pair: { a: { b: number } } = { a: { b: 'x' } };
    this.times.push(String(t));
    return pair.a.b;
  }
}
`,
    );
    const errors = (await checkTypes(file))!;
    expect(errors.map((e) => [e.line, e.column, e.code])).toEqual([
      [4, 47, 2322],
      [5, 21, 2345],
    ]);
    expect(errors[1]!.message).toBe(
      "Argument of type 'string' is not assignable to parameter of type 'number'.",
    );
    const message = formatTypeErrors(errors);
    expect(message.split('\n').filter((l) => l.includes('error TS'))).toHaveLength(2);
  });

  test('JavaScript-style code (untyped parameters, implicit any) compiles, console included', async () => {
    const file = writeLearnerFile(
      dir,
      'javascript-style.ts',
      `export class RecentCounter {
  queue = [];
  head = 0;
  ping(t) {
    this.queue.push(t);
    while (this.queue[this.head] < t - 3000) this.head++;
    console.log('window', this.queue.length - this.head);
    return this.queue.length - this.head;
  }
}

function unused(a, b) {
  let x;
  x = a + b;
  return x.length;
}
`,
    );
    expect(await checkTypes(file)).toEqual([]);
    const report = await judge({ problem: problem933, solutionFile: file, followUps: () => false });
    expect(report.verdict, report.message).toBe('accepted');
  });

  test('a file with `// @ts-nocheck` is not checked', async () => {
    const file = writeLearnerFile(
      dir,
      'nocheck.ts',
      `// @ts-nocheck\n${recentCounter(correctPing, 'const n: string = 5;\n')}`,
    );
    const report = await judge({ problem: problem933, solutionFile: file, followUps: () => false });
    expect(report.verdict, report.message).toBe('accepted');
  });

  test('past ten errors, the message says how many more; a check no longer waited for is let go', async () => {
    const lines = Array.from({ length: 12 }, (_, i) => `const n${i}: string = ${i};`);
    const file = writeLearnerFile(dir, 'twelve.ts', `${lines.join('\n')}\nexport {};\n`);
    const message = (await typeErrorMessage(file))!;
    expect(message.split('\n').filter((l) => l.includes('error TS2322'))).toHaveLength(10);
    expect(message).toMatch(/\n… and 2 more type errors$/);
    // Text never checked before (answers are kept by content), so that the check is still running.
    const fresh = writeLearnerFile(
      dir,
      'twelve-again.ts',
      `// ${process.pid} ${Date.now()}\n${lines.join('\n')}\nexport {};\n`,
    );
    const controller = new AbortController();
    const abandoned = checkTypes(fresh, { signal: controller.signal });
    controller.abort();
    expect(await abandoned).toBeUndefined();
    expect(await checkTypes(file, { signal: controller.signal })).toBeUndefined();
    // A warm-up (kata, watching) is a check like another, that nobody waits for.
    expect(await warmTypeChecker(file)).toBe(message);
  });

  test("only the learner's own file counts, not errors it causes elsewhere", async () => {
    // A script (no import or export) declares its names globally: this `_` clashes with lodash's
    // in problems/leetcode-globals.d.ts, and TypeScript reports the clash in both files.
    const file = writeLearnerFile(dir, 'clash.ts', 'const _ = 1;\nclass RecentCounter {}\n');
    const errors = (await checkTypes(file))!;
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) expect(path.resolve(error.file)).toBe(file);
    expect(formatTypeErrors(errors)).not.toContain(path.basename(GLOBALS_FILE));
  });

  test('a design-track file kept outside the repo resolves its type import as in its folder', async () => {
    const problem = findProblem(problems, 'fixed-window-limiter')!;
    const stub = readFileSync(problem.stubFile, 'utf8');
    const home = path.dirname(problem.stubFile);
    const file = writeLearnerFile(dir, 'fixed-window.ts', stub);
    expect(await checkTypes(file, { home })).toEqual([]);
    // And the contract's types are checked: a method that answers the wrong shape is an error.
    const wrong = writeLearnerFile(
      dir,
      'fixed-window-wrong.ts',
      stub.replace(
        "throw new Error('Not implemented: FixedWindowLimiter.peek');",
        'return { allowed: true };',
      ),
    );
    const errors = (await checkTypes(wrong, { home }))!;
    expect(errors.map((e) => e.code)).toContain(2739);
  });
});

describe('kata, watching', () => {
  test('type errors in the file as opened, then in a save, end in a Compile Error report', async () => {
    const repo = copyRepo(scratchDir('typecheck-watch'));
    const stub = path.join(repo, 'problems', problem933.dir, 'solution.ts');
    const reference = readFileSync(problem933.referenceFile, 'utf8');
    writeFileSync(stub, `${reference}\nconst opened: string = 1;\n`);
    const child = spawn(process.execPath, ['scripts/launch.mjs', 'kata', '933', '--watch'], {
      cwd: repo,
      env: { ...process.env, NO_COLOR: '1', KATA_STATE_DIR: path.join(repo, '.kata') },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const waitFor = (pattern: RegExp, from: number): Promise<void> =>
      new Promise((resolve, reject) => {
        const timer = setInterval(() => {
          if (pattern.test(output.slice(from))) {
            clearInterval(timer);
            clearTimeout(deadline);
            resolve();
          }
        }, 10);
        const deadline = setTimeout(() => {
          clearInterval(timer);
          reject(new Error(`timed out waiting for ${pattern}:\n${output}`));
        }, 60_000);
      });
    try {
      // Judged at once without waiting for the checker (the reference runs: Accepted), then again
      // once the checker, started beside it, has found the error.
      await waitFor(/Accepted\s+\(cases/, 0);
      await waitFor(/Compile Error\s+\(cases/, 0);
      // (Reports are wrapped to 80 columns.)
      const flat = (text: string): string => text.replace(/\s+/g, ' ');
      expect(flat(output)).toMatch(
        /solution\.ts:\d+:7: error TS2322: Type 'number' is not assignable to type 'string'\. const opened/,
      );
      let mark = output.length;
      writeFileSync(stub, reference);
      await waitFor(/Accepted\s+\(cases/, mark);
      mark = output.length;
      writeFileSync(stub, `${reference}\nconst saved: number = 'x';\n`);
      await waitFor(/Compile Error\s+\(cases/, mark);
      expect(flat(output.slice(mark))).toMatch(
        /error TS2322: Type 'string' is not assignable to type 'number'\. const saved/,
      );
      child.stdin.write('q');
      expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(0);
    } finally {
      child.kill();
      rmSync(repo, { recursive: true, force: true });
    }
  });
});

describe("the checker's worker program, run in this thread", () => {
  const load = createRequire(import.meta.url);
  /** Serves checks as the worker does; returns a function that sends one and gives the reply. */
  function serve(
    loader: (id: string) => unknown,
    yieldCpu = false,
  ): (request: CheckRequest) => CheckReply {
    let listener: ((request: CheckRequest) => void) | undefined;
    const replies: CheckReply[] = [];
    const port = {
      on: (_event: 'message', on: (request: CheckRequest) => void) => {
        listener = on;
      },
      postMessage: (reply: CheckReply) => replies.push(reply),
    };
    const setup = { ...checkerSetup(load.resolve('typescript'), false), yieldCpu };
    serveTypeChecks(port, loader, setup);
    return (request) => {
      listener!(request);
      return replies.at(-1)!;
    };
  }

  test('answers each check with the errors of the text it is sent, and the files it also read', () => {
    const check = serve(load);
    const file = path.join(dir, 'served.ts');
    expect(check({ id: 1, file, text: 'export const n: string = 5;\n', home: undefined })).toEqual({
      id: 1,
      errors: [
        {
          line: 1,
          column: 14,
          code: 2322,
          message: "Type 'number' is not assignable to type 'string'.",
          lineText: 'export const n: string = 5;',
        },
      ],
      inputs: [],
    });
    // Saved again, fixed, and using a LeetCode global: the program follows the text, and the
    // globals' declarations are among what the answer rests on.
    const fixed = check({
      id: 2,
      file,
      text: 'export const n: number = _.sum([5]);\n',
      home: undefined,
    });
    expect(fixed).toEqual({ id: 2, errors: [], inputs: [GLOBALS_FILE.split(path.sep).join('/')] });
  });

  test('for watch mode it gives way, and a design-track copy resolves its import from its folder', () => {
    const priorities: number[] = [];
    // The thread's priority is lowered through node:os (faked here: this thread is the test's).
    const check = serve(
      (id) => (id === 'node:os' ? { setPriority: (p: number) => priorities.push(p) } : load(id)),
      true,
    );
    expect(priorities).toEqual([10]);
    const problem = findProblem(problems, 'sliding-window-log-limiter')!;
    const file = writeLearnerFile(dir, 'log-limiter.ts', readFileSync(problem.stubFile, 'utf8'));
    const home = path.dirname(problem.stubFile);
    const text = readFileSync(file, 'utf8');
    const resolved = check({ id: 1, file, text, home });
    expect(resolved).toMatchObject({ id: 1, errors: [] });
    // The contract it imports is part of what the answer rests on.
    expect('inputs' in resolved && resolved.inputs).toEqual([
      path.join(PROBLEMS_DIR, 'rate-limiter-contract.ts').split(path.sep).join('/'),
    ]);
    const unresolved = check({ id: 2, file, text, home: undefined });
    expect('errors' in unresolved && unresolved.errors.map((e) => e.code)).toContain(2307);
  });

  test('without TypeScript, every check is answered "unavailable"', () => {
    const check = serve(() => {
      throw new Error("Cannot find module 'typescript'");
    });
    expect(check({ id: 9, file: 'x.ts', text: '', home: undefined })).toEqual({
      id: 9,
      unavailable: "Error: Cannot find module 'typescript'",
    });
  });
});

describe('answers kept by content', () => {
  test('a file checked before is answered from the cache, and only while what it read is unchanged', async () => {
    const own = scratchDir('typecheck-kept');
    // A learner file that imports a type from a file beside it: the answer rests on both.
    const shape = writeLearnerFile(own, 'shape.ts', 'export type Count = number;\n');
    const text = "import type { Count } from './shape.ts';\nexport const n: Count = 5;\n";
    const file = writeLearnerFile(own, 'uses-shape.ts', text);
    expect(await checkTypes(file)).toEqual([]);
    const kept = readdirSync(path.join(SCRATCH_DIR, 'typecheck'));
    expect(kept.length).toBeGreaterThan(0);
    // The imported file changes: the kept answer no longer holds, and the file is checked again.
    writeFileSync(shape, 'export type Count = string;\n');
    expect((await checkTypes(file))?.map((e) => e.code)).toEqual([2322]);
    // Checked once more, unchanged, the answer comes from the cache: the same, asking no worker.
    const asked = vi.spyOn(Worker.prototype, 'postMessage');
    try {
      const again = await checkTypes(file);
      expect(again?.map((e) => e.code)).toEqual([2322]);
      expect(asked).not.toHaveBeenCalled();
    } finally {
      asked.mockRestore();
    }
  });
});

describe('everything shipped type-checks clean', () => {
  const dirs = readdirSync(SOLUTIONS_DIR).sort();
  const files = dirs.flatMap((name) => [
    path.join(SOLUTIONS_DIR, name, 'solution.ts'),
    path.join(SOLUTIONS_DIR, name, 'stub.ts'),
    path.join(PROBLEMS_DIR, name, 'solution.ts'),
  ]);
  test.each(files.map((file) => [path.relative(REPO_ROOT, file), file]))('%s', async (_, file) => {
    const errors = await checkTypes(file, {
      home: path.join(PROBLEMS_DIR, path.basename(path.dirname(file))),
    });
    expect(errors && formatTypeErrors(errors)).toBe('');
  });
});

describe('without the typescript package', () => {
  afterEach(() => {
    vi.doUnmock('node:module');
    vi.resetModules();
  });

  test('nothing is checked and the judge works as before', async () => {
    vi.resetModules();
    vi.doMock('node:module', async (importOriginal) => {
      const real = await importOriginal<typeof import('node:module')>();
      const createRequire = (from: string) => {
        const require = real.createRequire(from);
        const resolve = (id: string) => {
          if (id === 'typescript') throw new Error("Cannot find module 'typescript'");
          return require.resolve(id);
        };
        return Object.assign((id: string) => require(id), require, { resolve });
      };
      return { ...real, default: { ...real, createRequire }, createRequire };
    });
    const fresh = await import('../harness/judge/judge.ts');
    const typecheck = await import('../harness/judge/typecheck.ts');
    const file = writeLearnerFile(
      dir,
      'unchecked.ts',
      recentCounter(correctPing, 'const n: string = 5;\n'),
    );
    expect(await typecheck.checkTypes(file)).toBeUndefined();
    const report = await fresh.judge({
      problem: problem933,
      solutionFile: file,
      followUps: () => false,
    });
    expect(report.verdict).toBe('accepted');
  });
});
