// A solution.ts that is no solution file (issue 21, finding 6): a named pipe hung grade and kata
// for ever, blocked in open(); a link to /dev/zero grew grade to 11 GB, read whole by the type
// checker. Each reader now reads through harness/read-file.ts: every bad file is one line, at once,
// and the other problems of a grade are judged as ever. The files are made here (a pipe cannot be
// committed); the links and the huge file are as a learner could make them.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { compileLearner } from '../harness/judge/compile.ts';
import { checkTypes } from '../harness/judge/typecheck.ts';
import { MAX_SOLUTION_BYTES, readRegularFile, readSolution } from '../harness/read-file.ts';
import { copyRepo } from '../scripts/lib/repo-copy.ts';
import { recentCounter, scratchDir } from './helpers.ts';

type Kind = 'pipe' | 'zero' | 'folder' | 'huge' | 'dangling';

/** What each bad file is said to be, in its one line. */
const SAID: Record<Kind, RegExp> = {
  pipe: /solution\.ts is a named pipe, not a regular file$/,
  zero: /solution\.ts is a link to \/dev\/zero \(a character device\), not a regular file$/,
  folder: /solution\.ts is a folder, not a regular file$/,
  huge: /solution\.ts is 3 GB: more than the 1 MB a solution can be$/,
  dangling: /solution\.ts is a symbolic link to .*nowhere\.ts, which does not exist$/,
};
const KINDS = Object.keys(SAID) as Kind[];

/** Puts a bad file of this kind at `file` (in place of whatever was there). */
function makeBad(kind: Kind, file: string): void {
  rmSync(file, { recursive: true, force: true });
  mkdirSync(path.dirname(file), { recursive: true });
  if (kind === 'pipe') spawnSync('mkfifo', [file]);
  if (kind === 'zero') symlinkSync('/dev/zero', file);
  if (kind === 'folder') {
    mkdirSync(file);
    writeFileSync(path.join(file, 'inside.ts'), 'export {};\n');
  }
  if (kind === 'huge') {
    writeFileSync(file, '');
    truncateSync(file, 3 * 1024 ** 3); // sparse: no disk is used
  }
  if (kind === 'dangling') symlinkSync(path.join(path.dirname(file), 'nowhere.ts'), file);
}

/** A report's lines joined, wrapping undone: a wrapped line reads as the one line it is. */
const unwrapped = (text: string): string => text.replace(/\n {2,}/g, ' ');

const within = async <T>(ms: number, work: Promise<T>): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
};

describe.runIf(process.platform === 'linux')(
  'every reader refuses a file that is no solution',
  () => {
    const dir = scratchDir('bad-input');
    const fileOf = (kind: Kind): string => path.join(dir, kind, 'solution.ts');
    for (const kind of KINDS) makeBad(kind, fileOf(kind));

    test.each(KINDS)('%s: the one read says what it is, at once', (kind) => {
      const started = performance.now();
      const read = readSolution(fileOf(kind));
      expect(read.ok).toBe(false);
      expect(read.ok ? '' : read.message).toMatch(SAID[kind]);
      expect(read.ok ? '' : read.message).not.toContain('\n');
      expect(performance.now() - started).toBeLessThan(1000);
    });

    test('a file read reads at most the limit and one byte', () => {
      const file = path.join(dir, 'limit.ts');
      writeFileSync(file, 'x'.repeat(101));
      expect(readRegularFile(file, 100)).toEqual({ kind: 'too-big', bytes: 101 });
      expect(readRegularFile(file, 101)).toEqual({ kind: 'text', text: 'x'.repeat(101) });
      expect(MAX_SOLUTION_BYTES).toBe(1024 * 1024);
    });

    test.each(KINDS)('%s: compiling it is a compile error of that one line', async (kind) => {
      const compiled = await within(5000, compileLearner(fileOf(kind)));
      expect(compiled.ok ? '' : compiled.message).toMatch(SAID[kind]);
    });

    test.each(KINDS)('%s: the type checker has nothing to say, at once', async (kind) => {
      // Before: statSync said size 0 for the pipe and the device, and readFileSync then waited for a
      // writer for ever, or read /dev/zero until memory ran out.
      expect(await within(5000, checkTypes(fileOf(kind)))).toEqual([]);
    });

    test('a /// <reference path> to a pipe or to /dev/zero is a file not found, not a wait', async () => {
      // Before: the checker read it with TypeScript's own readFile, blocked until its watchdog gave
      // up on it 20 s later (the pipe), or reading zeros meanwhile (the device).
      const cases = [fileOf('pipe'), fileOf('zero')].map((target, i) => {
        const file = path.join(dir, `refers-${i}`, 'solution.ts');
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, `/// <reference path="${target}" />\n${recentCounter('return 1;')}`);
        return file;
      });
      for (const file of cases) {
        const started = performance.now();
        const errors = await within(15_000, checkTypes(file));
        expect(errors?.map((e) => e.code)).toEqual([6053]);
        expect(performance.now() - started).toBeLessThan(10_000);
      }
    });
  },
);

describe.runIf(process.platform === 'linux')(
  'grade and kata --once on a file that is no solution',
  () => {
    const repo = copyRepo(scratchDir('bad-input-repo'));
    const state = scratchDir('bad-input-state');
    // One bad kind per problem, and one stub as shipped: judged as ever beside them.
    const PROBLEMS: Record<Kind, string> = {
      pipe: '933-number-of-recent-calls',
      zero: '362-design-hit-counter',
      folder: '346-moving-average-from-data-stream',
      huge: '359-logger-rate-limiter',
      dangling: '1352-product-of-the-last-k-numbers',
    };
    for (const kind of KINDS)
      makeBad(kind, path.join(repo, 'problems', PROBLEMS[kind], 'solution.ts'));

    const run = (args: string[]) => {
      const result = spawnSync(process.execPath, ['scripts/launch.mjs', ...args], {
        cwd: repo,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1', KATA_STATE_DIR: state },
        // Before, the pipe hung both commands for ever: a minute is "never" here, and a command
        // stopped by it has a signal, which each test rules out. (They also held grade under 45 s
        // and kata under 30 s of wall time, which a busy machine decides: 17 s and 10 s at most
        // on one core beside a CPU burner.)
        timeout: 60_000,
      });
      return { ...result, out: unwrapped(result.stdout) };
    };

    test('grade: each is a compile error saying what it is; the stub is judged too', () => {
      const grade = run(['grade', ...Object.values(PROBLEMS), 'token-bucket', '--reveal']);
      expect(grade.signal).toBeNull();
      expect(grade.status).toBe(1);
      expect(grade.stderr).toBe('');
      for (const kind of KINDS) {
        const id = PROBLEMS[kind].split('-')[0];
        expect(grade.out).toMatch(new RegExp(`^${id} .*Compile Error`, 'm'));
        expect(grade.out).toMatch(new RegExp(SAID[kind].source, 'm'));
      }
      expect(grade.out).toMatch(/^token-bucket .*Not Started/m);
    });

    test.each(KINDS)('kata --once, %s: one line, exit 1, within seconds', (kind) => {
      const kata = run(['kata', PROBLEMS[kind], '--once']);
      expect(kata.signal).toBeNull();
      expect(kata.status).toBe(1);
      expect(kata.out).toMatch(/Compile Error/);
      expect(kata.out).toMatch(new RegExp(SAID[kind].source, 'm'));
    });
  },
);
