// What the judge's Redis adds to a command (kata, grade): starting it when the first problem that
// requires Redis comes up, and stopping it when the command ends (harness/redis/session.ts), as wall
// time and as the parent's CPU time. Not a test (it only reports); issue 13's budget is 150 ms.
//   npx tsx test/measure/redis-start-cost.ts [rounds]            the judge's own redis-server
//   REDIS_URL=redis://… npx tsx test/measure/redis-start-cost.ts  a user's server (ACL user, cleanup)
// Each round is a fresh CommandRedis, as each command is; the first round of a process also pays
// for loading what the start needs (with REDIS_URL: the redis package, for the admin connection).
import { CommandRedis } from '../../harness/redis/session.ts';

const rounds = Number(process.argv[2] ?? 20);
const rows: { start: number; stop: number; cpu: number }[] = [];
for (let i = 0; i < rounds; i++) {
  const redis = new CommandRedis();
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  await redis.optionsFor({ requires: ['redis'] });
  const t1 = performance.now();
  await redis.close();
  const t2 = performance.now();
  const used = process.cpuUsage(cpu);
  rows.push({ start: t1 - t0, stop: t2 - t1, cpu: (used.user + used.system) / 1000 });
}
const stats = (pick: (row: (typeof rows)[number]) => number, from = 0) => {
  const sorted = rows
    .slice(from)
    .map(pick)
    .sort((a, b) => a - b);
  const at = (q: number) =>
    (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(1);
  return `median ${at(0.5)} · p90 ${at(0.9)} · max ${(sorted.at(-1) ?? 0).toFixed(1)}`;
};
const mode = process.env.REDIS_URL ? 'REDIS_URL (ACL user)' : "judge's own redis-server";
console.log(`${mode}, ${rounds} rounds (ms)`);
console.log(
  `  first round: start ${rows[0]?.start.toFixed(1)} · stop ${rows[0]?.stop.toFixed(1)} · parent CPU ${rows[0]?.cpu.toFixed(1)}`,
);
console.log(`  start + stop (wall): ${stats((r) => r.start + r.stop, 1)}`);
console.log(`  start (wall):        ${stats((r) => r.start, 1)}`);
console.log(`  stop (wall):         ${stats((r) => r.stop, 1)}`);
console.log(`  parent CPU:          ${stats((r) => r.cpu, 1)}`);
