// problems/redis-client.ts's RedisClient, the type a Redis kata's solution is written against, checked
// by TypeScript itself: a real client of the `redis` package is one (so code written against it runs
// on the real client), a type that lies about a reply or an argument is caught, and a learner's file
// that uses it is checked by the judge's options without reading the package's declarations at all.
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { LEETCODE_COMPILER_OPTIONS } from '../../harness/judge/typecheck/setup.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const FIXTURES = path.join(ROOT, 'test/fixtures/redis-client-type');

function check(file: string, extra: Record<string, unknown>) {
  const { options, errors } = ts.convertCompilerOptionsFromJson(
    { ...LEETCODE_COMPILER_OPTIONS, ...extra },
    ROOT,
  );
  expect(errors).toEqual([]);
  const program = ts.createProgram([path.join(FIXTURES, file)], options);
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${path.relative(ROOT, d.file.fileName)}: ` : '';
    return where + ts.flattenDiagnosticMessageText(d.messageText, '\n');
  });
  const files = program.getSourceFiles().map((f) => path.relative(ROOT, f.fileName));
  return { diagnostics, files };
}

describe('RedisClient (problems/redis-client.ts)', () => {
  test('a client of the `redis` package is one, over RESP3 or RESP2; wrong types are caught', () => {
    // As a Node project compiles the real client: strict, with Node's declarations (which the
    // package's own need). Under the judge's lax options (no strictNullChecks) the package types
    // a missing reply as `{}`, and its client fits no honest type: that is why the judge has one.
    const { diagnostics, files } = check('real-client.ts', {
      strict: true,
      types: ['node'],
    });
    // The two @ts-expect-error lines in the fixture would be errors here if they did not fail.
    expect(diagnostics).toEqual([]);
    expect(files.some((file) => file.includes('node_modules/@redis/client/'))).toBe(true);
  });

  test('a learner’s file checks with the judge’s options, reading none of the package', () => {
    const { diagnostics, files } = check('learner.ts', {});
    expect(diagnostics).toEqual([]);
    expect(files.filter((file) => !file.includes('node_modules/typescript/lib/')).sort()).toEqual([
      'problems/redis-client.ts',
      'test/fixtures/redis-client-type/learner.ts',
    ]);
  });
});
