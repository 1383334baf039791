// `reset` never writes through a link, never loses the learner's work, and answers what it cannot
// handle (a folder named solution.ts, a state folder that is a file) in one clear line. The other
// commands a learner owns the files of (hint, solution, kata's statement) do not trip on such files
// either. Problems are read from a scratch copy of problems/, since reset writes there.
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, test, vi } from 'vitest';
import type { JudgeOptions } from '../../harness/judge/judge.ts';
import type { ProblemReport } from '../../harness/judge/outcome.ts';
import { loadProblems } from '../../harness/judge/problems.ts';
import { pristineStubFile } from '../../harness/learner/learning.ts';
import { PROBLEMS_DIR, STATE_DIR } from '../../harness/paths.ts';
import { hint } from '../../scripts/commands/hint.ts';
import { kata } from '../../scripts/commands/kata.ts';
import { BACKUP_DIR, reset } from '../../scripts/commands/reset.ts';
import { solution } from '../../scripts/commands/solution.ts';
import { runCommand, type IO } from '../../scripts/lib/cli.ts';
import type { Asker } from '../../scripts/lib/confirm.ts';
import { captureIO, scratchDir } from '../helpers.ts';

const fake = vi.hoisted(() => {
  const fs = process.getBuiltinModule('node:fs');
  const os = process.getBuiltinModule('node:os');
  const previousStateDir = process.env.KATA_STATE_DIR;
  const parent = fs.mkdtempSync(`${os.tmpdir()}/window-katas-safety-reset-`);
  process.env.KATA_STATE_DIR = `${parent}/.kata`;
  return { previousStateDir, problemsDir: `${parent}/problems` };
});

vi.mock('../../harness/judge/problems.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../harness/judge/problems.ts')>();
  return {
    ...actual,
    loadProblems: (solutionsDir?: string, problemsDir?: string) =>
      actual.loadProblems(solutionsDir, problemsDir ?? fake.problemsDir),
  };
});

vi.mock('../../harness/judge/judge.ts', () => ({
  releaseSlot: () => {},
  judge: async (options: JudgeOptions): Promise<ProblemReport> => ({
    dir: options.problem.dir,
    verdict: 'compile-error',
    message: 'not judged here',
    cases: [],
    followUps: { passed: 0, total: 0 },
    output: '',
    ms: 1,
  }),
}));

const problems = loadProblems();
const p933 = problems.find((p) => p.id === '933')!;
const p362 = problems.find((p) => p.id === '362')!;
const pristine = (problem = p933): string => readFileSync(pristineStubFile(problem), 'utf8');
const mine = 'export class RecentCounter { ping() { return 42; } }\n';
const backups = (): string[] => (existsSync(BACKUP_DIR) ? readdirSync(BACKUP_DIR).sort() : []);

beforeEach(() => {
  rmSync(STATE_DIR, { recursive: true, force: true });
  rmSync(fake.problemsDir, { recursive: true, force: true });
  cpSync(PROBLEMS_DIR, fake.problemsDir, { recursive: true });
});

afterAll(() => {
  process.env.KATA_STATE_DIR = fake.previousStateDir;
  rmSync(path.dirname(fake.problemsDir), { recursive: true, force: true });
});

async function run(command: (argv: string[], io: IO & Asker) => Promise<number>, argv: string[]) {
  const io = captureIO();
  const code = await runCommand((i) => command(argv, i), io);
  return { code, out: io.stdout.join('\n'), err: io.stderr };
}

function expectOneClearLine(err: string[], pattern: RegExp): void {
  expect(err).toHaveLength(1);
  expect(err[0]).toMatch(/^error: /);
  expect(err[0]).toMatch(pattern);
  expect(err[0]).not.toMatch(/\bat .*:\d+:\d+/);
}

test('the scratch problems are used, never the real ones', () => {
  expect(p933.stubFile.startsWith(fake.problemsDir)).toBe(true);
});

describe('reset and a symlinked solution.ts', () => {
  test('replaces the link itself with the stub, never writing into its target; backs it up', async () => {
    const target = path.join(scratchDir('safety-reset-target'), 'elsewhere.ts');
    writeFileSync(target, mine);
    rmSync(p933.stubFile);
    symlinkSync(target, p933.stubFile);

    const { code, out, err } = await run(reset, ['933', '--yes']);
    expect(err).toEqual([]);
    expect(code).toBe(0);
    // The link is gone: a regular file with the stub stands in its place.
    expect(lstatSync(p933.stubFile).isSymbolicLink()).toBe(false);
    expect(lstatSync(p933.stubFile).isFile()).toBe(true);
    expect(readFileSync(p933.stubFile, 'utf8')).toBe(pristine());
    // Its target is untouched.
    expect(readFileSync(target, 'utf8')).toBe(mine);
    // And what the link held is backed up all the same.
    const [backup] = backups();
    expect(backups()).toHaveLength(1);
    expect(readFileSync(path.join(BACKUP_DIR, backup!), 'utf8')).toBe(mine);
    expect(out.replace(/\s+/g, ' ')).toContain(`replaces a link to ${target} (left as it is)`);
  });

  test('a dangling link is replaced; nothing is created where it led', async () => {
    const nowhere = path.join(scratchDir('safety-reset-nowhere'), 'missing', 'x.ts');
    rmSync(p933.stubFile);
    symlinkSync(nowhere, p933.stubFile);
    const { code, out } = await run(reset, ['933', '--yes']);
    expect(code).toBe(0);
    expect(lstatSync(p933.stubFile).isFile()).toBe(true);
    expect(readFileSync(p933.stubFile, 'utf8')).toBe(pristine());
    expect(existsSync(nowhere)).toBe(false);
    expect(existsSync(path.dirname(nowhere))).toBe(false);
    expect(out.replace(/\s+/g, ' ')).toContain('which leads nowhere: nothing to back up');
    expect(backups()).toEqual([]);
  });

  test('a link that loops back on itself is replaced, with a clear note', async () => {
    rmSync(p933.stubFile);
    symlinkSync('solution.ts', p933.stubFile);
    const { code, out, err } = await run(reset, ['933', '--yes']);
    expect(err).toEqual([]);
    expect(code).toBe(0);
    expect(readFileSync(p933.stubFile, 'utf8')).toBe(pristine());
    expect(out.replace(/\s+/g, ' ')).toContain('which loops back on itself');
  });
});

describe('reset refuses what it cannot handle, in one line, changing nothing', () => {
  test('solution.ts is a folder', async () => {
    rmSync(p933.stubFile);
    mkdirSync(p933.stubFile);
    writeFileSync(path.join(p933.stubFile, 'keep.ts'), mine);
    writeFileSync(p362.stubFile, 'export class HitCounter {}\n');
    for (const argv of [
      ['933', '--yes'],
      ['--all', '--yes'],
    ]) {
      const { code, out, err } = await run(reset, argv);
      expect(code).toBe(2);
      expect(out).toBe('');
      expectOneClearLine(err, /solution\.ts is a folder, not a file: reset leaves it as it is/);
    }
    expect(readFileSync(path.join(p933.stubFile, 'keep.ts'), 'utf8')).toBe(mine);
    // --all changed nothing either: the folder was found before anything was reset.
    expect(readFileSync(p362.stubFile, 'utf8')).toBe('export class HitCounter {}\n');
    expect(backups()).toEqual([]);
  });

  test('the state folder is a file: no backup can be kept, so nothing is reset', async () => {
    writeFileSync(STATE_DIR, 'a file');
    writeFileSync(p933.stubFile, mine);
    const { code, err } = await run(reset, ['933', '--yes']);
    expect(code).toBe(2);
    expectOneClearLine(err, /\.kata is a file, not a folder/);
    expect(readFileSync(p933.stubFile, 'utf8')).toBe(mine);
    expect(readFileSync(STATE_DIR, 'utf8')).toBe('a file');
  });
});

describe('other commands and odd files', () => {
  test.each([
    ['a folder', () => mkdirSync(p933.stubFile)],
    ['a dangling link', () => symlinkSync('/nonexistent/x.ts', p933.stubFile)],
    ['a link loop', () => symlinkSync('solution.ts', p933.stubFile)],
  ])('hint and solution do not trip on solution.ts being %s', async (_, make) => {
    rmSync(p933.stubFile);
    make();
    const hinted = await run(hint, ['933']);
    expect(hinted.err).toEqual([]);
    expect(hinted.code).toBe(0);
    const solved = await run(solution, ['933', '--yes']);
    expect(solved.err).toEqual([]);
    expect(solved.code).toBe(0);
  });

  test('kata: a statement that is a link to /dev/zero is one clear line, at once', async () => {
    rmSync(p933.statementFile);
    symlinkSync('/dev/zero', p933.statementFile);
    const started = Date.now();
    const { code, err } = await run(kata, ['933', '--once']);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(code).toBe(2);
    expectOneClearLine(
      err,
      /cannot read the statement of 933: .*README\.md is a link to \/dev\/zero/,
    );
    expect(readlinkSync(p933.statementFile)).toBe('/dev/zero');
  });
});
