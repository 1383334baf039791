// Decides a problem's verdict from its case results, the way LeetCode does: the first example or core
// case that does not pass decides. Follow-ups are reported apart and never change the verdict.
import type { CaseResult, CaseStatus, Verdict } from './outcome.ts';
import type { Tier } from '../suite.ts';

const TIER_ORDER: Record<Tier, number> = { example: 0, core: 1, 'follow-up': 2 };

export function byTier<T extends { tier: Tier }>(items: T[]): T[] {
  return items
    .map((item, i) => ({ item, i }))
    .sort((a, b) => TIER_ORDER[a.item.tier] - TIER_ORDER[b.item.tier] || a.i - b.i)
    .map(({ item }) => item);
}

const VERDICT_OF: Record<Exclude<CaseStatus, 'passed'>, Verdict> = {
  failed: 'wrong-answer',
  'time-limit-exceeded': 'time-limit-exceeded',
  'memory-limit-exceeded': 'memory-limit-exceeded',
  'runtime-error': 'runtime-error',
  // A case is skipped only when the problem ran out of time before reaching it.
  skipped: 'time-limit-exceeded',
};

export function verdictOf(status: CaseStatus): Verdict {
  return status === 'passed' ? 'accepted' : VERDICT_OF[status];
}

export function decideVerdict(results: CaseResult[]): Verdict {
  const deciding = byTier(results).filter((r) => r.tier !== 'follow-up');
  if (deciding.length > 0 && deciding.every((r) => r.notImplemented)) return 'not-started';
  const first = deciding.find((r) => r.status !== 'passed');
  return first ? verdictOf(first.status) : 'accepted';
}

export function countFollowUps(results: CaseResult[]): { passed: number; total: number } {
  const followUps = results.filter((r) => r.tier === 'follow-up');
  return { passed: followUps.filter((r) => r.status === 'passed').length, total: followUps.length };
}
