// Each statement lists exactly the follow-ups its judge checks. The convention: the statement has one
// section "## Follow-ups the judge also checks", with one bullet per follow-up case of the suite, and
// each bullet starts with that case's trap in backticks (- `scale` — …), the name the report shows
// beside the case in brackets. Two cases with one trap get a bullet each. Every count the statement
// gives ("4 follow-up cases", "follow-ups 4/4") is the number of follow-up cases, as the report's
// "follow-ups passed/total" counts them.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { loadProblems } from '../../harness/judge/problems.ts';
import type { Suite } from '../../harness/suite.ts';

const SECTION = '## Follow-ups the judge also checks';

/** The bullets of the follow-ups section, each with the trap it names (undefined: names none). */
function followUpBullets(markdown: string): { trap: string | undefined; text: string }[] {
  const start = markdown.indexOf(`${SECTION}\n`);
  if (start < 0) return [];
  const rest = markdown.slice(start + SECTION.length);
  const end = rest.search(/^#{1,2} /m);
  const section = end < 0 ? rest : rest.slice(0, end);
  return section
    .split('\n')
    .filter((line) => /^[-*+] /.test(line))
    .map((text) => ({ trap: /^- `([a-z0-9-]+)` — \S/.exec(text)?.[1], text }));
}

const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
};

/** Every count of follow-ups the text states: "3 follow-ups", "three follow-up cases", "2/3". */
function statedCounts(markdown: string): { said: string; total: number; passed?: number }[] {
  const text = markdown.replace(/\s+/g, ' ');
  const counts: { said: string; total: number; passed?: number }[] = [];
  for (const m of text.matchAll(/\b(\d+|[a-z]+) follow-ups?\b/gi)) {
    const word = (m[1] as string).toLowerCase();
    const total = /^\d+$/.test(word) ? Number(word) : NUMBER_WORDS[word];
    if (total !== undefined) counts.push({ said: m[0], total });
  }
  for (const m of text.matchAll(/\bfollow-ups (\d+)\/(\d+)/gi)) {
    counts.push({ said: m[0], passed: Number(m[1]), total: Number(m[2]) });
  }
  return counts;
}

describe('the convention, on made-up statements', () => {
  const md = [
    '# T',
    '',
    'There are 2 follow-ups ("follow-ups 1/2" when one passes).',
    '',
    SECTION,
    '',
    '- `scale` — big.',
    '- **old style** — no trap.',
    '- `custom-window` — another window,',
    '  continued.',
    '',
    'Run it.',
    '',
    '## Later',
    '',
    '- `not-this` — outside the section.',
  ].join('\n');

  test('reads the bullets of the section only, and the trap each names first', () => {
    expect(followUpBullets(md).map((b) => b.trap)).toEqual(['scale', undefined, 'custom-window']);
    expect(followUpBullets('# No section\n\n- `scale` — x')).toEqual([]);
  });

  test('finds every count, in digits or in words', () => {
    expect(statedCounts(md)).toEqual([
      { said: '2 follow-ups', total: 2 },
      { said: 'follow-ups 1/2', passed: 1, total: 2 },
    ]);
    expect(
      statedCounts('Three follow-up\ncases; the follow-ups below').map((c) => c.total),
    ).toEqual([3]);
  });
});

for (const problem of loadProblems()) {
  describe(problem.dir, () => {
    test('the statement lists exactly the follow-ups its suite checks', async () => {
      const suite = ((await import(problem.suiteFile)) as { default: Suite }).default;
      const cases = suite.cases.filter((c) => c.tier === 'follow-up');
      const markdown = readFileSync(problem.statementFile, 'utf8');
      expect(markdown.split(`${SECTION}\n`), `one "${SECTION}" section`).toHaveLength(2);
      const bullets = followUpBullets(markdown);
      const unnamed = bullets.filter((b) => b.trap === undefined).map((b) => b.text);
      expect(unnamed, 'each bullet starts with its trap: - `trap` — …').toEqual([]);
      expect(bullets).toHaveLength(cases.length);
      // The same traps, each as often as the suite has cases for it.
      const sorted = (traps: (string | null | undefined)[]) => [...traps].sort();
      expect(sorted(bullets.map((b) => b.trap))).toEqual(sorted(cases.map((c) => c.trap)));
    });

    test('every count of follow-ups it states is the number the report counts', async () => {
      const suite = ((await import(problem.suiteFile)) as { default: Suite }).default;
      const total = suite.cases.filter((c) => c.tier === 'follow-up').length;
      const counts = statedCounts(readFileSync(problem.statementFile, 'utf8'));
      // The report's own words are given at least once: "follow-ups 3/3".
      expect(counts.filter((c) => c.passed !== undefined).length).toBeGreaterThan(0);
      for (const count of counts) {
        expect(count.total, count.said).toBe(total);
        expect(count.passed ?? 0, count.said).toBeLessThanOrEqual(total);
      }
    });
  });
}
