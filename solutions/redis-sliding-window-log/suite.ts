// Hidden suite for redis-sliding-window-log. As in redis-token-bucket, every case is a scenario on a
// real Redis: answers are checked by LimiterOracle against sliding-window-log-limiter's reference
// fed Redis's clock (harness/redis/limiter-oracle.ts), and the scenario checks what an answer cannot
// show (the log's size, the keys' TTLs, the scripts' keys). Case order matters: a known-wrong file's
// verdict names the first case it fails.
// Every call through Limiters also checks "the Redis key is `key` itself" (no other key under the
// prefix; the key there after an allowed call), so a second key or state kept elsewhere fails nearly
// every case: those cases need cluster-safe, whose case (cluster-keys, after the expiry case that a
// missing key fails first) names the cause.
import { redisClients as clients } from '../../harness/redis/checks.ts';
import { redisKey } from '../../harness/redis/facade.ts';
import {
  badInput,
  burst,
  clusterKeys,
  Limiters,
  mixedTraffic,
  redisDown,
  restart,
  scriptCacheFlushed,
  skewedServers,
  twoConfigurations,
  type Settings,
} from '../../harness/redis/limiter-scenarios.ts';
import { logEdge } from '../../harness/redis/log-edge.ts';
import { playTimeline, type Timeline } from '../../harness/redis/timeline.ts';
import { defineSuite, type Play } from '../../harness/suite.ts';
import { limiterPicture, no, ok } from '../../harness/limiter-script.ts';
import { LOG_WINDOW } from '../sliding-window-log-limiter/suite.ts';
import { SlidingWindowLogLimiter } from '../sliding-window-log-limiter/solution.ts';

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

/** The statement's examples, row for row (test/redis-statement-examples.test.ts checks it). */
export const EXAMPLES: Timeline[] = [
  {
    settings: [[2, 100]],
    rows: [
      { at: 0, key: 'a', answer: ok(1, 100, 0) },
      { at: 30, key: 'a', answer: ok(0, 130, 30) },
      { at: 70, key: 'a', answer: no(0, 130, 100) },
      { at: 100, key: 'a', answer: ok(0, 200, 100) },
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

/**
 * The statement's rule for a key's lifetime: set in the same script as each write, it expires no
 * sooner than its youngest unit leaves the window (resetAt) and no later than the window plus a
 * second after the call.
 */
export const lifetimeOf = ([, windowMs]: Settings): number => windowMs + 1000;

/** The model of a group of settings: sliding-window-log-limiter's reference on the given clock. */
export const modelOf =
  ([limit, windowMs]: Settings) =>
  (clock: { now(): number }) =>
    new SlidingWindowLogLimiter(limit, windowMs, clock);

export default defineSuite({
  reference: SlidingWindowLogLimiter,
  // The log's window at the wrong call, on Redis's clock from T, the first call's time.
  picture: limiterPicture({ windows: LOG_WINDOW, timesFrom: 'T' }),
  async: true,
  cases: [
    {
      name: 'example-1',
      tier: 'example',
      trap: null,
      describe: '(2, 100): two allowed, one refused at T+70, room again at T+100',
      needs: ['cluster-safe'],
      fixtures: clients(1),
      scenario: (play) => playTimeline(play, EXAMPLES[0]!, modelOf),
    },
    {
      name: 'example-2',
      tier: 'example',
      trap: null,
      describe: '(5, 60000): costs of 3, 1, 1, 2 and 6 in one moment; the log holds 5 units',
      needs: ['cluster-safe'],
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
      describe:
        '(100, 1000): a log seeded with a unit every ms one window back; the call lands on an edge',
      needs: ['cluster-safe'],
      fixtures: clients(1),
      hint: 'A unit exactly one window old has left: the window at now is (now − windowMs, now]. Does your script drop every score at or below now − windowMs, and only then count?',
      // The judge writes the log (as other servers would have) so that a unit sits on the edge of
      // whatever millisecond the call lands on: see harness/redis/log-edge.ts.
      scenario: logEdge({ limit: 100, windowMs: 1000, span: 90, attempts: 10 }),
    },
    {
      name: 'wait-for-the-oldest',
      tier: 'core',
      trap: 'retry-from-oldest',
      describe: '(2, 2000): refused at once; room comes back when the oldest unit leaves',
      needs: ['cluster-safe'],
      fixtures: clients(1),
      hint: 'A refused request can pass once enough units have left the window, and units leave oldest first. Which member’s score, plus the window, is the first moment with room?',
      async scenario(play) {
        const limiters = new Limiters(play, modelOf);
        const [a] = await limiters.build([[2, 2000]]);
        const first = await limiters.allow(a!, 'k');
        play.note('wait', 'until first+100 on Redis’s clock');
        await play.redis.waitUntil(first.retryAt + 100);
        await limiters.allow(a!, 'k');
        await limiters.allow(a!, 'k');
      },
    },
    {
      name: 'one-millisecond',
      tier: 'core',
      trap: 'same-millisecond',
      describe: '(5, 60000): a cost of 3, then three of 1, at once; the log must hold 5 units',
      needs: ['cluster-safe'],
      fixtures: clients(1),
      hint: 'A sorted set keeps one copy of each member. If the member is the time alone, how many units does a request of cost 3 leave in the log, or two requests in the same millisecond?',
      async scenario(play) {
        const limiters = new Limiters(play, modelOf);
        const [a] = await limiters.build([[5, 60_000]]);
        for (const cost of [3, undefined, undefined, undefined]) {
          await limiters.allow(a!, 'k', cost);
        }
        await checkUnits(play, redisKey('k'), 5);
      },
    },
    {
      name: 'concurrent-burst',
      tier: 'core',
      trap: 'exact-under-concurrency',
      describe: '50 servers, one request each at once, on one log of (10, 60000)',
      fixtures: clients(50),
      hint: 'Fifty API servers, each running its own copy of your module, send a request at once: only what lives in Redis is shared, and fifty connections can all trim and count the log before any adds to it. Trimming, counting and adding must be one step in Redis that nothing can come between.',
      // Nothing ages out of a minute's window during the burst: exactly 10, however slow.
      scenario: burst([10, 60_000], 50, () => [10, 10]),
    },
    {
      name: 'skewed-servers',
      tier: 'core',
      trap: 'server-time',
      describe: 'two servers (3, 60000) whose clocks are 7 s ahead and 7 s behind share one log',
      needs: ['cluster-safe'],
      fixtures: clients(2),
      hint: 'Two API servers never agree on the time, and here one is seven seconds ahead of the other. Which clock do all of them share?',
      scenario: skewedServers(modelOf, [3, 60_000]),
    },
    {
      name: 'ttl-after-every-call',
      tier: 'core',
      trap: 'ttl-on-every-key',
      describe: '(5, 5000): after every call, the key expires from resetAt to window + 1 s',
      fixtures: clients(1),
      hint: 'After every call, the key itself must be there with an expiry set in the same script as the write: not before its youngest unit leaves the window (or the log forgets units that still count), and no later than the window plus a second.',
      async scenario(play) {
        // Its failures must be about expiry: extra keys are cluster-keys’ to name (see below).
        const limiters = new Limiters(play, modelOf, { keyItself: false });
        const [a] = await limiters.build([[5, 5000]]);
        const lifetime = lifetimeOf([5, 5000]);
        const first = await limiters.allowAndCheckExpiry(a!, 'k', lifetime);
        play.note('wait', 'until first+100 on Redis’s clock');
        await play.redis.waitUntil(first.retryAt + 100);
        for (const cost of [undefined, 9]) {
          await limiters.allowAndCheckExpiry(a!, 'k', lifetime, cost);
        }
      },
    },
    {
      name: 'cluster-keys',
      tier: 'core',
      trap: 'cluster-safe',
      describe: '(3, 60000) on "k" and "{user}:k": each script declares and touches only the key',
      fixtures: clients(1),
      hint: 'The Redis key is the key given, and nothing else: a script declares exactly that one key in KEYS and touches no other. A second key (a sequence counter beside the log, say) lies in another hash slot, and a Redis Cluster refuses the script with CROSSSLOT.',
      scenario: clusterKeys([3, 60_000], [1, 2, 1, 4]),
    },
    {
      name: 'script-cache-flushed',
      tier: 'core',
      trap: 'noscript-recovery',
      describe: '(5, 60000): the script cache is flushed between two calls',
      needs: ['cluster-safe'],
      fixtures: clients(1),
      hint: 'A restart or a failover empties Redis’s script cache, and EVALSHA then fails with NOSCRIPT without running anything. What should the next call do so that the request is still counted, exactly once?',
      scenario: scriptCacheFlushed(modelOf, [5, 60_000]),
    },
    {
      name: 'two-configurations',
      tier: 'core',
      trap: 'instance-isolation',
      describe: 'instances (2, 60000) and (5, 60000), both built before either is used',
      needs: ['cluster-safe'],
      fixtures: clients(2),
      hint: 'Two limiters with different settings live in one process. Where do your settings live, and does building the second change the first?',
      scenario: twoConfigurations(modelOf, [2, 60_000], [5, 60_000]),
    },
    {
      name: 'mixed-traffic',
      tier: 'core',
      trap: 'same-semantics',
      describe: '(3, 100) and (4, 500): 24 calls, costs 1–5, short waits, two keys',
      needs: ['cluster-safe'],
      fixtures: clients(2),
      hint: 'The answers are sliding-window-log-limiter’s, to the millisecond: the window (now − W, now], only accepted units logged, retryAt from the oldest units, resetAt from the youngest. Compare your script with your single-process log.',
      scenario: mixedTraffic(
        modelOf,
        [
          [3, 100],
          [4, 500],
        ],
        {
          seed: 32,
          calls: 24,
          maxWaitMs: 120,
          waitOneIn: 3,
        },
      ),
    },
    {
      name: 'bad-input',
      tier: 'follow-up',
      trap: 'bad-input',
      describe: 'settings and costs out of range: RangeError, and nothing written',
      fixtures: clients(1),
      hint: 'A limit, window or cost that is not a positive whole number is a RangeError, before anything reaches Redis.',
      scenario: badInput(
        [
          [0, 1000],
          [2.5, 1000],
          [2, 0],
          [2, NaN],
          [2, Infinity],
        ],
        [2, 1000],
      ),
    },
    {
      name: 'redis-restarts',
      tier: 'follow-up',
      trap: 'restart-recovery',
      describe:
        '([2, 60000]): Redis answers LOADING for one call, as while restarting, then is back',
      needs: ['cluster-safe'],
      fixtures: clients(1),
      hint: 'A Redis that is restarting answers LOADING to every command, SCRIPT LOAD too: that call fails, rightly. Once Redis is back, the next call must work. Is anything you keep between calls (the script’s SHA, or the promise of loading it) left holding that failure?',
      scenario: restart(modelOf, [2, 60_000]),
    },
    {
      name: 'redis-stops-answering',
      tier: 'follow-up',
      trap: 'redis-down',
      describe: '(2, 60000): Redis stops answering; allow must reject within a second',
      needs: ['cluster-safe'],
      fixtures: clients(1),
      callDeadlineMs: 1000,
      hint: 'A client with default options waits for an answer forever once a command is written. Race every call against a timer of your own, and reject with a clear Error when it fires: refuse rather than hang.',
      scenario: redisDown(modelOf, [2, 60_000]),
    },
  ],
});
