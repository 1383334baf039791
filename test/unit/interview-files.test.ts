// An interview file with a mistake is the repository's fault: reading it names the file, the rung
// and what is wrong, so that an author fixes it at once.
import { describe, expect, test } from 'vitest';
import { loadProblems } from '../../harness/judge/problems.ts';
import { parseInterview } from '../../scripts/lib/interviews.ts';

const problems = loadProblems();
const ask = 'Tell me about it.';
const question = { question: 'Which?', choices: ['a', 'b'], answer: 0, why: 'Because.' };
const discussion = { id: 'talk', ask, questions: [question] };
const file = (rungs: unknown[]): unknown => ({ title: 'Test', minutes: 10, rungs });

describe('parseInterview', () => {
  test('a sound file: the budget in ms, a coding rung on its kata, a quiz question by index', () => {
    const def = parseInterview(
      'ok',
      file([
        { id: 'count', ask, kata: '933', gate: ['scale'] },
        { id: 'talk', ask, questions: [question, { quiz: '933', index: 0 }] },
      ]),
      problems,
    );
    expect(def.budgetMs).toBe(600_000);
    expect(def.rungs[0]).toMatchObject({ kind: 'code', gate: ['scale'], without: [] });
    expect(def.rungs[1]).toMatchObject({ kind: 'discussion' });
    if (def.rungs[1]?.kind === 'discussion')
      expect(def.rungs[1].questions[1]?.from?.id).toBe('933');
  });

  test.each([
    ['no title', { minutes: 10, rungs: [discussion] }, /needs a title and minutes/],
    ['no time', { title: 'T', minutes: 0, rungs: [discussion] }, /needs a title and minutes/],
    ['no rungs', { title: 'T', minutes: 5, rungs: [] }, /needs rungs/],
    ['a rung without ask', file([{ id: 'x' }]), /rung 1: a rung needs an id and what/],
    ['an unknown kata', file([{ id: 'x', ask, kata: '99999' }]), /rung 1: no kata "99999"/],
    [
      'a gate not a list',
      file([{ id: 'x', ask, kata: '933', gate: 'scale' }]),
      /gate must be a list/,
    ],
    [
      'Redis with no fallback',
      file([{ id: 'x', ask, kata: 'redis-token-bucket' }]),
      /say what to ask without it/,
    ],
    ['no questions', file([{ id: 'x', ask, questions: [] }]), /rung 1: needs questions/],
    [
      'a bad question',
      file([{ id: 'x', ask, questions: [{ question: 'Q' }] }]),
      /question 1: a question needs/,
    ],
    [
      'an answer out of range',
      file([{ id: 'x', ask, questions: [{ ...question, answer: 2 }] }]),
      /a question needs/,
    ],
    [
      'too many choices',
      file([{ id: 'x', ask, questions: [{ ...question, choices: ['a', 'b', 'c', 'd', 'e'] }] }]),
      /at most 4 choices/,
    ],
    [
      'a quiz of no kata',
      file([{ id: 'x', ask, questions: [{ quiz: 'nope', index: 0 }] }]),
      /no kata "nope" to take a quiz question from/,
    ],
    [
      'a quiz question that is not there',
      file([{ id: 'x', ask, questions: [{ quiz: '933', index: 99 }] }]),
      /933's quiz has no question 99/,
    ],
    ['two rungs with one id', file([discussion, discussion]), /two rungs have the same id/],
  ])('%s is refused, naming the file and what is wrong', (_, raw, message) => {
    expect(() => parseInterview('bad', raw, problems)).toThrow(message);
    expect(() => parseInterview('bad', raw, problems)).toThrow(/^interviews\/bad\.json/);
  });
});
