// Separate servers, as in production: an instance constructed with a fixture that stands for a server
// of its own (FixtureSpec.server: a Redis client's connection) runs in a realm of its own, from a fresh
// load of the learner's module. A limiter that keeps its state in a module-level Map (or anywhere in
// the realm) instead of in Redis then has one such state per server, as it would on ten machines, and
// the cases where servers share a key see it. Instances without such a fixture stay in the problem's
// realm. The case sees one Port: each call goes to the realm of its instance.
//
// Which instances are servers of their own follows how an API is deployed: every replica runs the
// same configuration. An instance built on a server fixture with the same other arguments as an
// instance built before it is another replica: a realm of its own. One built with arguments no
// instance had before is another limiter of the same program (a second route, a second plan): it
// joins the realm of the case's first server, its client beside that server's, as two limiters of
// one process share its memory (what a solution keeping settings in static fields gets wrong).
import { isFixtureRef, type FixtureSpec } from '../suite.ts';
import type { LearnerError, Port, Reply } from './port.ts';
import type { LearnerRealm } from './realm.ts';

/** What the child gives for a separate server: a fresh realm with the learner's class loaded. */
export type MakeServerRealm = () => LearnerRealm | LearnerError;

/** The fixture names in a constructor's arguments, at any depth of plain arrays and objects. */
function fixtureNames(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (typeof value !== 'object' || value === null) return into;
  if (isFixtureRef(value)) into.add(value.$fixture);
  else for (const item of Object.values(value)) fixtureNames(item, into);
  return into;
}

export class ServerRealms implements Port {
  /** Each separate server's realm, by its fixture's name. */
  private servers = new Map<string, LearnerRealm>();
  /** The realm each instance lives in. */
  private realmOf = new Map<number, LearnerRealm>();
  private specs: Record<string, FixtureSpec> = {};
  /** The other arguments of every instance built on a server fixture this case. */
  private settings = new Set<string>();
  /** The case's first server's realm, where a limiter of other settings joins it. */
  private first: LearnerRealm | undefined;
  private skew = 0;
  private tickets = new Map<number, { realm: LearnerRealm; ticket: number }>();
  private nextTicket = 0;
  /** What dropped realms printed, until drained. */
  private printed = '';

  constructor(
    private readonly main: LearnerRealm,
    private readonly makeRealm: MakeServerRealm,
  ) {}

  /** Every separate server's realm, once (servers of one program share one). */
  private realms(): Set<LearnerRealm> {
    return new Set(this.servers.values());
  }

  private drop(): void {
    for (const realm of this.realms()) {
      realm.reset(undefined);
      this.printed += realm.drainOutput();
    }
    this.servers = new Map();
    this.settings = new Set();
    this.first = undefined;
    this.realmOf = new Map();
    this.tickets = new Map();
    this.skew = 0;
  }

  reset(fixtures: Record<string, FixtureSpec> | undefined): void {
    this.drop();
    this.specs = fixtures ?? {};
    const shared = Object.entries(this.specs).filter(([, spec]) => spec.server !== true);
    // The problem's realm first: its reset closes every connection the case before left open.
    this.main.reset(Object.fromEntries(shared));
  }

  /**
   * The realm of the server `name`, made on its first instance, unless that instance's `settings`
   * are new to the case: then the first server's (see the top of this file).
   */
  private serverRealm(name: string, settings: string): LearnerRealm | LearnerError {
    const known = this.servers.get(name);
    if (known !== undefined) return known;
    const spec = this.specs[name] as FixtureSpec;
    if (this.first !== undefined && !this.settings.has(settings)) {
      this.first.addFixtures({ [name]: spec });
      this.servers.set(name, this.first);
      return this.first;
    }
    const made = this.makeRealm();
    if (!('reset' in made)) return made;
    made.reset({ [name]: spec });
    if (this.skew !== 0) made.skewClock(this.skew);
    this.servers.set(name, made);
    this.first ??= made;
    return made;
  }

  construct(target: number, args: readonly unknown[]): Reply {
    const names = [...fixtureNames(args)];
    const server = names.filter((name) => this.specs[name]?.server === true);
    if (server.length === 0) {
      this.realmOf.set(target, this.main);
      return this.main.construct(target, args);
    }
    if (names.length > 1) {
      throw new Error(
        `an instance on a server of its own (${server.join(', ')}) may be handed no other fixture: ${names.join(', ')}`,
      );
    }
    // The other arguments, fixtures left out; numbers as text, so that NaN and Infinity count.
    const settings = JSON.stringify(args, (_, value: unknown) =>
      isFixtureRef(value) ? null : typeof value === 'number' ? String(value) : value,
    );
    const realm = this.serverRealm(server[0] as string, settings);
    this.settings.add(settings);
    if (!('reset' in realm)) return { ok: false, error: realm };
    this.realmOf.set(target, realm);
    return realm.construct(target, args);
  }

  private realm(target: number): LearnerRealm {
    return this.realmOf.get(target) ?? this.main;
  }

  call(target: number, method: string, args: readonly unknown[]): Reply {
    return this.realm(target).call(target, method, args);
  }

  callExpecting(
    target: number,
    method: string,
    args: readonly unknown[],
    fields: readonly string[],
  ): Reply {
    return this.realm(target).callExpecting(target, method, args, fields);
  }

  begin(target: number, method: string, args: readonly unknown[]): number {
    const realm = this.realm(target);
    const ticket = this.nextTicket++;
    this.tickets.set(ticket, { realm, ticket: realm.begin(target, method, args) });
    return ticket;
  }

  settled(ticket: number): Reply | undefined {
    const found = this.tickets.get(ticket);
    if (found === undefined) return undefined;
    const reply = found.realm.settled(found.ticket);
    if (reply !== undefined) this.tickets.delete(ticket);
    return reply;
  }

  pump(): void {
    this.main.pump();
    for (const realm of this.realms()) realm.pump();
  }

  async connected(): Promise<void> {
    await Promise.all([this.main, ...this.realms()].map((realm) => realm.connected()));
  }

  hasFixture(name: string): boolean {
    return this.servers.has(name) || this.main.hasFixture(name);
  }

  fixtureCall(name: string, method: string, args: readonly unknown[]): Reply {
    return (this.servers.get(name) ?? this.main).fixtureCall(name, method, args);
  }

  status(): string {
    return this.main.status();
  }

  dropInstances(): void {
    this.main.dropInstances();
    for (const realm of this.realms()) realm.dropInstances();
  }

  clockReads(): number {
    let reads = this.main.clockReads();
    for (const realm of this.realms()) reads += realm.clockReads();
    return reads;
  }

  /** Skews every server's clock, and those of servers made later in the case. */
  skewClock(ms: number): void {
    this.main.skewClock(ms);
    for (const realm of this.realms()) realm.skewClock(ms);
    this.skew = ms;
  }

  drainOutput(): string {
    let text = this.printed + this.main.drainOutput();
    for (const realm of this.realms()) text += realm.drainOutput();
    this.printed = '';
    return text;
  }

  /** Ends the case: every realm lets go of its instances, and the servers' realms go. */
  end(): void {
    this.drop();
    this.main.reset(undefined);
  }
}
