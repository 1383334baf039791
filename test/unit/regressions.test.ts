// Bugs found while writing the unit tests, each pinned by the input that showed it.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { deepEquals, drive } from '../../harness/judge/child/drive.ts';
import { directPort } from '../../harness/sandbox/port.ts';
import { renderMarkdown } from '../../harness/terminal/markdown.ts';
import { closestProblem, loadProblems } from '../../harness/judge/problems.ts';
import { loadProgress } from '../../harness/learner/progress.ts';
import { makeStyle } from '../../harness/terminal/style.ts';
import type { CallSource } from '../../harness/suite.ts';
import { grade } from '../../scripts/commands/grade.ts';
import { captureIO, scratchDir } from '../helpers.ts';

describe('regressions', () => {
  test('calls replayed for context show an expected exception as such, not as an object', () => {
    class B {
      allow(x: number): boolean {
        if (x < 0) throw new RangeError('x');
        return x !== 6;
      }
    }
    const source: CallSource = (emit) => {
      emit({ method: 'B', args: [], expected: null });
      for (let i = 0; i < 10; i++) {
        emit({
          method: 'allow',
          args: [i % 2 ? -1 : i],
          expected: i % 2 ? { throws: 'RangeError' } : true,
        });
      }
    };
    const result = drive(source, directPort(B), {
      className: 'B',
      equals: deepEquals,
      keepAll: false,
      stopAfterDivergence: true,
    });
    expect(result.divergedAt).toBe(7);
    const replayed = result.records.find((r) => r.index === 6);
    expect(replayed?.actual).toBe('throws RangeError');
    expect(result.records.map((r) => r.actual).join(' ')).not.toContain('{"throws"');
  });

  test('deepEquals compares plain objects by value and treats 0 and -0 alike', () => {
    expect(deepEquals({ a: 1, b: [2] }, { a: 1, b: [2] })).toBe(true);
    expect(deepEquals({ a: 1 }, { a: 2 })).toBe(false);
    expect(deepEquals({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(deepEquals(0, -0)).toBe(true);
    expect(deepEquals(NaN, NaN)).toBe(true);
    expect(deepEquals(new Map(), {})).toBe(false);
  });

  test('a progress file naming an inherited property as a verdict is not trusted', () => {
    const dir = scratchDir('regress-progress');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'progress.json');
    writeFileSync(
      file,
      JSON.stringify({ version: 1, problems: { x: { attempts: 1, bestVerdict: 'constructor' } } }),
    );
    const warnings: string[] = [];
    expect(loadProgress((w) => warnings.push(w), file).problems).toEqual({});
    expect(warnings[0]).toMatch(/could not be read/);
  });

  test('emphasis markers inside code spans are left alone', () => {
    expect(renderMarkdown('use `2 ** 3 ** 2` and **this**', makeStyle(false))).toBe(
      'use 2 ** 3 ** 2 and this',
    );
  });

  test('part of a name suggests the problem that contains it', () => {
    const problems = loadProblems();
    expect(closestProblem(problems, 'moving-average')?.id).toBe('346');
    expect(closestProblem(problems, 'logger')?.id).toBe('359');
    expect(closestProblem(problems, 'bucket')?.id).toBe('token-bucket');
  });

  test('grade keeps the verdict column aligned whatever the level is', async () => {
    const io = captureIO();
    await grade(['--dir', 'solutions', '933', '362'], io);
    const rows = io.stdout[0]!.split('\n');
    const columns = rows.map((row) => row.search(/verdict|Accepted/));
    expect(new Set(columns).size).toBe(1);
  });
});
