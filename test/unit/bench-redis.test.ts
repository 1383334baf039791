// `npm run bench -- redis`: what starting and stopping the judge's Redis costs a command.
import { describe, expect, test } from 'vitest';
import { benchRedis, measureRedisStart, pathLine } from '../../scripts/lib/bench-redis.ts';
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

  test('where the time goes: the total of the cases on the path, and the slowest first', () => {
    const line = pathLine(
      [
        { name: 'example-1', wallMs: 120.4, cpuMs: 60 },
        { name: 'mixed-traffic', wallMs: 300.2, cpuMs: 30 },
        { name: 'bad-input', wallMs: 5, cpuMs: 4 },
      ],
      2,
    );
    expect(line).toBe(
      '    cases 426 ms; slowest (wall/CPU ms): mixed-traffic 300/30, example-1 120/60',
    );
    const names = ['concurrent-burst', 'mixed-traffic', 'edge-of-the-window', 'cluster-keys'];
    const long = pathLine(names.map((name) => ({ name, wallMs: 1234, cpuMs: 123 })));
    const rows = long.split('\n');
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows) expect(row.length).toBeLessThanOrEqual(80);
    expect(rows[1]).toMatch(/^ {6}\S/);
  });
});
