// The checks of test/problem-checks.ts for the 1st, 3rd, 5th, … problems of the ladder.
import { checkProblems } from './problem-checks.ts';

checkProblems(0);
