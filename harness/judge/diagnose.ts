// Decides which traps a failing solution fell into, so that the report leads with the cause and not
// with every case the cause happened to break. One bug usually fails several cases: an off-by-one at
// the window's edge also breaks expiry and the scale case; one TypeError breaks them all. Evidence,
// strongest first:
//  0. What the judge saw rules a trap out: a trap a case's result says is contradicted (the code
//     never read the real time, so not the real-time trap) never leads from that case, nor is
//     any failure put down to it there. A known mistake that, on its own trap's case, never gets
//     wrong a field the learner got wrong there (a queue that counts its running request starts
//     the next one on time; a meter starts it at once) is not theirs: it explains no failure.
//  1. Known mistakes: what the judge saw directly (the code read the real time; a case fails after
//     others and passes alone: state outside the instances) names the mistake first; then a
//     known-wrong implementation that fails a case exactly as the learner's code did (see
//     child/mimic.ts), the one that explains the most failures. Where several explain as much,
//     the one whose own trap's case failed first comes first.
//     A failure that its own trap's known mistake explains is never put down to another one.
//  2. Declared dependencies: a case that needs another trap's behaviour (933's scale case needs a
//     custom window) is put down to that trap when it fails too.
//  3. The same exception on many cases is one failure.
//  4. Otherwise the first failing case, in the order the verdict is decided (examples, core,
//     follow-ups), is a cause of its own.
import {
  isObserved,
  type CaseInfo,
  type CaseResult,
  type Diagnosis,
  type KnownMistake,
} from './outcome.ts';

/** Why a failure is put down to the one above it that threw the same exception. */
export const SAME_ERROR = 'the same error as above';

/** Causes the report leads with, at most: past that, the rest are listed briefly. */
const MAX_CAUSES = 3;

const failing = (result: CaseResult): boolean =>
  result.status !== 'passed' && result.status !== 'skipped';

/** Whether what the judge saw on this result rules `trap` out. */
const contradicts = (result: CaseResult, trap: string | null): boolean =>
  trap !== null && (result.contradicted?.includes(trap) ?? false);

/** The known mistakes of a result that what the judge saw does not rule out. */
type MimicsOf = (result: CaseResult) => KnownMistake[];

/**
 * What the judge saw rules out, of the known mistakes of the failing results: on a result, the
 * traps it contradicts; everywhere, a known-wrong file unlike the learner's code on a case of its
 * own trap (see CaseResult.unlike).
 */
function mimicsSeen(open: CaseResult[]): MimicsOf {
  const disowned = new Set(open.flatMap((r) => r.unlike ?? []));
  return (result) =>
    (result.mimics ?? []).filter((m) => !contradicts(result, m.trap) && !disowned.has(m.file));
}

/**
 * Whether a failure is explained by its own trap's known mistake: then it is a cause of its own,
 * never put down to another mistake that happens to fail it alike (a window limiter with no input
 * checks fails bad-input as every known mistake without checks does).
 */
const ownMistake = (
  result: CaseResult,
  ruledOut: (trap: string) => boolean,
  mimicsOf: MimicsOf,
): boolean =>
  result.trap !== null &&
  !ruledOut(result.trap) &&
  mimicsOf(result).some((m) => m.trap === result.trap);

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
  const mimicsOf = mimicsSeen(open);
  const needsOf = new Map(results.map((r, i) => [r, infos[i]?.needs ?? []]));
  const failingTraps = new Set(open.map((r) => r.trap).filter((t) => t !== null));
  const traps: string[] = [];
  const settle = (result: CaseResult, because: string): void => {
    result.because = because;
    open.splice(open.indexOf(result), 1);
  };
  let leads = 0;
  const lead = (result: CaseResult, trap: string | null): void => {
    result.lead = true;
    leads += 1;
    if (trap !== null && !traps.includes(trap)) traps.push(trap);
    open.splice(open.indexOf(result), 1);
  };

  // A known mistake fails its own trap's case: if the learner passed every case of that trap,
  // that is not their mistake, however alike the other failures look.
  const passed = new Set(results.filter((r) => r.status === 'passed').map((r) => r.trap));
  const ruledOut = (trap: string): boolean => passed.has(trap) && !failingTraps.has(trap);
  while (open.length > 0 && traps.length < MAX_CAUSES) {
    // A mistake already leading explains nothing new: failures it left open have their own cause.
    const mistakes = bestMistakes(open, (trap) => ruledOut(trap) || traps.includes(trap), mimicsOf);
    if (mistakes.length > 0) {
      // Mistakes that explain the learner's failures equally well all lead: the failing calls
      // cannot tell them apart, so the learner reads each one's hint.
      for (const { trap } of mistakes) {
        const leader = open.find((r) => r.trap === trap);
        if (leader !== undefined) lead(leader, trap);
      }
      const { trap } = mistakes[0] as KnownMistake;
      const explained = open.filter(
        (r) => r.trap === trap || mimicsOf(r).some((m) => m.trap === trap),
      );
      // Led by that trap's own case when the learner failed it (done above); else by the first
      // case it explains.
      if (!traps.includes(trap) && explained.length > 0) lead(explained[0] as CaseResult, trap);
      for (const { trap: cause } of mistakes) {
        for (const r of open.filter(
          (r) =>
            r.trap === cause ||
            (mimicsOf(r).some((m) => m.trap === cause) && !ownMistake(r, ruledOut, mimicsOf)),
        )) {
          settle(r, `likely the same cause: ${cause}`);
        }
      }
      continue;
    }
    // A case whose own trap what the judge saw rules out leads only when nothing else does.
    const plausible = open.find((r) => !contradicts(r, r.trap));
    if (plausible === undefined && leads > 0) break;
    const first = (plausible ?? open[0]) as CaseResult;
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
 * (seen directly or not alike, as many failures, their own trap's case failing as well or not, the
 * earliest failure the same), those whose own trap's case failed first, first. The best: one the
 * judge saw directly, then most failures, then one whose own trap's case failed, then the earliest
 * failure.
 */
function bestMistakes(
  open: CaseResult[],
  ruledOut: (trap: string) => boolean,
  mimicsOf: MimicsOf,
): KnownMistake[] {
  interface Entry {
    mistake: KnownMistake;
    observed: boolean;
    count: number;
    first: number;
    /** Where the mistake's own trap's case first failed; -1 if it did not. */
    own: number;
  }
  const tally = new Map<string, Entry>();
  open.forEach((result, position) => {
    const counted = new Set<string>();
    for (const mistake of mimicsOf(result)) {
      if (counted.has(mistake.trap) || ruledOut(mistake.trap)) continue;
      counted.add(mistake.trap);
      const entry = tally.get(mistake.trap) ?? {
        mistake,
        observed: false,
        count: 0,
        first: position,
        own: -1,
      };
      entry.count += 1;
      entry.observed ||= isObserved(mistake);
      tally.set(mistake.trap, entry);
    }
  });
  for (const entry of tally.values()) {
    entry.own = open.findIndex((r) => r.trap === entry.mistake.trap);
  }
  const owns = (e: Entry): boolean => e.own >= 0;
  let best: Entry | undefined;
  for (const entry of tally.values()) {
    if (
      best === undefined ||
      (entry.observed && !best.observed) ||
      (entry.observed === best.observed &&
        (entry.count > best.count ||
          (entry.count === best.count && owns(entry) && !owns(best)) ||
          (entry.count === best.count && owns(entry) === owns(best) && entry.first < best.first)))
    ) {
      best = entry;
    }
  }
  if (best === undefined) return [];
  const top = best;
  const ownOrder = (e: Entry): number => (e.own < 0 ? Infinity : e.own);
  return [...tally.values()]
    .filter(
      (e) =>
        e.observed === top.observed &&
        e.count === top.count &&
        owns(e) === owns(top) &&
        e.first === top.first,
    )
    .sort((a, b) => ownOrder(a) - ownOrder(b) || (a === top ? -1 : b === top ? 1 : 0))
    .map((e) => e.mistake);
}
