// The learner's progress file: read defensively, written atomically, updated by each judged report.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { ProblemReport, Verdict } from '../../harness/judge/outcome.ts';
import { REPO_ROOT, STATE_DIR } from '../../harness/paths.ts';
import {
  checkRecord,
  emptyProgress,
  isSolved,
  mergeProgress,
  loadProgress,
  PROGRESS_FILE,
  recordReport,
  saveProgress,
  type Progress,
} from '../../harness/learner/progress.ts';
import { scratchDir } from '../helpers.ts';

function report(verdict: Verdict, followUps = { passed: 0, total: 2 }, dir = '1-a'): ProblemReport {
  return { dir, verdict, cases: [], followUps, output: '', ms: 1 };
}

const day = (n: number): Date => new Date(Date.UTC(2026, 0, n));

test('tests keep progress out of the repository', () => {
  expect(STATE_DIR).not.toBe(path.join(REPO_ROOT, '.kata'));
  expect(PROGRESS_FILE).toBe(path.join(STATE_DIR, 'progress.json'));
});

describe('loadProgress', () => {
  test('a missing file is an empty record, with no warning', () => {
    const warnings: string[] = [];
    const file = path.join(scratchDir('progress'), 'progress.json');
    expect(loadProgress((w) => warnings.push(w), file)).toEqual({ version: 1, problems: {} });
    expect(warnings).toEqual([]);
    expect(existsSync(file)).toBe(false);
  });

  test('a file written before the latest verdict was kept is read as it is', () => {
    const file = path.join(scratchDir('progress'), 'progress.json');
    const older = {
      version: 1,
      problems: {
        '1-a': {
          firstAttempted: day(1).toISOString(),
          firstAccepted: day(1).toISOString(),
          lastAttempted: day(1).toISOString(),
          attempts: 1,
          bestVerdict: 'accepted',
          followUpsPassed: 0,
          followUpsTotal: 2,
        },
      },
    };
    writeFileSync(file, JSON.stringify(older));
    const warnings: string[] = [];
    const loaded = loadProgress((w) => warnings.push(w), file);
    expect(loaded).toEqual(older);
    expect(warnings).toEqual([]);
    // Judged again, it learns the latest verdict.
    recordReport(loaded, report('wrong-answer'), day(2));
    expect(loaded.problems['1-a']).toMatchObject({
      bestVerdict: 'accepted',
      lastVerdict: 'wrong-answer',
    });
  });

  test('a valid file is read as it is', () => {
    const file = path.join(scratchDir('progress'), 'progress.json');
    const progress = emptyProgress();
    recordReport(progress, report('wrong-answer'), day(1));
    writeFileSync(file, JSON.stringify(progress));
    expect(loadProgress(() => {}, file)).toEqual(progress);
  });

  test.each([
    ['not JSON', '{ not json', /could not be read \(.*JSON.*\)/],
    ['another version', '{"version":2,"problems":{}}', /unexpected shape/],
    ['null', 'null', /unexpected shape/],
    ['problems not an object', '{"version":1,"problems":null}', /unexpected shape/],
    [
      'an entry without attempts',
      '{"version":1,"problems":{"1-a":{"bestVerdict":"accepted"}}}',
      /unexpected shape/,
    ],
    [
      'an unknown verdict',
      '{"version":1,"problems":{"1-a":{"attempts":1,"bestVerdict":"great"}}}',
      /unexpected shape/,
    ],
    ['a null entry', '{"version":1,"problems":{"1-a":null}}', /unexpected shape/],
    [
      'an unknown latest verdict',
      `{"version":1,"problems":{"1-a":${JSON.stringify({
        firstAttempted: 'a',
        lastAttempted: 'b',
        attempts: 1,
        bestVerdict: 'accepted',
        lastVerdict: 'constructor',
        followUpsPassed: 0,
        followUpsTotal: 0,
      })}}}`,
      /unexpected shape/,
    ],
  ])('%s is moved aside with a warning, and progress starts afresh', (_, text, reason) => {
    const dir = scratchDir('progress');
    const file = path.join(dir, 'progress.json');
    writeFileSync(file, text);
    const warnings: string[] = [];
    expect(loadProgress((w) => warnings.push(w), file)).toEqual(emptyProgress());
    expect(existsSync(file)).toBe(false);
    const aside = readdirSync(dir).filter((f) => f.startsWith('progress.json.corrupt-'));
    expect(aside).toHaveLength(1);
    // Nothing is lost: the unreadable file is kept under its new name, which has no colons.
    expect(readFileSync(path.join(dir, aside[0]!), 'utf8')).toBe(text);
    expect(aside[0]).toMatch(/^progress\.json\.corrupt-\d{4}-\d\d-\d\dT[\d-]+Z$/);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(new RegExp(`^warning: ${file} could not be read`));
    expect(warnings[0]).toMatch(reason);
    expect(warnings[0]).toContain(`moved it to ${path.join(dir, aside[0]!)} and started afresh`);
  });
});

describe('saveProgress', () => {
  test('writes what loadProgress reads back, creating the folder, leaving no temporary file', () => {
    const dir = path.join(scratchDir('progress'), 'nested', 'state');
    const file = path.join(dir, 'progress.json');
    const progress = emptyProgress();
    recordReport(progress, report('accepted', { passed: 1, total: 2 }), day(3));
    saveProgress(progress, file);
    expect(readdirSync(dir)).toEqual(['progress.json']);
    expect(readFileSync(file, 'utf8').endsWith('}\n')).toBe(true);
    expect(loadProgress(() => {}, file)).toEqual(progress);

    recordReport(progress, report('wrong-answer'), day(4));
    saveProgress(progress, file);
    expect(loadProgress(() => {}, file).problems['1-a']?.attempts).toBe(2);
    expect(readdirSync(dir)).toEqual(['progress.json']);
  });
});

describe('recordReport', () => {
  test('the first attempt sets every field', () => {
    const progress = emptyProgress();
    recordReport(progress, report('wrong-answer', { passed: 1, total: 3 }), day(1));
    expect(progress.problems['1-a']).toEqual({
      firstAttempted: day(1).toISOString(),
      firstAccepted: null,
      lastAttempted: day(1).toISOString(),
      attempts: 1,
      bestVerdict: 'wrong-answer',
      lastVerdict: 'wrong-answer',
      followUpsPassed: 1,
      followUpsTotal: 3,
    });
    expect(isSolved(progress, '1-a')).toBe(false);
  });

  test('attempts add up; first dates stay; the best verdict and follow-ups never get worse', () => {
    const progress: Progress = emptyProgress();
    recordReport(progress, report('compile-error'), day(1));
    recordReport(progress, report('accepted', { passed: 2, total: 2 }), day(2));
    recordReport(progress, report('runtime-error', { passed: 0, total: 2 }), day(3));
    recordReport(progress, report('accepted', { passed: 1, total: 2 }), day(4));
    expect(progress.problems['1-a']).toEqual({
      firstAttempted: day(1).toISOString(),
      firstAccepted: day(2).toISOString(),
      lastAttempted: day(4).toISOString(),
      attempts: 4,
      bestVerdict: 'accepted',
      lastVerdict: 'accepted',
      followUpsPassed: 2,
      followUpsTotal: 2,
    });
    expect(isSolved(progress, '1-a')).toBe(true);
  });

  test('a worse verdict after a better one is not recorded as the best', () => {
    const progress = emptyProgress();
    recordReport(progress, report('wrong-answer'), day(1));
    recordReport(progress, report('compile-error'), day(2));
    recordReport(progress, report('not-started'), day(3));
    expect(progress.problems['1-a']?.bestVerdict).toBe('wrong-answer');
    recordReport(progress, report('time-limit-exceeded'), day(4));
    expect(progress.problems['1-a']?.bestVerdict).toBe('wrong-answer');
  });

  test('judging an untouched stub is seen but is not an attempt', () => {
    const progress = emptyProgress();
    recordReport(progress, report('not-started'), day(1));
    expect(progress.problems['1-a']).toMatchObject({
      attempts: 0,
      bestVerdict: 'not-started',
      firstAttempted: day(1).toISOString(),
    });
    recordReport(progress, report('not-started'), day(2));
    recordReport(progress, report('wrong-answer'), day(3));
    expect(progress.problems['1-a']).toMatchObject({
      attempts: 1,
      bestVerdict: 'wrong-answer',
      lastAttempted: day(3).toISOString(),
    });
  });

  test('the latest verdict is kept beside the best: solved once, broken now', () => {
    const progress = emptyProgress();
    recordReport(progress, report('accepted'), day(1));
    recordReport(progress, report('runtime-error'), day(2));
    expect(progress.problems['1-a']).toMatchObject({
      bestVerdict: 'accepted',
      lastVerdict: 'runtime-error',
    });
    recordReport(progress, report('accepted'), day(3));
    expect(progress.problems['1-a']?.lastVerdict).toBe('accepted');
  });

  test('the stub as shipped, untouched: no entry, and no date on an entry made before', () => {
    const progress = emptyProgress();
    recordReport(progress, report('not-started'), day(1), { untouched: true });
    expect(progress.problems).toEqual({});
    recordReport(progress, report('accepted', { passed: 2, total: 2 }), day(2));
    const solved = { ...progress.problems['1-a'] };
    // Reset since, and judged again: only where the learner stands now changes.
    recordReport(progress, report('not-started', { passed: 0, total: 3 }), day(3), {
      untouched: true,
    });
    expect(progress.problems['1-a']).toEqual({ ...solved, lastVerdict: 'not-started' });
    // A learner's file that still throws "Not implemented" is theirs: judging it is recorded.
    recordReport(progress, report('not-started'), day(4));
    expect(progress.problems['1-a']?.lastAttempted).toBe(day(4).toISOString());
  });

  test('a suite that lost follow-ups keeps no more passed than it now has', () => {
    const progress = emptyProgress();
    recordReport(progress, report('accepted', { passed: 5, total: 5 }), day(1));
    recordReport(progress, report('accepted', { passed: 4, total: 4 }), day(2));
    expect(progress.problems['1-a']).toMatchObject({ followUpsPassed: 4, followUpsTotal: 4 });
    // What it writes, an import takes (finding 7: 50 of 5 was taken, now refused).
    expect(checkRecord(progress)).toBeUndefined();
  });

  test('problems are kept apart by folder', () => {
    const progress = emptyProgress();
    recordReport(progress, report('accepted', undefined, '1-a'), day(1));
    recordReport(progress, report('wrong-answer', undefined, '2-b'), day(1));
    expect(isSolved(progress, '1-a')).toBe(true);
    expect(isSolved(progress, '2-b')).toBe(false);
    expect(isSolved(progress, '3-c')).toBe(false);
  });
});

describe('the latest verdict, across machines', () => {
  const judged = (verdicts: [Verdict, number][]): Progress => {
    const progress = emptyProgress();
    for (const [verdict, n] of verdicts) recordReport(progress, report(verdict), day(n));
    return progress;
  };

  test('a merge keeps the latest verdict of the one judged last', () => {
    const mine = judged([['accepted', 1]]);
    const theirs = judged([
      ['accepted', 2],
      ['wrong-answer', 3],
    ]);
    expect(mergeProgress(mine, theirs).problems['1-a']).toMatchObject({
      bestVerdict: 'accepted',
      lastVerdict: 'wrong-answer',
    });
    expect(mergeProgress(theirs, mine).problems['1-a']?.lastVerdict).toBe('wrong-answer');
    // A record of before the latest verdict was kept knows nothing of it.
    const older = judged([['compile-error', 4]]);
    delete older.problems['1-a']!.lastVerdict;
    expect(mergeProgress(theirs, older).problems['1-a']?.lastVerdict).toBeUndefined();
  });

  test('an import may leave it out, but may not hold an unknown one', () => {
    const record = judged([['accepted', 1]]);
    expect(checkRecord(record, day(2))).toBeUndefined();
    delete record.problems['1-a']!.lastVerdict;
    expect(checkRecord(record, day(2))).toBeUndefined();
    (record.problems['1-a'] as unknown as Record<string, unknown>).lastVerdict = 'great';
    expect(checkRecord(record, day(2))).toMatch(/^problems\.1-a\.lastVerdict must be one of /);
  });
});
