// REDIS_URL is checked before anything connects: a value that cannot be a Redis URL is "needs
// Redis" with the reason, never a TypeError, and the value itself (which may hold a password) is
// never echoed.
import { describe, expect, test } from 'vitest';
import { badRedisUrl, redactUrl, redisAvailability } from '../../harness/redis/availability.ts';

describe('badRedisUrl', () => {
  test.each([
    ['garbage', 'it is not a URL'],
    ['http://127.0.0.1:6379', 'it is a http: URL, not redis:// or rediss://'],
    ['redis://127.0.0.1:6379/cache', 'its path must be a database number (/0)'],
  ])('%s: %s', (url, reason) => {
    expect(badRedisUrl(url)).toBe(reason);
  });

  test.each(['redis://127.0.0.1:6379', 'redis://:pw@localhost:6380/2', 'rediss://h:6379'])(
    '%s is fit',
    (url) => {
      expect(badRedisUrl(url)).toBeUndefined();
    },
  );
});

test('a malformed REDIS_URL makes Redis unavailable, says why and how, and keeps its secret', () => {
  const got = redisAvailability({ REDIS_URL: 'redis//user:s3cret@host' });
  expect(got).toMatchObject({ available: false });
  if (got.available) return;
  expect(got.message).toMatch(/^This kata needs Redis: REDIS_URL is set but it is not a URL/);
  expect(got.message).toMatch(/unset it to let the judge start its own redis-server/);
  expect(got.message).not.toContain('s3cret');
});

test('a REDIS_SERVER that is no executable is named, with how to get one', () => {
  const got = redisAvailability({ REDIS_SERVER: '/nonexistent/redis-server', PATH: '' });
  expect(got).toMatchObject({
    available: false,
    reason: 'REDIS_SERVER=/nonexistent/redis-server is not an executable file',
  });
});

test('a password never reaches a message', () => {
  expect(redactUrl('redis://user:s3cret@host:6379/0')).toBe('redis://user:***@host:6379/0');
  expect(redactUrl('not a url')).toBe('(unparsable REDIS_URL)');
});
