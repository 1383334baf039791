// The checks of test/problem-checks.ts for the 2nd, 4th, 6th, … problems of the ladder.
import { checkProblems } from './problem-checks.ts';

checkProblems(1);
