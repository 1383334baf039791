// Decides which traps a failing solution fell into, so that the report leads with the cause and not
// with every case the cause happened to break. One bug usually fails several cases: an off-by-one at
// the window's edge also breaks expiry and the scale case; one TypeError breaks them all. Evidence,
// strongest first:
//  1. Known mistakes: a known-wrong implementation that fails a case exactly as the learner's code
//     did (see child/mimic.ts) names the mistake; the one that explains the most failures leads.
//  2. Declared dependencies: a case that needs another trap's behaviour (933's scale case needs a
//     custom window) is put down to that trap when it fails too.
//  3. The same exception on many cases is one failure.
//  4. Otherwise the first failing case, in the order the verdict is decided (examples, core,
//     follow-ups), is a cause of its own.
import type { CaseInfo, CaseResult, Diagnosis, KnownMistake } from './outcome.ts';

/** Why a failure is put down to the one above it that threw the same exception. */
export const SAME_ERROR = 'the same error as above';

/** Causes the report leads with, at most: past that, the rest are listed briefly. */
export const MAX_CAUSES = 3;

const failing = (result: CaseResult): boolean =>
  result.status !== 'passed' && result.status !== 'skipped';

/** A learner's exception, as one line, to tell one repeated error from another. */
const errorOf = (result: CaseResult): string | undefined =>
  result.status === 'runtime-error' ? result.message : undefined;

/**
 * Marks each failing result as a lead (a root cause, shown in full) or with the reason it is put
 * down to one; returns the traps the report leads with, in order. `infos` are the cases in the same
 * order as `results`.
 */
export function diagnose(results: CaseResult[], infos: CaseInfo[]): Diagnosis {
  const open = results.filter(failing);
  if (open.length === 0) return { traps: [] };
  const needsOf = new Map(results.map((r, i) => [r, infos[i]?.needs ?? []]));
  const failingTraps = new Set(open.map((r) => r.trap).filter((t) => t !== null));
  const traps: string[] = [];
  const settle = (result: CaseResult, because: string): void => {
    result.because = because;
    open.splice(open.indexOf(result), 1);
  };
  const lead = (result: CaseResult, trap: string | null): void => {
    result.lead = true;
    if (trap !== null && !traps.includes(trap)) traps.push(trap);
    open.splice(open.indexOf(result), 1);
  };

  // A known mistake fails its own trap's case: if the learner passed every case of that trap,
  // that is not their mistake, however alike the other failures look.
  const passed = new Set(results.filter((r) => r.status === 'passed').map((r) => r.trap));
  const ruledOut = (trap: string): boolean => passed.has(trap) && !failingTraps.has(trap);
  while (open.length > 0 && traps.length < MAX_CAUSES) {
    const mistakes = bestMistakes(open, ruledOut);
    if (mistakes.length > 0) {
      // Mistakes that explain the learner's failures equally well all lead: the failing calls
      // cannot tell them apart, so the learner reads each one's hint.
      for (const { trap } of mistakes) {
        const leader = open.find((r) => r.trap === trap);
        if (leader !== undefined) lead(leader, trap);
      }
      const { trap } = mistakes[0] as KnownMistake;
      const explained = open.filter(
        (r) => r.trap === trap || r.mimics?.some((m) => m.trap === trap),
      );
      // Led by that trap's own case when the learner failed it (done above); else by the first
      // case it explains.
      if (!traps.includes(trap) && explained.length > 0) lead(explained[0] as CaseResult, trap);
      for (const { trap: cause } of mistakes) {
        for (const r of open.filter(
          (r) => r.mimics?.some((m) => m.trap === cause) || r.trap === cause,
        )) {
          settle(r, `likely the same cause: ${cause}`);
        }
      }
      continue;
    }
    const first = open[0] as CaseResult;
    const needed = (needsOf.get(first) ?? []).find((t) => failingTraps.has(t) && t !== first.trap);
    if (needed !== undefined) {
      settle(first, `needs ${needed} first`);
      continue;
    }
    lead(first, first.trap);
    const error = errorOf(first);
    for (const r of [...open]) {
      if (error !== undefined && errorOf(r) === error) settle(r, SAME_ERROR);
      else if (first.trap !== null && r.trap === first.trap) settle(r, `the same trap: ${r.trap}`);
    }
  }
  for (const r of [...open]) settle(r, 'see the causes above first');
  return { traps };
}

/**
 * The known mistakes that explain the most open failures: the best one, and any that tie with it
 * (as many failures, their own trap's case failing as well or not, the earliest failure the same).
 * The best: most failures, then one whose own trap's case failed, then the earliest failure.
 */
function bestMistakes(open: CaseResult[], ruledOut: (trap: string) => boolean): KnownMistake[] {
  const tally = new Map<
    string,
    { mistake: KnownMistake; count: number; first: number; own: boolean }
  >();
  open.forEach((result, position) => {
    const counted = new Set<string>();
    for (const mistake of result.mimics ?? []) {
      if (counted.has(mistake.trap) || ruledOut(mistake.trap)) continue;
      counted.add(mistake.trap);
      const entry = tally.get(mistake.trap) ?? { mistake, count: 0, first: position, own: false };
      entry.count += 1;
      tally.set(mistake.trap, entry);
    }
  });
  for (const entry of tally.values()) entry.own = open.some((r) => r.trap === entry.mistake.trap);
  let best: { mistake: KnownMistake; count: number; first: number; own: boolean } | undefined;
  for (const entry of tally.values()) {
    if (
      best === undefined ||
      entry.count > best.count ||
      (entry.count === best.count && entry.own && !best.own) ||
      (entry.count === best.count && entry.own === best.own && entry.first < best.first)
    ) {
      best = entry;
    }
  }
  if (best === undefined) return [];
  const top = best;
  return [...tally.values()]
    .filter((e) => e.count === top.count && e.own === top.own && e.first === top.first)
    .sort((a, b) => (a === top ? -1 : b === top ? 1 : 0))
    .map((e) => e.mistake);
}
