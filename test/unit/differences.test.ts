// An object answer too long to show whole (a gateway's decision with its headers) is cut at 120
// characters; the fields that differ are then shown on their own, so the difference is never lost
// in the part cut off.
import { expect, test } from 'vitest';
import { answerEquals, drive } from '../../harness/judge/child/drive.ts';
import { directPort } from '../../harness/sandbox/port.ts';
import type { CaseResult } from '../../harness/judge/outcome.ts';
import { callTable } from '../../harness/terminal/report.ts';
import { makeStyle } from '../../harness/terminal/style.ts';
import { fromCalls } from '../../harness/suite.ts';

const HEADERS = {
  RateLimit: '"default";r=0;t=3',
  'RateLimit-Policy': '"default";q=100;w=60;pk=:cHJvZmlsZQ==:',
  'X-Long': 'x'.repeat(60),
  'Retry-After': '3',
};

class Gateway {
  check(): unknown {
    return { allowed: false, remaining: 0, headers: { ...HEADERS, 'Retry-After': '2' } };
  }
}

const options = {
  className: 'Gateway',
  equals: answerEquals(),
  keepAll: true,
  stopAfterDivergence: false,
};

class Limiter {
  check(): unknown {
    return { allowed: false, remaining: 0 };
  }
}

function table(expected: unknown, learner: new () => unknown = Gateway, reveal = false): string[] {
  const driven = drive(
    fromCalls([
      { method: 'Gateway', args: [], expected: null, target: 0 },
      { method: 'check', args: [], expected, target: 0 },
    ]),
    directPort(learner as typeof Gateway),
    options,
  );
  const result = {
    name: 'c',
    tier: 'core',
    trap: null,
    hint: null,
    status: 'failed',
    ms: 0,
    calls: driven.records,
  } as CaseResult;
  return callTable(result, makeStyle(false), true, reveal);
}

test('a difference past the cut is shown field by field, in full', () => {
  const lines = table({ allowed: false, remaining: 0, headers: HEADERS });
  const text = lines.join('\n');
  // The whole answers are cut before Retry-After...
  expect(text).toMatch(/expected\s+\{allowed:false,[^]*…/);
  expect(text).not.toContain('Retry-After":"3"');
  // ...and the field that differs is shown on its own, expected against actual.
  expect(text).toMatch(/differs: headers\.Retry-After\n\s+expected "3"\n\s+actual {3}"2"/);
  for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
});

test('answers short enough to read whole keep the one-line list of fields', () => {
  const text = table({ allowed: true, remaining: 0 }, Limiter).join('\n');
  expect(text).toContain('differs: allowed');
  expect(text).not.toMatch(/differs: allowed\n\s+expected/);
});

test('the differs line names the innermost field, also when the answers are shown whole', () => {
  class Short {
    check(): unknown {
      return { allowed: true, headers: { RateLimit: 'r=1', Policy: 'q=2' } };
    }
  }
  const text = table({ allowed: true, headers: { RateLimit: 'r=0', Policy: 'q=2' } }, Short).join(
    '\n',
  );
  expect(text).toContain('differs: headers.RateLimit');
  expect(text).not.toMatch(/differs: headers(,|\n|$)/);
});

test('--reveal shows both answers whole, header strings as sent', () => {
  const text = table({ allowed: false, remaining: 0, headers: HEADERS }, Gateway, true).join('\n');
  expect(text).not.toContain('…');
  expect(text).toContain(`'"default";q=100;w=60;pk=:cHJvZmlsZQ==:'`);
  expect(text).toMatch(/Retry-After":'2'|"Retry-After":"2"/);
});
