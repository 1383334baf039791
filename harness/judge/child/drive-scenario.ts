// Plays a scenario case (see ScenarioCase in suite.ts): the suite's script drives the learner's class
// through a Play, and every step it takes becomes a row of the call table. The calls themselves go
// through playCall and playParallel, as in any async case: the learner's realm awaits its own
// promises, and nothing here touches a learner object. The first step that fails ends the script:
// Play's methods throw a Stop the driver catches (a script must not catch around them).
import type { CallRecord } from '../outcome.ts';
import { RedisCheckError } from '../../redis/admin.ts';
import {
  PARALLEL,
  type Call,
  type ParallelCall,
  type Play,
  type RedisAdmin,
  type ScenarioCase,
  type Throws,
} from '../../suite.ts';
import { format, isNotImplemented, type DriveResult, type Thrown } from './drive.ts';
import { timesFrom } from '../format-value.ts';
import {
  playCall,
  playParallel,
  type AsyncDriveOptions,
  type AsyncDriveResult,
  type Played,
} from './drive-async.ts';
import type { Port } from '../../sandbox/port.ts';

/** What a scenario may use beyond the learner's class. */
export interface ScenarioServices {
  /** The case's Redis, seen by the judge (absent when the problem has none). */
  redis?: RedisAdmin;
  /** Skews the clock learner code reads (the realm's Date). */
  skewClock?: (ms: number) => void;
}

/** Thrown by Play's methods when a step fails: the script ends there. */
class Stop {
  readonly stop = true;
}

/** A scenario is short: more rows than this is a suite's mistake. */
const MAX_ROWS = 10_000;

export async function driveScenario(
  c: ScenarioCase,
  port: Port,
  options: AsyncDriveOptions,
  services: ScenarioServices,
): Promise<AsyncDriveResult> {
  const { className } = options;
  const hasFixtures = options.fixtures !== undefined && Object.keys(options.fixtures).length > 0;
  const records: CallRecord[] = [];
  let divergedAt: number | undefined;
  let diverged: DriveResult['diverged'];
  let thrown: Thrown | undefined;
  let unsettled: string | undefined;
  let instances = 0;
  const sketched: { call: Call; row: number }[] = [];
  let threwForAnswer = false;
  let epoch: { at: number; name: string; what: string; said: boolean } | undefined;

  const row = (record: CallRecord): void => {
    if (records.length >= MAX_ROWS)
      throw new Error(`a scenario may take at most ${MAX_ROWS} steps`);
    records.push(epoch === undefined ? record : relative(record, epoch));
  };
  /** Records a played call or step, and stops the script when it failed. */
  const settleRow = (played: Played, answerWanted = false): void => {
    const index = records.length;
    const note = port.status();
    let record: CallRecord;
    if ('record' in played.row) record = { ...played.row.record, index };
    else {
      played.row.raw.index = index;
      record = format(played.row.raw, className, options.tolerance ?? {});
      if (played.unsettled !== undefined) record.actual = 'did not settle';
      // An oracle works out the answer expected from the one given: a call that gave none was
      // expected to give one.
      if (answerWanted && played.threw !== undefined) {
        record.expected = 'an answer';
        threwForAnswer = true;
      }
    }
    if (note) record.note = note;
    row(record);
    if (epoch !== undefined && !epoch.said) {
      // Said once, under the first row that shows it.
      epoch.said = true;
      row({
        index: records.length,
        method: `${epoch.name} = ${epoch.at}`,
        args: epoch.what,
        expected: '',
        actual: '',
        ok: true,
        step: true,
      });
    }
    if (played.unsettled !== undefined)
      unsettled = played.unsettled.replace(/^call \d+/, `call ${index}`);
    else if (played.thrown !== undefined) {
      thrown = { error: played.thrown, notImplemented: isNotImplemented(played.thrown) };
    }
    if (!played.ok) {
      divergedAt = index;
      diverged = { actual: played.actual, threw: played.threw };
      throw new Stop();
    }
  };

  /**
   * Clients made since the last call may still be connecting: the statement hands learner code
   * connected clients, so a call waits for them (all at once) before it starts its own clock.
   */
  let connecting = true;
  const connected = async (): Promise<void> => {
    if (!connecting) return;
    connecting = false;
    await port.connected?.();
  };

  const play: Play = {
    async construct(args, expected: null | Throws = null) {
      const call: Call = { method: className, args, expected, target: instances };
      settleRow(await playCall(call, records.length, port, options, hasFixtures));
      connecting = true;
      return instances++;
    },
    async call(target, method, args, expected) {
      await connected();
      const oracle =
        typeof expected === 'function' ? (expected as (a: unknown) => unknown) : undefined;
      const call: Call = { method, args, expected: oracle ? undefined : expected, target };
      const played = await playCall(call, records.length, port, options, hasFixtures, oracle);
      settleRow(played, oracle !== undefined);
      return played.actual;
    },
    async parallel(calls: ParallelCall[], where, between) {
      await connected();
      const answers: unknown[] = [];
      const band = typeof between === 'function' ? between : undefined;
      const first: [number, number] = band ? [0, calls.length] : (between as [number, number]);
      const step: Call = { method: PARALLEL, args: calls, expected: { where, between: first } };
      settleRow(await playParallel(step, records.length, port, options, band, answers));
      return answers;
    },
    check({ what, expected, actual, ok }) {
      const record: CallRecord = {
        index: records.length,
        method: what,
        args: '',
        expected,
        actual,
        ok,
        step: true,
      };
      row(record);
      if (!ok) {
        divergedAt = record.index;
        diverged = { actual };
        throw new Stop();
      }
    },
    note(what, detail = '') {
      row({
        index: records.length,
        method: what,
        args: detail,
        expected: '',
        actual: '',
        ok: true,
        step: true,
      });
    },
    sketch(call) {
      sketched.push({ call: { ...call, args: [...call.args] }, row: records.length });
    },
    timesFrom(at, name, what) {
      epoch ??= { at, name, what, said: false };
    },
    skewClock(ms) {
      if (services.skewClock === undefined) throw new Error('this realm has no clock to skew');
      services.skewClock(ms);
    },
    get redis(): RedisAdmin {
      if (services.redis === undefined) throw new Error('this problem has no Redis');
      return services.redis;
    },
  };

  port.reset(options.fixtures);
  try {
    await c.scenario(play);
  } catch (error) {
    if (error instanceof RedisCheckError && error.busy) {
      // The judge's own look at Redis found it running a script of the learner's that had not
      // ended: the learner's doing, as a call that does not settle is (a time limit).
      const index = records.length;
      records.push({
        index,
        method: 'Redis, read by the judge',
        args: '',
        expected: 'an answer',
        actual: 'BUSY: a script of yours was still running',
        ok: false,
        step: true,
      });
      divergedAt ??= index;
      unsettled ??= `Redis was still running a script of yours at step ${index} (it answered BUSY): a script must end within its call`;
    } else if (!(error instanceof Stop)) throw error;
  }
  return {
    records,
    totalCalls: records.length,
    divergedAt,
    diverged,
    thrown,
    unsettled,
    sketched,
    threwForAnswer,
  };
}

/** A row with its times in full rewritten as `T+750` from the epoch. */
function relative(record: CallRecord, epoch: { at: number; name: string }): CallRecord {
  const from = (text: string): string => timesFrom(text, epoch);
  const rewritten: CallRecord = {
    ...record,
    args: from(record.args),
    expected: from(record.expected),
    actual: from(record.actual),
  };
  if (record.differences) {
    rewritten.differences = record.differences.map((d) => ({
      field: d.field,
      expected: from(d.expected),
      actual: from(d.actual),
    }));
  }
  return rewritten;
}
