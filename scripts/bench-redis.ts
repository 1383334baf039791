// `npm run bench -- redis`: what the judge's Redis adds to a command (kata, grade). A command starts
// it when the first problem that requires Redis is about to be judged and stops it when it ends
// (harness/redis/session.ts); this does the same, round after round, each round a fresh
// CommandRedis as each command is. The first round also pays what a command pays once: loading the
// code that starts it. The budget for a grade is 150 ms. With REDIS_URL, the rounds prepare
// the user's server instead (a confined user, then its clean-up).
import { CommandRedis } from '../harness/redis/session.ts';
import { RedisStartError } from '../harness/redis/server.ts';

const ROUNDS = 20;

export interface RedisStartCost {
  mode: string;
  first: { start: number; stop: number };
  /** start + stop of the later rounds, sorted. */
  later: number[];
}

export async function measureRedisStart(rounds = ROUNDS): Promise<RedisStartCost | string> {
  const rows: { start: number; stop: number }[] = [];
  for (let i = 0; i < rounds; i++) {
    const redis = new CommandRedis();
    const t0 = performance.now();
    try {
      await redis.optionsFor({ requires: ['redis'] });
    } catch (error) {
      await redis.close();
      if (error instanceof RedisStartError) return error.message.split('\n')[0] ?? 'no Redis';
      throw error;
    }
    const t1 = performance.now();
    await redis.close();
    rows.push({ start: t1 - t0, stop: performance.now() - t1 });
  }
  const [first, ...rest] = rows;
  return {
    mode: process.env.REDIS_URL
      ? 'REDIS_URL (a confined user, then its clean-up)'
      : "the judge's own redis-server",
    first: first ?? { start: 0, stop: 0 },
    later: rest.map((r) => r.start + r.stop).sort((a, b) => a - b),
  };
}

/** The section's lines. */
export async function benchRedis(out: (line: string) => void): Promise<void> {
  const cost = await measureRedisStart();
  if (typeof cost === 'string') {
    out(`\nRedis start + stop: not measured (${cost})`);
    return;
  }
  const ms = (value: number): string => `${Math.round(value)} ms`;
  const at = (q: number): number =>
    cost.later[Math.min(cost.later.length - 1, Math.floor(q * cost.later.length))] ?? 0;
  out(
    `\nRedis start + stop per judgement (each has its own), ${cost.mode}, ${ROUNDS} rounds (budget 150 ms):`,
  );
  out(
    `  first round (what a command pays): start ${ms(cost.first.start)} + stop ${ms(cost.first.stop)} = ${ms(cost.first.start + cost.first.stop)}`,
  );
  out(`  later rounds: median ${ms(at(0.5))}, worst ${ms(cost.later.at(-1) ?? 0)}`);
}
