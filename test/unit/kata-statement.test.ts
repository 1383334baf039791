// kata shows the statement while `npm run kata <problem>` runs: the statement's own line telling the
// reader to run that command is left out there (it stays in the file, for reading elsewhere).
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { loadProblems } from '../../harness/judge/problems.ts';
import { withoutRunLine } from '../../scripts/commands/kata.ts';

test.each(loadProblems().map((p) => [p.dir, p] as const))(
  '%s: kata does not tell the learner to run kata',
  (_dir, problem) => {
    const statement = readFileSync(problem.statementFile, 'utf8');
    const shown = withoutRunLine(statement, problem);
    expect(shown).not.toMatch(new RegExp(`npm run kata (${problem.id}|${problem.dir})\``));
    // Nothing else goes.
    expect(statement.replace(shown.trimEnd(), '').trim()).toMatch(/^(Run `npm run kata[\s\S]*)?$/);
  },
);
