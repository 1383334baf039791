// `npm run bench -- redis`: what the judge's Redis adds to a command (kata, grade). A command starts
// it when the first problem that requires Redis is about to be judged and stops it when it ends
// (harness/redis/session.ts); this does the same, round after round, each round a fresh
// CommandRedis as each command is. The first round also pays what a command pays once: loading the
// code that starts it. The budget for a grade is 150 ms. With REDIS_URL, the rounds prepare
// the user's server instead (a confined user, then its clean-up).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { judge, releaseSlot, type SessionSlot } from '../../harness/judge/judge.ts';
import { loadProblems, type Problem } from '../../harness/judge/problems.ts';
import { findRedisServer } from '../../harness/redis/availability.ts';
import { CommandRedis } from '../../harness/redis/session.ts';
import { DEFAULT_WIDTH, wrap } from '../../harness/terminal/wrap.ts';
import { RedisStartError } from '../../harness/redis/server.ts';
import { watchKata } from './watched-kata.ts';
import { copyRepo } from './repo-copy.ts';

const ROUNDS = 20;
/** Saves of a correct solution per Redis kata, in watch mode. */
const REDIS_SAVES = 4;
/** The goal: a correct Redis solution's verdict within 2 s of the save, on an idle machine. */
const REDIS_SAVE_TARGET_MS = 2000;

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

/**
 * `kata <id> --watch` in a copy of the repo: from each save of the reference (edited a little each
 * time, so that no verdict is kept) to its verdict on example and core cases. Redis's scenarios wait
 * for real time on Redis's clock, which is most of what this measures.
 */
async function saveToVerdict(id: string, referenceFile: string, dir: string): Promise<number[]> {
  const copy = copyRepo(mkdtempSync(path.join(tmpdir(), 'window-katas-bench-redis-')));
  const stub = path.join(copy, 'problems', dir, 'solution.ts');
  const { child, until } = watchKata(copy, id);
  try {
    await until(/Watching/);
    const reference = readFileSync(referenceFile, 'utf8');
    const latencies: number[] = [];
    // The first save warms the child (the redis package, the realm): a learner's later saves
    // find it warm, and it is not counted.
    for (let save = 0; save <= REDIS_SAVES; save++) {
      const decided = until(/· checking the follow-ups/);
      const savedAt = performance.now();
      writeFileSync(stub, `${reference}\nexport const benchEdit${save} = ${Date.now()};\n`);
      await decided;
      if (save > 0) latencies.push(performance.now() - savedAt);
      await until(/(Accepted|Wrong Answer|Error|Exceeded)\s+\(cases/);
    }
    return latencies;
  } finally {
    child.kill();
    rmSync(copy, { recursive: true, force: true });
  }
}

/** Wall time of one example or core case on the way to the verdict. */
export interface CaseWall {
  name: string;
  wallMs: number;
  cpuMs: number;
}

/**
 * Where a verdict's wall time goes: the reference judged as watch mode judges a save (a warm child
 * with a spare, a Redis of its own), the second of two judgements, each example and core case's wall
 * time (the first case's includes loading the solution). A case whose wall time is far above its
 * CPU time waits: on Redis's clock, or for round trips.
 */
export async function casesOnThePath(problem: Problem): Promise<CaseWall[]> {
  const redis = new CommandRedis();
  const slot: SessionSlot = { keepSpare: true };
  let walls: CaseWall[] = [];
  try {
    for (let round = 0; round < 2; round++) {
      walls = [];
      let last = performance.now();
      let decided = false;
      await judge({
        problem,
        solutionFile: problem.referenceFile,
        slot,
        redis: async () => {
          const options = await redis.optionsFor(problem);
          last = performance.now();
          return options;
        },
        onDecided: () => (decided = true),
        onCase: (result) => {
          const now = performance.now();
          if (!decided) walls.push({ name: result.name, wallMs: now - last, cpuMs: result.ms });
          last = now;
        },
      });
    }
  } finally {
    releaseSlot(slot);
    await redis.close();
  }
  return walls;
}

/** Where the time goes, within 80 columns: the total, and the cases that take the most. */
export function pathLine(walls: CaseWall[], shown = 5): string {
  const total = walls.reduce((sum, c) => sum + c.wallMs, 0);
  const top = [...walls]
    .sort((a, b) => b.wallMs - a.wallMs)
    .slice(0, shown)
    .map((c) => `${c.name} ${Math.round(c.wallMs)}/${c.cpuMs}`);
  const text = `cases ${Math.round(total)} ms; slowest (wall/CPU ms): ${top.join(', ')}`;
  return wrap(`    ${text}`, DEFAULT_WIDTH, '      ');
}

/** The section's lines for the Redis katas in watch mode: save → verdict of a correct solution. */
export async function benchRedisWatch(out: (line: string) => void): Promise<void> {
  const katas = loadProblems().filter((problem) => problem.requires?.includes('redis'));
  if (katas.length === 0) return;
  if (!process.env.REDIS_URL && !findRedisServer()) {
    out('\nRedis katas, save → verdict: not measured (no redis-server)');
    return;
  }
  // The target is for an idle machine: the load says how far from idle the figures were taken.
  const load = (): string => loadavg()[0]?.toFixed(1) ?? '?';
  out(
    `\nRedis katas in watch mode, save → verdict of the reference on example and core cases (${REDIS_SAVES} saves each, target within ${REDIS_SAVE_TARGET_MS} ms on an idle machine; load average ${load()} at the start):`,
  );
  for (const problem of katas) {
    const latencies = await saveToVerdict(problem.id, problem.referenceFile, problem.dir);
    const sorted = [...latencies].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
    const within = median <= REDIS_SAVE_TARGET_MS ? 'within' : 'OVER';
    out(
      `  ${problem.id}: median ${Math.round(median)} ms, worst ${Math.round(sorted.at(-1) ?? 0)} ms (${within} the target)`,
    );
    out(pathLine(await casesOnThePath(problem)));
  }
  out(`  load average ${load()} at the end`);
}
