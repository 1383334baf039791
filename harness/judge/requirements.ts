// What a problem needs of the machine beyond Node, as its problem.json declares it ("requires"), and
// whether this machine has it. A problem whose need is unmet is not judged at all: `kata` says in one
// line what is missing and how to get it, `grade` lists the problem apart, and no attempt is recorded,
// since the learner did nothing wrong. Nothing here names a problem.
import { redisAvailability } from '../redis/availability.ts';

/** Every requirement the judge knows; problem.json may name only these. */
export const REQUIREMENTS = ['redis'] as const;

export type Requirement = (typeof REQUIREMENTS)[number];

export function isRequirement(name: unknown): name is Requirement {
  return (REQUIREMENTS as readonly unknown[]).includes(name);
}

/** Why a problem cannot be judged on this machine. */
export interface Unmet {
  requirement: Requirement;
  /** What grade's verdict column says instead of a verdict: `needs Redis`. */
  label: string;
  /** One line for a learner who opened the problem: what is missing and how to get it. */
  message: string;
  /** The same for a list of problems (grade's note under its table), after the label. */
  note: string;
}

interface Check {
  label: string;
  /** Undefined when the machine has what it takes. Cheap: no server is started, nothing imported. */
  unmet(env: NodeJS.ProcessEnv): { message: string; note: string } | undefined;
}

const CHECKS: Record<Requirement, Check> = {
  redis: {
    label: 'needs Redis',
    unmet(env) {
      const availability = redisAvailability(env);
      if (availability.available) return undefined;
      return {
        message: availability.message,
        note: `${availability.reason}; ${availability.howTo}.`,
      };
    },
  },
};

/** The first of the problem's requirements this machine does not meet, or undefined if it meets all. */
export function unmetRequirement(
  problem: { requires?: readonly Requirement[] },
  env: NodeJS.ProcessEnv = process.env,
): Unmet | undefined {
  for (const requirement of problem.requires ?? []) {
    const check = CHECKS[requirement];
    const unmet = check.unmet(env);
    if (unmet) return { requirement, label: check.label, ...unmet };
  }
  return undefined;
}
