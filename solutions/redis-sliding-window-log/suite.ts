// Hidden suite for redis-sliding-window-log. As in redis-token-bucket, every case is a scenario on a
// real Redis: answers are checked by LimiterOracle against sliding-window-log-limiter's reference
// fed Redis's clock (harness/redis/limiter-oracle.ts), and the scenario checks what an answer cannot
// show (the log's size, the keys' TTLs, the scripts' keys). Case order matters: a known-wrong file's
// verdict names the first case it fails.
import {
  checkNoKeys,
  checkScripts,
  checkTtls,
  pseudoRandom,
  redisClients as clients,
} from '../../harness/redis/checks.ts';
import { redisKey } from '../../harness/redis/facade.ts';
import { LimiterOracle } from '../../harness/redis/limiter-oracle.ts';
import { playTimeline, type Timeline } from '../../harness/redis/timeline.ts';
import { defineSuite, fixture, type Play } from '../../harness/suite.ts';
import { SlidingWindowLogLimiter } from '../sliding-window-log-limiter/solution.ts';

/** Settings of one limiter: (limit, windowMs). */
type Settings = [number, number];

/** Builds one instance per settings, each on client r<i>, with what oracle calls need. */
async function build(play: Play, settings: Settings[]) {
  const made = [];
  for (const [i, [limit, windowMs]] of settings.entries()) {
    const target = await play.construct([fixture(`r${i}`), limit, windowMs]);
    made.push({
      target,
      // Instances with the same settings share their logs, and so one history.
      group: `${limit}/${windowMs}`,
      model: (clock: { now(): number }) => new SlidingWindowLogLimiter(limit, windowMs, clock),
    });
  }
  return made;
}

/** The number of units the log under `key` holds (ZCARD), checked. */
async function checkUnits(play: Play, key: string, units: number): Promise<void> {
  const held = Number(await play.redis.read(['ZCARD', key]));
  play.check({
    what: 'ZCARD of the log',
    expected: `${units}`,
    actual: `${held}`,
    ok: held === units,
  });
}

const ok = (remaining: number, resetAt: number, at: number) => ({
  allowed: true,
  remaining,
  resetAt,
  retryAt: at,
});
const no = (remaining: number, resetAt: number, retryAt: number) => ({
  allowed: false,
  remaining,
  resetAt,
  retryAt,
});

/** The statement's examples, row for row (test/redis-statement-examples.test.ts checks it). */
export const EXAMPLES: Timeline[] = [
  {
    settings: [[2, 1000]],
    rows: [
      { at: 0, key: 'a', answer: ok(1, 1000, 0) },
      { at: 300, key: 'a', answer: ok(0, 1300, 300) },
      { at: 700, key: 'a', answer: no(0, 1300, 1000) },
      { at: 1000, key: 'a', answer: ok(0, 2000, 1000) },
    ],
  },
  {
    settings: [[5, 60_000]],
    rows: [
      { at: 0, key: 'x', cost: 3, answer: ok(2, 60_000, 0) },
      { at: 0, key: 'x', answer: ok(1, 60_000, 0) },
      { at: 0, key: 'x', answer: ok(0, 60_000, 0) },
      { at: 0, key: 'x', cost: 2, answer: no(0, 60_000, 60_000) },
      { at: 0, key: 'x', cost: 6, answer: no(0, 60_000, Infinity) },
    ],
  },
];

/** The model of a group of settings: sliding-window-log-limiter's reference on the given clock. */
export const modelOf =
  ([limit, windowMs]: [number, number]) =>
  (clock: { now(): number }) =>
    new SlidingWindowLogLimiter(limit, windowMs, clock);

export default defineSuite({
  reference: SlidingWindowLogLimiter,
  async: true,
  cases: [
    {
      name: 'example-1',
      tier: 'example',
      trap: null,
      describe: '(2, 1000): two allowed, one refused at T+700, room again at T+1000',
      fixtures: clients(1),
      scenario: (play) => playTimeline(play, EXAMPLES[0]!, modelOf),
    },
    {
      name: 'example-2',
      tier: 'example',
      trap: null,
      describe: '(5, 60000): costs of 3, 1, 1, 2 and 6 in one moment; the log holds 5 units',
      fixtures: clients(1),
      async scenario(play) {
        await playTimeline(play, EXAMPLES[1]!, modelOf);
        await checkUnits(play, redisKey('x'), 5);
      },
    },
    {
      name: 'edge-of-the-window',
      tier: 'core',
      trap: 'remove-before-count',
      describe: '(2, 1000): at first+1000, the first unit has left and the second has not',
      fixtures: clients(1),
      // The second unit must keep the log alive until then: a key that expires with its first
      // unit fails here too, and that is a TTL mistake.
      needs: ['ttl-on-every-key'],
      hint: 'At the very millisecond the oldest unit leaves the window, its room is free again. Does your script count the log before or after it drops what has aged out?',
      async scenario(play) {
        const [a] = await build(play, [[2, 1000]]);
        const { target, group, model } = a!;
        const oracle = new LimiterOracle(play);
        const k = redisKey('k');
        const first = await oracle.allow(target, group, model, k);
        for (const at of [500, 1000]) {
          play.note('wait', `until first+${at} on Redis’s clock`);
          await play.redis.waitUntil(first.retryAt + at);
          await oracle.allow(target, group, model, k);
        }
      },
    },
    {
      name: 'wait-for-the-oldest',
      tier: 'core',
      trap: 'retry-from-oldest',
      describe: '(2, 2000): refused at once; room comes back when the oldest unit leaves',
      fixtures: clients(1),
      hint: 'A refused request can pass once enough units have left the window, and units leave oldest first. Which member’s score, plus the window, is the first moment with room?',
      async scenario(play) {
        const [a] = await build(play, [[2, 2000]]);
        const { target, group, model } = a!;
        const oracle = new LimiterOracle(play);
        const k = redisKey('k');
        const first = await oracle.allow(target, group, model, k);
        play.note('wait', 'until first+200 on Redis’s clock');
        await play.redis.waitUntil(first.retryAt + 200);
        await oracle.allow(target, group, model, k);
        await oracle.allow(target, group, model, k);
      },
    },
    {
      name: 'one-millisecond',
      tier: 'core',
      trap: 'same-millisecond',
      describe: '(5, 60000): a cost of 3, then three of 1, at once; the log must hold 5 units',
      fixtures: clients(1),
      hint: 'A sorted set keeps one copy of each member. If the member is the time alone, how many units does a request of cost 3 leave in the log, or two requests in the same millisecond?',
      async scenario(play) {
        const [a] = await build(play, [[5, 60_000]]);
        const { target, group, model } = a!;
        const oracle = new LimiterOracle(play);
        const k = redisKey('k');
        for (const cost of [3, undefined, undefined, undefined]) {
          await oracle.allow(target, group, model, k, cost);
        }
        await checkUnits(play, k, 5);
      },
    },
    {
      name: 'concurrent-burst',
      tier: 'core',
      trap: 'exact-under-concurrency',
      describe: '50 servers, one request each at once, on one log of (10, 60000)',
      fixtures: clients(50),
      hint: 'Fifty requests from fifty connections each trim and count the log before any of them adds to it. Trimming, counting and adding must be one step that nothing can come between.',
      async scenario(play) {
        const targets = [];
        for (let i = 0; i < 50; i++) {
          targets.push(await play.construct([fixture(`r${i}`), 10, 60_000]));
        }
        // Nothing ages out of a minute's window during the burst: exactly 10, however slow.
        await play.parallel(
          targets.map((target) => ({ method: 'allow', args: [redisKey('race')], target })),
          { allowed: true },
          [10, 10],
        );
      },
    },
    {
      name: 'skewed-servers',
      tier: 'core',
      trap: 'server-time',
      describe: 'two servers (3, 60000) whose clocks are 7 s ahead and 7 s behind share one log',
      fixtures: clients(2),
      hint: 'Two API servers never agree on the time, and here one is seven seconds ahead of the other. Which clock do all of them share?',
      async scenario(play) {
        const [a, b] = await build(play, [
          [3, 60_000],
          [3, 60_000],
        ]);
        const oracle = new LimiterOracle(play);
        const k = redisKey('k');
        for (const [who, skew] of [
          [a, 7000],
          [b, -7000],
          [a, 7000],
          [b, -7000],
        ] as const) {
          play.skewClock(skew);
          await oracle.allow(who!.target, who!.group, who!.model, k);
        }
      },
    },
    {
      name: 'ttl-after-every-call',
      tier: 'core',
      trap: 'ttl-on-every-key',
      describe: '(5, 2000): every key has a TTL after every call, outliving its youngest unit',
      fixtures: clients(1),
      hint: 'After every call, every key you wrote must expire by itself: within the window plus a second, and not before its youngest unit leaves the window, or the log forgets units that still count.',
      async scenario(play) {
        const [a] = await build(play, [[5, 2000]]);
        const { target, group, model } = a!;
        const oracle = new LimiterOracle(play);
        const k = redisKey('k');
        const first = await oracle.allow(target, group, model, k);
        play.note('wait', 'until first+400 on Redis’s clock');
        await play.redis.waitUntil(first.retryAt + 400);
        for (const cost of [undefined, 9]) {
          const answer = await oracle.allow(target, group, model, k, cost);
          const now = await play.redis.now();
          await checkTtls(
            play,
            answer.resetAt - now - 50,
            3000,
            `after allow(k${cost ? `, ${cost}` : ''})`,
          );
        }
      },
    },
    {
      name: 'script-cache-flushed',
      tier: 'core',
      trap: 'noscript-recovery',
      describe: '(5, 60000): the script cache is flushed between two calls',
      fixtures: clients(1),
      hint: 'A restart or a failover empties Redis’s script cache, and EVALSHA then fails with NOSCRIPT without running anything. What should the next call do so that the request is still counted, exactly once?',
      async scenario(play) {
        const [a] = await build(play, [[5, 60_000]]);
        const { target, group, model } = a!;
        const oracle = new LimiterOracle(play);
        const k = redisKey('k');
        await oracle.allow(target, group, model, k);
        play.note('SCRIPT FLUSH', 'as after a restart or a failover');
        play.redis.forgetScripts();
        await oracle.allow(target, group, model, k);
        await oracle.allow(target, group, model, k);
      },
    },
    {
      name: 'two-configurations',
      tier: 'core',
      trap: 'instance-isolation',
      describe: 'instances (2, 60000) and (5, 60000), both built before either is used',
      fixtures: clients(2),
      hint: 'Two limiters with different settings live in one process. Where do your settings live, and does building the second change the first?',
      async scenario(play) {
        const [small, big] = await build(play, [
          [2, 60_000],
          [5, 60_000],
        ]);
        const oracle = new LimiterOracle(play);
        for (let i = 0; i < 3; i++) {
          await oracle.allow(small!.target, small!.group, small!.model, redisKey('a'));
        }
        for (let i = 0; i < 6; i++) {
          await oracle.allow(big!.target, big!.group, big!.model, redisKey('b'));
        }
      },
    },
    {
      name: 'mixed-traffic',
      tier: 'core',
      trap: 'same-semantics',
      describe: '(3, 200) and (4, 1000): 24 calls, costs 1–5, short waits, two keys',
      fixtures: clients(2),
      hint: 'The answers are sliding-window-log-limiter’s, to the millisecond: the window (now − W, now], only accepted units logged, retryAt from the oldest units, resetAt from the youngest. Compare your script with your single-process log.',
      async scenario(play) {
        const made = await build(play, [
          [3, 200],
          [4, 1000],
        ]);
        const oracle = new LimiterOracle(play);
        const next = pseudoRandom(4242);
        for (let i = 0; i < 24; i++) {
          const who = made[next(2)]!;
          const wait = next(3) === 0 ? next(250) : 0;
          if (wait > 0) await play.redis.waitUntil((await play.redis.now()) + wait);
          const cost = next(3) === 0 ? 1 + next(5) : undefined;
          await oracle.allow(who.target, who.group, who.model, redisKey(next(2) ? 'a' : 'b'), cost);
        }
      },
    },
    {
      name: 'bad-input',
      tier: 'follow-up',
      trap: 'bad-input',
      describe: 'settings and costs out of range: RangeError, and nothing written',
      fixtures: clients(1),
      hint: 'A limit, window or cost that is not a positive whole number is a RangeError, before anything reaches Redis.',
      async scenario(play) {
        const bad: unknown[][] = [
          [0, 1000],
          [2.5, 1000],
          [2, 0],
          [2, NaN],
          [2, Infinity],
        ];
        for (const settings of bad) {
          await play.construct([fixture('r0'), ...settings], { throws: 'RangeError' });
        }
        const target = await play.construct([fixture('r0'), 2, 1000]);
        for (const cost of [0, -1, 1.5, NaN, Infinity]) {
          await play.call(target, 'allow', [redisKey('k'), cost], { throws: 'RangeError' });
        }
        await checkNoKeys(play, 'after the refused input');
      },
    },
    {
      name: 'redis-restarts',
      tier: 'follow-up',
      trap: 'restart-recovery',
      describe:
        '([2, 60000]): Redis answers LOADING for one call, as while restarting, then is back',
      fixtures: clients(1),
      hint: 'A Redis that is restarting answers LOADING to every command, SCRIPT LOAD too: that call fails, rightly. Once Redis is back, the next call must work. Is anything you keep between calls (the script’s SHA, or the promise of loading it) left holding that failure?',
      async scenario(play) {
        const [a] = await build(play, [[2, 60_000]]);
        const { target, group, model } = a!;
        const oracle = new LimiterOracle(play);
        const k = redisKey('k');
        play.note('Redis restarts', 'it answers LOADING until its data is back');
        play.redis.refuseAll('LOADING Redis is loading the dataset in memory');
        await play.call(target, 'allow', [k], { throws: 'Error' });
        play.redis.refuseAll(undefined);
        play.note('Redis is back');
        await oracle.allow(target, group, model, k);
        await oracle.allow(target, group, model, k);
      },
    },
    {
      name: 'cluster-keys',
      tier: 'follow-up',
      trap: 'cluster-safe',
      describe: '(3, 60000) on "{user}:k": every key a script touches is passed in KEYS',
      fixtures: clients(1),
      hint: 'A Redis Cluster routes a script by the keys it is given, and refuses keys in different slots. Every key your script reads or writes must arrive in KEYS, never be built inside the script or passed in ARGV.',
      async scenario(play) {
        const [a] = await build(play, [[3, 60_000]]);
        const { target, group, model } = a!;
        const oracle = new LimiterOracle(play);
        const stop = await play.redis.watchScripts();
        for (const cost of [1, 2, 1, 4]) {
          await oracle.allow(target, group, model, redisKey('{user}:k'), cost);
        }
        await checkScripts(play, stop);
      },
    },
    {
      name: 'redis-stops-answering',
      tier: 'follow-up',
      trap: 'redis-down',
      describe: '(2, 60000): Redis stops answering; allow must reject within a second',
      fixtures: clients(1),
      callDeadlineMs: 1000,
      hint: 'A client with default options waits for an answer forever once a command is written. Race every call against a timer of your own, and reject with a clear Error when it fires: refuse rather than hang.',
      async scenario(play) {
        const [a] = await build(play, [[2, 60_000]]);
        const { target, group, model } = a!;
        const oracle = new LimiterOracle(play);
        await oracle.allow(target, group, model, redisKey('k'));
        play.note('Redis stops answering', 'a crash or a network partition');
        play.redis.freeze();
        await play.call(target, 'allow', [redisKey('k')], { throws: 'Error' });
      },
    },
  ],
});
