// Verdicts kept from the last grade (harness/judge/memo.ts): reused only for the same code, suite,
// judge and Node; never a cancelled judgement; never a memo whose file does not match its hash.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { SEAL_KEY_FILE, writeVerified } from '../../harness/judge/verified-file.ts';
import { SCRATCH_DIR } from '../../harness/paths.ts';
import { memoKey, recall, remember, type MemoInputs } from '../../harness/judge/memo.ts';
import type { ProblemReport } from '../../harness/judge/outcome.ts';
import { emptyProgress, recordReport } from '../../harness/learner/progress.ts';
import { grade } from '../../scripts/commands/grade.ts';
import { captureIO, scratchDir, writeLearnerFile } from '../helpers.ts';

const REPO = path.resolve(import.meta.dirname, '..', '..');

function bundles(): { worker: string; runner: string } {
  const dir = scratchDir('memo-bundles');
  const worker = path.join(dir, 'worker-1.mjs');
  const runner = path.join(dir, 'runner-1.js');
  writeVerified(worker, 'worker code');
  writeVerified(runner, 'runner code');
  return { worker, runner };
}

function inputs(): MemoInputs {
  const { worker, runner } = bundles();
  return {
    workerBundle: worker,
    runnerBundle: runner,
    learnerFile: '/x/solution.ts',
    learnerCode: 'class A {}',
    libraries: [],
    className: 'A',
  };
}

const report = (extra: Partial<ProblemReport> = {}): ProblemReport => ({
  dir: 'some-problem',
  verdict: 'accepted',
  cases: [],
  followUps: { passed: 2, total: 2 },
  output: '',
  ms: 123,
  ...extra,
});

describe('memoKey', () => {
  test('changes with the code, the file, the class, and either bundle (name or content)', () => {
    const base = inputs();
    const key = memoKey(base);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(memoKey({ ...base })).toBe(key);
    const variants: MemoInputs[] = [
      { ...base, learnerCode: 'class A { }' },
      { ...base, learnerFile: '/y/solution.ts' },
      { ...base, className: 'B' },
      { ...base, libraries: ['lodash'] },
      { ...base, workerBundle: bundles().worker },
    ];
    for (const variant of variants) expect(memoKey(variant)).not.toBe(key);
    // Same runner name, other content (a build of other sources that kept the same name).
    writeVerified(base.runnerBundle, 'other runner code');
    expect(memoKey(base)).not.toBe(key);
  });

  test('a bundle without its hash gives no key: nothing is remembered against it', () => {
    expect(memoKey({ ...inputs(), runnerBundle: path.join(scratchDir('memo'), 'r.js') })).toBe(
      undefined,
    );
  });
});

describe('remember and recall', () => {
  test('a report comes back as it was, marked reused', () => {
    const key = memoKey(inputs()) as string;
    expect(recall(key)).toBeUndefined();
    remember(key, report());
    expect(recall(key)).toEqual({ ...report(), reused: true });
  });

  test('a cancelled judgement is not remembered', () => {
    const key = memoKey(inputs()) as string;
    remember(key, report({ cancelled: true }));
    expect(recall(key)).toBeUndefined();
  });

  test('a memo changed on disk (its hash no longer matches) is not reused', () => {
    const key = memoKey(inputs()) as string;
    remember(key, report({ verdict: 'wrong-answer' }));
    const file = path.join(SCRATCH_DIR, 'verdicts', `${key.slice(0, 32)}.json`);
    writeFileSync(file, readFileSync(file, 'utf8').replace('wrong-answer', 'accepted'));
    expect(recall(key)).toBeUndefined();
  });

  test('a memo forged with its hash recomputed is not reused either (issue 21, finding 7)', () => {
    const key = memoKey(inputs()) as string;
    remember(key, report({ verdict: 'wrong-answer' }));
    const file = path.join(SCRATCH_DIR, 'verdicts', `${key.slice(0, 32)}.json`);
    const forged = readFileSync(file, 'utf8').replace('wrong-answer', 'accepted');
    writeFileSync(file, forged);
    // The checksum as anyone can compute it: a plain SHA-256 of the content.
    writeFileSync(`${file}.sum`, createHash('sha256').update(forged).digest('hex'));
    expect(recall(key)).toBeUndefined();
    // The seal is keyed, and the key is not beside the memos.
    expect(SEAL_KEY_FILE.startsWith(SCRATCH_DIR + path.sep)).toBe(false);
  });
});

describe('npm run grade keeps verdicts of unchanged files', () => {
  const reference = readFileSync(
    path.join(REPO, 'solutions', '933-number-of-recent-calls', 'solution.ts'),
    'utf8',
  );

  async function gradeJson(argv: string[]): Promise<{ verdict: string; reused: boolean }> {
    const io = captureIO();
    await grade([...argv, '--json', '933'], io);
    const { problems } = JSON.parse(io.stdout[0] as string) as {
      problems: { verdict: string; reused: boolean }[];
    };
    const { verdict, reused } = problems[0] as { verdict: string; reused: boolean };
    return { verdict, reused };
  }

  test('judged once, then kept; --fresh and any edit judge it again', async () => {
    const dir = scratchDir('memo-grade');
    const file = writeLearnerFile(
      path.join(dir, '933-number-of-recent-calls'),
      'solution.ts',
      reference,
    );
    expect(await gradeJson(['--dir', dir])).toEqual({ verdict: 'accepted', reused: false });
    expect(await gradeJson(['--dir', dir])).toEqual({ verdict: 'accepted', reused: true });
    expect(await gradeJson(['--dir', dir, '--fresh'])).toEqual({
      verdict: 'accepted',
      reused: false,
    });
    // A wrong edit is judged, not answered from the memo of the right code.
    writeFileSync(file, reference.replace('< cutoff', '<= cutoff'));
    expect(await gradeJson(['--dir', dir])).toEqual({ verdict: 'wrong-answer', reused: false });

    const io = captureIO();
    await grade(['--dir', dir, '933'], io);
    const table = io.stdout.join('\n');
    expect(table).toMatch(/^933 .* kept$/m);
    expect(table).toContain("kept: the last grade's verdict (file and judge unchanged)");
  });
});

describe('progress and kept verdicts', () => {
  const judged = (verdict: ProblemReport['verdict'], reused?: boolean): ProblemReport =>
    report({ dir: '933-number-of-recent-calls', verdict, ...(reused ? { reused } : {}) });

  test('a kept verdict counts no new attempt, unless progress lacks that verdict', () => {
    const progress = emptyProgress();
    recordReport(progress, judged('wrong-answer'), new Date(1000));
    recordReport(progress, judged('wrong-answer', true), new Date(2000));
    const entry = progress.problems['933-number-of-recent-calls'];
    expect(entry?.attempts).toBe(1);
    expect(entry?.lastAttempted).toBe(new Date(1000).toISOString());
    // Progress reset meanwhile, or kept from a grade that recorded nothing: it is recorded.
    recordReport(progress, judged('accepted', true), new Date(3000));
    expect(progress.problems['933-number-of-recent-calls']?.lastVerdict).toBe('accepted');
    const fresh = emptyProgress();
    recordReport(fresh, judged('accepted', true), new Date(4000));
    expect(fresh.problems['933-number-of-recent-calls']?.attempts).toBe(1);
  });
});
