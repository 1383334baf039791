// problem.json's "requires": what a problem needs of the machine. A name the judge does not know is
// refused when the catalogue is loaded (a typo must not make a Redis kata look like it needs nothing),
// and whether the machine meets a requirement is decided from the environment alone.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadProblems } from '../../harness/judge/problems.ts';
import { REQUIREMENTS, unmetRequirement } from '../../harness/judge/requirements.ts';
import { wrapKeepingCode } from '../../harness/terminal/wrap.ts';
import { scratchDir } from '../helpers.ts';

const meta = { title: 'T', difficulty: 'Easy', className: 'C', order: 1, idea: 'i' };

/** A catalogue of one problem, `1-a`, whose problem.json has `requires` as given. */
function withRequires(requires: unknown): { dir: string; file: string } {
  const dir = scratchDir('requires');
  mkdirSync(path.join(dir, '1-a'));
  const file = path.join(dir, '1-a', 'problem.json');
  writeFileSync(file, JSON.stringify(requires === undefined ? meta : { ...meta, requires }));
  return { dir, file };
}

describe('problem.json "requires"', () => {
  test('absent: the problem needs nothing; of the shipped ones, only the Redis katas need Redis', () => {
    expect(loadProblems(withRequires(undefined).dir)[0]?.requires).toEqual([]);
    const needing = loadProblems()
      .filter((p) => p.requires?.length !== 0)
      .map((p) => [p.dir, p.requires]);
    expect(needing).toEqual([
      ['redis-token-bucket', ['redis']],
      ['redis-sliding-window-log', ['redis']],
    ]);
  });

  test('["redis"] is known, and a name given twice counts once', () => {
    expect(REQUIREMENTS).toContain('redis');
    expect(loadProblems(withRequires(['redis']).dir)[0]?.requires).toEqual(['redis']);
    expect(loadProblems(withRequires(['redis', 'redis']).dir)[0]?.requires).toEqual(['redis']);
    expect(loadProblems(withRequires([]).dir)[0]?.requires).toEqual([]);
  });

  test('an unknown requirement is refused, naming the file, the name and the known ones', () => {
    const { dir, file } = withRequires(['redis', 'reddis']);
    expect(() => loadProblems(dir)).toThrow(
      `${file}: "requires" names "reddis", which the judge does not know (known: redis)`,
    );
    expect(() => loadProblems(withRequires([7]).dir)).toThrow(/"requires" names 7, which/);
  });

  test('anything but a list is refused', () => {
    for (const wrong of ['redis', { redis: true }, null, 1]) {
      const { dir, file } = withRequires(wrong);
      expect(() => loadProblems(dir)).toThrow(
        `${file}: "requires" must be a list, e.g. ["redis"] (known: redis)`,
      );
    }
  });
});

describe('unmetRequirement', () => {
  const redisKata = { requires: ['redis'] as const };
  const bare = { PATH: scratchDir('requires-empty-path') };

  test('a problem that needs nothing is never held back', () => {
    expect(unmetRequirement({ requires: [] }, bare)).toBeUndefined();
    expect(unmetRequirement({}, bare)).toBeUndefined();
  });

  test('redis without REDIS_URL, REDIS_SERVER or redis-server on PATH: what is missing, and how', () => {
    const unmet = unmetRequirement(redisKata, bare);
    expect(unmet).toMatchObject({ requirement: 'redis', label: 'needs Redis' });
    expect(unmet?.message).toMatch(/^This kata needs redis-server, but it is not on PATH: /);
    expect(unmet?.note).toMatch(/^redis-server is not on PATH; install it \(Debian/);
    for (const text of [unmet?.message, unmet?.note]) {
      expect(text).not.toContain('\n');
      expect(text).toContain('docker run -p 6379:6379 redis:7');
    }
    const named = unmetRequirement(redisKata, { ...bare, REDIS_SERVER: '/nowhere/redis-server' });
    expect(named?.note).toMatch(/^REDIS_SERVER=\/nowhere\/redis-server is not an executable file;/);
  });

  test('redis with REDIS_URL, or an executable redis-server: met (nothing is started)', () => {
    expect(unmetRequirement(redisKata, { ...bare, REDIS_URL: 'redis://127.0.0.1:1' })).toBe(
      undefined,
    );
    // Any executable will do for the decision: /bin/sh stands in for the server.
    expect(unmetRequirement(redisKata, { ...bare, REDIS_SERVER: '/bin/sh' })).toBeUndefined();
  });
});

describe('wrapKeepingCode', () => {
  test('a command in backticks is never split; the rest wraps as wrap() does', () => {
    const text = 'or run `docker run -p 6379:6379 redis:7` and set REDIS_URL, then try again';
    expect(wrapKeepingCode(text, 30, '  ')).toBe(
      [
        'or run',
        '  `docker run -p 6379:6379 redis:7`',
        '  and set REDIS_URL, then try',
        '  again',
      ].join('\n'),
    );
    expect(wrapKeepingCode('short `a b`', 80)).toBe('short `a b`');
  });
});
