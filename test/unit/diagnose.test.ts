// The diagnosis leads with what the judge saw, never with a trap that contradicts it: synthetic
// results, one rule each (test/judge-diagnosis.test.ts judges real files).
import { describe, expect, test } from 'vitest';
import { diagnose } from '../../harness/judge/diagnose.ts';
import {
  OBSERVED_SHARED_STATE,
  type CaseInfo,
  type CaseResult,
  type KnownMistake,
} from '../../harness/judge/outcome.ts';

/** A case result: failed unless said otherwise, with the known mistakes `mimics` names. */
function result(
  trap: string | null,
  mimics: string[] = [],
  more: Partial<CaseResult> = {},
): CaseResult {
  const known: KnownMistake[] = mimics.map((m) => {
    const [file, mistake] = m.split(':') as [string, string];
    return { file, trap: mistake };
  });
  return {
    name: `case ${trap ?? 'example'}`,
    tier: 'core',
    trap,
    hint: null,
    status: 'failed',
    ms: 1,
    ...(known.length > 0 ? { mimics: known } : {}),
    ...more,
  };
}

const infos = (results: CaseResult[]): CaseInfo[] =>
  results.map((r) => ({
    name: r.name,
    tier: r.tier,
    trap: r.trap,
    hints: {},
    needs: [],
    timeLimitMs: 1000,
    timeLimitSet: false,
    retainedLimitMb: null,
    beyondLeetCode: false,
  }));

const traps = (results: CaseResult[]): string[] => diagnose(results, infos(results)).traps;

describe('what the judge saw comes first', () => {
  test('code that never read the real time is not told to use the injected clock', () => {
    const results = [
      result('injected-clock', [], { contradicted: ['injected-clock'] }),
      result('peek-is-pure', [], { contradicted: ['injected-clock'] }),
    ];
    expect(traps(results)[0]).toBe('peek-is-pure');
    expect(results[0]?.lead).toBeUndefined();
  });

  test('a real-time known mistake ruled out by what was seen explains nothing', () => {
    const results = [
      result('window-edge', ['real-clock.ts:injected-clock'], { contradicted: ['injected-clock'] }),
      result('injected-clock', ['real-clock.ts:injected-clock'], {
        contradicted: ['injected-clock'],
      }),
    ];
    expect(traps(results)).toEqual(['window-edge']);
    expect(results[1]?.because).toBe('see the causes above first');
  });

  test("a known mistake unlike the code on its own trap's case explains nothing", () => {
    // A meter fails the queue's capacity case at its first call as a queue that counts its
    // running request does; only the calls after show it is not that one (CaseResult.unlike).
    const both = ['counts-running.ts:queue-full'];
    const results = [
      result('no-burst-after-idle', both),
      result('queue-full', both, { unlike: ['counts-running.ts'] }),
      result('random-core', both),
    ];
    expect(traps(results)[0]).toBe('no-burst-after-idle');
    expect(results.map((r) => r.because)).not.toContain('likely the same cause: queue-full');
    // Without that evidence the look-alike leads, as before.
    const alike = [
      result('no-burst-after-idle', both),
      result('queue-full', both),
      result('random-core', both),
    ];
    expect(traps(alike)[0]).toBe('queue-full');
  });

  test('the real-time trap still leads when it is all there is', () => {
    expect(traps([result('injected-clock', [], { contradicted: ['injected-clock'] })])).toEqual([
      'injected-clock',
    ]);
  });

  test('state seen to outlive the instances leads before a file that fails more cases alike', () => {
    const results = [
      result('new-key-full', ['starts-empty.ts:new-key-full']),
      result('refill-cap', ['starts-empty.ts:new-key-full']),
      result('instance-isolation', [`${OBSERVED_SHARED_STATE}:instance-isolation`]),
    ];
    expect(traps(results)[0]).toBe('instance-isolation');
  });
});

describe('known mistakes', () => {
  test('a failure its own trap explains is a cause of its own, not "the same cause"', () => {
    const results = [
      result('window-edge', ['anchored.ts:window-edge']),
      result('bad-input', ['anchored.ts:window-edge', 'no-validation.ts:bad-input'], {
        tier: 'follow-up',
      }),
    ];
    expect(traps(results)).toEqual(['window-edge', 'bad-input']);
    expect(results[1]?.lead).toBe(true);
  });

  test('without its own case failing, a shared failure is still put down to the lead', () => {
    const results = [
      result('window-edge', ['anchored.ts:window-edge']),
      result('random-core', ['anchored.ts:window-edge']),
    ];
    expect(traps(results)).toEqual(['window-edge']);
    expect(results[1]?.because).toBe('likely the same cause: window-edge');
  });

  test('of mistakes that tie, the one whose own case failed first leads', () => {
    const results = [
      result('honest-remaining'),
      result('request-cost', [], { tier: 'follow-up' }),
      result(
        'random-follow-up',
        ['zero-on-denial.ts:request-cost', 'seeds-remaining.ts:honest-remaining'],
        { tier: 'follow-up' },
      ),
    ];
    expect(traps(results)[0]).toBe('honest-remaining');
  });
});
