// `npm run bench -- redis`: what starting and stopping the judge's Redis costs a command.
import { describe, expect, test } from 'vitest';
import { benchRedis, measureRedisStart } from '../../scripts/lib/bench-redis.ts';
import { findRedisServer } from '../../harness/redis/availability.ts';

describe('bench redis', () => {
  test.skipIf(!findRedisServer())(
    'measures rounds of start and stop, and says so',
    async () => {
      const cost = await measureRedisStart(3);
      if (typeof cost === 'string') throw new Error(cost);
      expect(cost.later).toHaveLength(2);
      expect(cost.first.start).toBeGreaterThan(0);
      const lines: string[] = [];
      await benchRedis((line) => lines.push(line));
      expect(lines.join('\n')).toMatch(/first round \(what a command pays\): start \d+ ms/);
    },
    30_000,
  );

  test('without Redis it says why, and measures nothing', async () => {
    const saved = { server: process.env.REDIS_SERVER, url: process.env.REDIS_URL };
    process.env.REDIS_SERVER = '/nonexistent';
    delete process.env.REDIS_URL;
    try {
      const lines: string[] = [];
      await benchRedis((line) => lines.push(line));
      expect(lines.join('\n')).toMatch(/Redis start \+ stop: not measured \(.+\)/);
    } finally {
      if (saved.server === undefined) delete process.env.REDIS_SERVER;
      else process.env.REDIS_SERVER = saved.server;
      if (saved.url !== undefined) process.env.REDIS_URL = saved.url;
    }
  });
});
