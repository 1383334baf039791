// Hidden suite for redis-token-bucket. Every case is a scenario (see ScenarioCase): the learner's
// limiters run on a real Redis, each instance with a client of its own, and the time in an answer
// is Redis's, which the judge reads but cannot set. So answers are checked by LimiterOracle against
// token-bucket-limiter's reference fed Redis's clock (harness/redis/limiter-oracle.ts), and the
// scenario checks what is not in an answer itself: the keys left, their TTLs, the scripts' keys.
// Case order matters: a known-wrong file's verdict names the first case it fails, so each trap's
// case comes before the cases its wrong files also happen to fail.
// Every call through Limiters also checks "the Redis key is `key` itself" (no other key under the
// prefix; the key there after an allowed call), so a second key or state kept elsewhere fails nearly
// every case: those cases need cluster-safe, whose case (cluster-keys, after the expiry case that a
// missing key fails first) names the cause.
import {
  checkExpiry,
  checkNoKeys,
  keysWritten,
  redisClients as clients,
} from '../../harness/redis/checks.ts';
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
import { playTimeline, type Timeline } from '../../harness/redis/timeline.ts';
import { defineSuite } from '../../harness/suite.ts';
import { limiterPicture, no, ok } from '../../harness/limiter-script.ts';
import { TOKENS } from '../token-bucket-limiter/suite.ts';
import { TokenBucketLimiter } from '../token-bucket-limiter/solution.ts';

/** The statement's examples, row for row (test/redis-statement-examples.test.ts checks it). */
export const EXAMPLES: Timeline[] = [
  {
    settings: [[3, 10]],
    rows: [
      { at: 0, key: 'alice', answer: ok(2, 100, 0) },
      { at: 0, key: 'alice', answer: ok(1, 200, 0) },
      { at: 0, key: 'alice', answer: ok(0, 300, 0) },
      { at: 0, key: 'alice', answer: no(0, 300, 100) },
      { at: 0, key: 'alice', cost: 4, answer: no(0, 300, Infinity) },
      { at: 150, key: 'alice', answer: ok(0, 400, 150) },
      { at: 150, key: 'alice', answer: no(0, 400, 200) },
    ],
  },
  {
    settings: [
      [2, 20],
      [2, 20],
    ],
    rows: [
      { at: 0, instance: 0, answer: ok(1, 50, 0) },
      { at: 0, instance: 1, answer: ok(0, 100, 0) },
      { at: 0, instance: 0, answer: no(0, 100, 50) },
      { at: 0, expires: [100, 1100] },
      { at: 100, instance: 1, answer: ok(1, 150, 100) },
    ],
  },
];

/**
 * The statement's rule for a key's lifetime: set in the same script as each write, it expires no
 * sooner than resetAt and no later than a full refill from empty plus a second after the call (a
 * constant TTL of one full refill is right, and so is EXPIRE in whole seconds).
 */
export const lifetimeOf = ([capacity, rate]: Settings): number =>
  Math.ceil((capacity * 1000) / rate) + 1000;

/** The model of a group of settings: token-bucket-limiter's reference on the given clock. */
export const modelOf =
  ([capacity, rate]: Settings) =>
  (clock: { now(): number }) =>
    new TokenBucketLimiter(capacity, rate, clock);

export default defineSuite({
  reference: TokenBucketLimiter,
  // The bucket's tokens as the model makes them, on Redis's clock from T, the first call's time.
  picture: limiterPicture({ level: TOKENS, timesFrom: 'T' }),
  async: true,
  cases: [
    {
      name: 'example-1',
      tier: 'example',
      trap: null,
      describe: '(3, 10): three allowed at once, two refused, then one after 150 ms',
      needs: ['cluster-safe'],
      fixtures: clients(1),
      scenario: (play) => playTimeline(play, EXAMPLES[0]!, modelOf),
    },
    {
      name: 'example-2',
      tier: 'example',
      trap: null,
      describe: 'two servers (2, 20) share one bucket, whose key expires once full again',
      needs: ['cluster-safe'],
      fixtures: clients(2),
      scenario: (play) => playTimeline(play, EXAMPLES[1]!, modelOf),
    },
    {
      name: 'concurrent-burst',
      tier: 'core',
      trap: 'exact-under-concurrency',
      describe: '50 servers, one request each at once, on one bucket of (10, 1)',
      fixtures: clients(50),
      hint: 'Fifty API servers, each running its own copy of your module, send a request at once: only what lives in Redis is shared, and fifty connections can all read the full bucket before any writes it back. Reading, deciding and writing must be one step in Redis that nothing can come between.',
      // A token comes back each second: a burst that took longer may admit that many more.
      scenario: burst([10, 1], 50, (ms) => [10, 10 + Math.floor(ms / 1000)]),
    },
    {
      name: 'sub-second-wait',
      tier: 'core',
      trap: 'no-float-truncation',
      describe: '(1, 4): a refused request must wait a quarter of a second',
      needs: ['cluster-safe'],
      fixtures: clients(1),
      hint: 'Redis turns a Lua number into an integer on its way back, dropping any fraction: 0.25 seconds arrives as 0. Which units keep every answer whole?',
      async scenario(play) {
        const limiters = new Limiters(play, modelOf);
        const [a] = await limiters.build([[1, 4]]);
        await limiters.allow(a!, 'k');
        await limiters.allow(a!, 'k');
      },
    },
    {
      name: 'skewed-servers',
      tier: 'core',
      trap: 'server-time',
      describe: 'two servers (3, 2) whose clocks are 7 s ahead and 7 s behind share one bucket',
      needs: ['cluster-safe'],
      fixtures: clients(2),
      hint: 'Two API servers never agree on the time, and here one is seven seconds ahead of the other. Which clock do all of them share?',
      scenario: skewedServers(modelOf, [3, 2], 100),
    },
    {
      name: 'ttl-after-every-call',
      tier: 'core',
      trap: 'ttl-on-every-key',
      describe: '(2, 0.1): after every call, the key expires from resetAt to a full refill + 1 s',
      fixtures: clients(1),
      hint: {
        wrong:
          'After every call, the key itself must be there with an expiry set in the same script as the write: no sooner than resetAt (or a short bucket vanishes and hands out tokens it does not have) and no later than a full refill from empty plus a second.',
      },
      async scenario(play) {
        // Its failures must be about expiry: extra keys are cluster-keys’ to name (see below).
        const limiters = new Limiters(play, modelOf, { keyItself: false });
        // A token per 10 s: a key that keeps its first expiry is seconds short of the rule, however
        // slowly the judge reads (its reads between the calls can only add to that).
        const [a] = await limiters.build([[2, 0.1]]);
        for (const cost of [undefined, undefined, undefined, 2]) {
          await limiters.allowAndCheckExpiry(a!, 'k', lifetimeOf([2, 0.1]), cost);
        }
      },
    },
    {
      name: 'cluster-keys',
      tier: 'core',
      trap: 'cluster-safe',
      describe: '(2, 1) on "k" and "{user}:k": each script declares and touches only the key',
      fixtures: clients(1),
      hint: 'The Redis key is the key given, and nothing else: a script declares exactly that one key in KEYS and touches no other. A second key (a timestamp beside the bucket, say) lies in another hash slot, and a Redis Cluster refuses the script with CROSSSLOT.',
      scenario: clusterKeys([2, 1], [1, 1, 2, 1]),
    },
    {
      name: 'idle-keys-vanish',
      tier: 'core',
      trap: 'idle-keys-vanish',
      describe: '(2, 10): keys a and b, then no traffic: every key is due to go within 1.2 s',
      needs: ['cluster-safe'],
      fixtures: clients(1),
      hint: 'A bucket that is full again answers exactly like one that was never made. Does every key you wrote go away by itself once that is true, with no traffic at all, including a key that was not called last?',
      async scenario(play) {
        const limiters = new Limiters(play, modelOf);
        const [a] = await limiters.build([[2, 10]]);
        for (const name of ['a', 'b', 'a']) await limiters.allow(a!, name);
        // Every key's expiry, read as an absolute time: no need to wait for it to pass.
        const { t1 } = limiters.lastBracket;
        await checkExpiry(play, {
          notBefore: -Infinity,
          notAfter: t1 + lifetimeOf([2, 10]),
          from: t1,
          after: 'after the last call, with no traffic after it',
        });
      },
    },
    {
      name: 'script-cache-flushed',
      tier: 'core',
      trap: 'noscript-recovery',
      describe: '(5, 0.001): the script cache is flushed between two calls',
      needs: ['cluster-safe'],
      fixtures: clients(1),
      hint: 'A restart or a failover empties Redis’s script cache, and EVALSHA then fails with NOSCRIPT without running anything. What should the next call do so that the request is still counted, exactly once?',
      scenario: scriptCacheFlushed(modelOf, [5, 0.001]),
    },
    {
      name: 'refusals-write-nothing',
      tier: 'core',
      trap: 'denied-writes-nothing',
      describe: '(2, 0.001): refused requests leave every key as it was',
      needs: ['cluster-safe'],
      fixtures: clients(1),
      hint: 'Under attack almost every request is refused. A refusal that writes (the same level, a new time, a fresh TTL) costs a write, replication and persistence each time, for nothing: it changes nothing anyone can see.',
      async scenario(play) {
        const limiters = new Limiters(play, modelOf);
        const [a] = await limiters.build([[2, 0.001]]);
        await limiters.allow(a!, 'k', 2);
        const before = await play.redis.snapshot();
        await limiters.allow(a!, 'k');
        await limiters.allow(a!, 'k', 2);
        const changed = keysWritten(before, await play.redis.snapshot());
        play.check({
          what: 'keys after the refusals',
          expected: 'as before them (TTLs running down)',
          actual: changed.length === 0 ? 'as before' : `written: ${changed.join(', ')}`,
          ok: changed.length === 0,
        });
      },
    },
    {
      name: 'cost-above-capacity',
      tier: 'core',
      trap: 'cost-over-capacity',
      describe: '(3, 1): a cost of 4 can never pass; then 3, then 10',
      needs: ['cluster-safe'],
      fixtures: clients(1),
      hint: 'A bucket never holds more than capacity tokens, so a larger cost will never pass: its retryAt is Infinity. How does "never" cross from Lua to TypeScript, when Lua’s math.huge does not survive the trip?',
      async scenario(play) {
        const limiters = new Limiters(play, modelOf);
        const [a] = await limiters.build([[3, 1]]);
        await limiters.allow(a!, 'k', 4);
        await checkNoKeys(play, 'after a refusal');
        await limiters.allow(a!, 'k', 3);
        await limiters.allow(a!, 'k', 10);
      },
    },
    {
      name: 'two-configurations',
      tier: 'core',
      trap: 'instance-isolation',
      describe: 'instances (2, 0.001) and (5, 0.001), both built before either is used',
      needs: ['cluster-safe'],
      fixtures: clients(2),
      hint: 'Two limiters with different settings live in one process. Where do your settings live, and does building the second change the first?',
      scenario: twoConfigurations(modelOf, [2, 0.001], [5, 0.001]),
    },
    {
      name: 'mixed-traffic',
      tier: 'core',
      trap: 'same-semantics',
      describe: '(3, 10) and (5, 0.769): 24 calls, costs 1–5, short waits, two keys',
      needs: ['cluster-safe'],
      fixtures: clients(2),
      hint: 'The answers are token-bucket-limiter’s, to the millisecond: the same level, the same rounding up of waits, the same tolerance for rounding errors. Compare your script with your single-process bucket line by line.',
      scenario: mixedTraffic(
        modelOf,
        [
          [3, 10],
          [5, 0.769],
        ],
        {
          seed: 12345,
          calls: 24,
          maxWaitMs: 120,
          waitOneIn: 4,
        },
      ),
    },
    {
      name: 'bad-input',
      tier: 'follow-up',
      trap: 'bad-input',
      describe: 'settings and costs out of range: RangeError, and nothing written',
      fixtures: clients(1),
      hint: 'A capacity or cost that is not a positive whole number, or a rate that is not a finite positive number, is a RangeError, before anything reaches Redis.',
      scenario: badInput(
        [
          [0, 1],
          [2.5, 1],
          [2, 0],
          [2, NaN],
          [2, Infinity],
        ],
        [2, 1],
      ),
    },
    {
      name: 'redis-restarts',
      tier: 'follow-up',
      trap: 'restart-recovery',
      describe: '([2, 1]): Redis answers LOADING for one call, as while restarting, then is back',
      needs: ['cluster-safe'],
      fixtures: clients(1),
      hint: 'A Redis that is restarting answers LOADING to every command, SCRIPT LOAD too: that call fails, rightly. Once Redis is back, the next call must work. Is anything you keep between calls (the script’s SHA, or the promise of loading it) left holding that failure?',
      scenario: restart(modelOf, [2, 1]),
    },
    {
      name: 'redis-stops-answering',
      tier: 'follow-up',
      trap: 'redis-down',
      describe: '(2, 1): Redis stops answering; allow must reject within a second',
      needs: ['cluster-safe'],
      fixtures: clients(1),
      callDeadlineMs: 1000,
      hint: 'A client with default options waits for an answer forever once a command is written. Race every call against a timer of your own, and reject with a clear Error when it fires: refuse rather than hang.',
      scenario: redisDown(modelOf, [2, 1]),
    },
  ],
});
