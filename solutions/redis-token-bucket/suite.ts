// Hidden suite for redis-token-bucket. Every case is a scenario (see ScenarioCase): the learner's
// limiters run on a real Redis, each instance with a client of its own, and the time in an answer
// is Redis's, which the judge reads but cannot set. So answers are checked by LimiterOracle against
// token-bucket-limiter's reference fed Redis's clock (harness/redis/limiter-oracle.ts), and the
// scenario checks what is not in an answer itself: the keys left, their TTLs, the scripts' keys.
// Case order matters: a known-wrong file's verdict names the first case it fails, so each trap's
// case comes before the cases its wrong files also happen to fail.
import {
  checkNoKeys,
  checkTtls,
  keysWritten,
  redisClients as clients,
} from '../../harness/redis/checks.ts';
import type { LimiterAnswer } from '../../harness/redis/limiter-oracle.ts';
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
import { TokenBucketLimiter } from '../token-bucket-limiter/solution.ts';

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
    settings: [[3, 1]],
    rows: [
      { at: 0, key: 'alice', answer: ok(2, 1000, 0) },
      { at: 0, key: 'alice', answer: ok(1, 2000, 0) },
      { at: 0, key: 'alice', answer: ok(0, 3000, 0) },
      { at: 0, key: 'alice', answer: no(0, 3000, 1000) },
      { at: 0, key: 'alice', cost: 4, answer: no(0, 3000, Infinity) },
      { at: 1500, key: 'alice', answer: ok(0, 4000, 1500) },
      { at: 1500, key: 'alice', answer: no(0, 4000, 2000) },
    ],
  },
  {
    settings: [
      [2, 4],
      [2, 4],
    ],
    rows: [
      { at: 0, instance: 0, answer: ok(1, 250, 0) },
      { at: 0, instance: 1, answer: ok(0, 500, 0) },
      { at: 0, instance: 0, answer: no(0, 500, 250) },
      { at: 500, noKeys: true },
      { at: 500, instance: 1, answer: ok(1, 750, 500) },
    ],
  },
];

/** The model of a group of settings: token-bucket-limiter's reference on the given clock. */
export const modelOf =
  ([capacity, rate]: Settings) =>
  (clock: { now(): number }) =>
    new TokenBucketLimiter(capacity, rate, clock);

export default defineSuite({
  reference: TokenBucketLimiter,
  async: true,
  cases: [
    {
      name: 'example-1',
      tier: 'example',
      trap: null,
      describe: '(3, 1): three allowed at once, two refused, then one after 1.5 s',
      fixtures: clients(1),
      scenario: (play) => playTimeline(play, EXAMPLES[0]!, modelOf),
    },
    {
      name: 'example-2',
      tier: 'example',
      trap: null,
      describe: 'two servers (2, 4) share one bucket; it is gone once full again',
      fixtures: clients(2),
      scenario: (play) => playTimeline(play, EXAMPLES[1]!, modelOf),
    },
    {
      name: 'concurrent-burst',
      tier: 'core',
      trap: 'exact-under-concurrency',
      describe: '50 servers, one request each at once, on one bucket of (10, 1)',
      fixtures: clients(50),
      hint: 'Fifty requests from fifty connections read the same full bucket before any of them writes it back. Reading, deciding and writing must be one step that nothing can come between.',
      // A token comes back each second: a burst that took longer may admit that many more.
      scenario: burst([10, 1], 50, (ms) => [10, 10 + Math.floor(ms / 1000)]),
    },
    {
      name: 'sub-second-wait',
      tier: 'core',
      trap: 'no-float-truncation',
      describe: '(1, 4): a refused request must wait a quarter of a second',
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
      fixtures: clients(2),
      hint: 'Two API servers never agree on the time, and here one is seven seconds ahead of the other. Which clock do all of them share?',
      scenario: skewedServers(modelOf, [3, 2], 100),
    },
    {
      name: 'ttl-after-every-call',
      tier: 'core',
      trap: 'ttl-on-every-key',
      describe: '(2, 1): every key has a TTL after every call, no shorter than its shortfall',
      fixtures: clients(1),
      hint: {
        wrong:
          'After every call, every key you wrote must expire by itself: no later than a second after its bucket is full again, and not before resetAt, or a short bucket vanishes and hands out tokens it does not have.',
      },
      async scenario(play) {
        const limiters = new Limiters(play, modelOf);
        const [a] = await limiters.build([[2, 1]]);
        for (const cost of [undefined, undefined, undefined, 2]) {
          const answer = await limiters.allow(a!, 'k', cost);
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
      name: 'idle-keys-vanish',
      tier: 'core',
      trap: 'idle-keys-vanish',
      describe: '(2, 10): a second after every bucket is full again, no key is left',
      fixtures: clients(1),
      hint: 'A bucket that is full again answers exactly like one that was never made. Does your key go away by itself once that is true, with no traffic at all?',
      async scenario(play) {
        const limiters = new Limiters(play, modelOf);
        const [a] = await limiters.build([[2, 10]]);
        let last: LimiterAnswer | undefined;
        for (const name of ['a', 'b', 'a']) {
          last = await limiters.allow(a!, name);
        }
        play.note('wait', 'until a second after the last resetAt');
        await play.redis.waitUntil(last!.resetAt + 1000);
        await checkNoKeys(play, 'a second after every bucket is full');
      },
    },
    {
      name: 'script-cache-flushed',
      tier: 'core',
      trap: 'noscript-recovery',
      describe: '(5, 0.001): the script cache is flushed between two calls',
      fixtures: clients(1),
      hint: 'A restart or a failover empties Redis’s script cache, and EVALSHA then fails with NOSCRIPT without running anything. What should the next call do so that the request is still counted, exactly once?',
      scenario: scriptCacheFlushed(modelOf, [5, 0.001]),
    },
    {
      name: 'refusals-write-nothing',
      tier: 'core',
      trap: 'denied-writes-nothing',
      describe: '(2, 0.001): refused requests leave every key as it was',
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
      fixtures: clients(2),
      hint: 'Two limiters with different settings live in one process. Where do your settings live, and does building the second change the first?',
      scenario: twoConfigurations(modelOf, [2, 0.001], [5, 0.001]),
    },
    {
      name: 'mixed-traffic',
      tier: 'core',
      trap: 'same-semantics',
      describe: '(3, 10) and (5, 0.769): 24 calls, costs 1–5, short waits, two keys',
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
      fixtures: clients(1),
      hint: 'A Redis that is restarting answers LOADING to every command, SCRIPT LOAD too: that call fails, rightly. Once Redis is back, the next call must work. Is anything you keep between calls (the script’s SHA, or the promise of loading it) left holding that failure?',
      scenario: restart(modelOf, [2, 1]),
    },
    {
      name: 'cluster-keys',
      tier: 'follow-up',
      trap: 'cluster-safe',
      describe: '(2, 1) on "{user}:k": every key a script touches is passed in KEYS',
      fixtures: clients(1),
      hint: 'A Redis Cluster routes a script by the keys it is given, and refuses keys in different slots. Every key your script reads or writes must arrive in KEYS, never be built inside the script or passed in ARGV.',
      scenario: clusterKeys(modelOf, [2, 1], [1, 1, 1, 3]),
    },
    {
      name: 'redis-stops-answering',
      tier: 'follow-up',
      trap: 'redis-down',
      describe: '(2, 1): Redis stops answering; allow must reject within a second',
      fixtures: clients(1),
      callDeadlineMs: 1000,
      hint: 'A client with default options waits for an answer forever once a command is written. Race every call against a timer of your own, and reject with a clear Error when it fires: refuse rather than hang.',
      scenario: redisDown(modelOf, [2, 1]),
    },
  ],
});
