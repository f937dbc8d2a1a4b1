import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ServerLeases, type ServerLease } from '../../../../src/core/mcp/serverLeases';

/** A server set that counts its stops (a stop counts when it is asked for, as a real one's processes get the signal then). */
class FakeServers {
  stops = 0;
  constructor(readonly name: string) {}
  async stopAll(): Promise<void> {
    this.stops += 1;
  }
}

describe('ServerLeases: the MCP servers a planning or run may call are not stopped under it', () => {
  it('a change while a planning holds its servers keeps them, still offered, until the planning ends', async () => {
    const leases = new ServerLeases<FakeServers>();
    const first = new FakeServers('first');
    await leases.adopt(first);
    const planning = leases.lease();
    await leases.retire();
    assert.equal(first.stops, 0, 'stopped under the planning');
    assert.equal(leases.current(), undefined);
    assert.equal(leases.offered(), first, "the planning's tools are no longer offered");
    await planning.release();
    assert.equal(first.stops, 1);
    assert.equal(leases.offered(), undefined);
  });

  it('a change with nothing holding the servers stops them at once; the next start is offered', async () => {
    const leases = new ServerLeases<FakeServers>();
    const first = new FakeServers('first');
    await leases.adopt(first);
    await leases.lease().release();
    await leases.retire();
    assert.equal(first.stops, 1);
    const second = new FakeServers('second');
    await leases.adopt(second);
    assert.equal(leases.offered(), second);
  });

  it('a planning begun after a change holds what is offered then, and every set started while it runs', async () => {
    const leases = new ServerLeases<FakeServers>();
    const first = new FakeServers('first');
    await leases.adopt(first);
    const run = leases.lease();
    await leases.retire();
    const planning = leases.lease();
    await run.release();
    assert.equal(first.stops, 0, 'stopped while the later planning may call it');
    const second = new FakeServers('second');
    await leases.adopt(second);
    await leases.retire();
    assert.equal(second.stops, 0, 'the set started during the planning was stopped under it');
    await planning.release();
    assert.deepEqual([first.stops, second.stops], [1, 1]);
  });

  it('a release twice stops nothing twice; closing the window stops held sets too', async () => {
    const leases = new ServerLeases<FakeServers>();
    const first = new FakeServers('first');
    await leases.adopt(first);
    const held = leases.lease();
    const second = new FakeServers('second');
    await leases.adopt(second);
    await leases.stopAll();
    await held.release();
    await held.release();
    assert.deepEqual([first.stops, second.stops], [1, 1]);
    assert.equal(leases.offered(), undefined);
  });

  type Op = { kind: 'adopt' } | { kind: 'retire' } | { kind: 'lease' } | { kind: 'release'; which: number };
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.constant({ kind: 'adopt' as const }),
    fc.constant({ kind: 'retire' as const }),
    fc.constant({ kind: 'lease' as const }),
    fc.nat({ max: 20 }).map((which) => ({ kind: 'release' as const, which })),
  );

  it('property: over any interleaving, no set is stopped while a lease that could read it is open, none twice, none leaked', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 60 }), async (ops) => {
        const leases = new ServerLeases<FakeServers>();
        const made: FakeServers[] = [];
        const open: { lease: ServerLease; read: Set<FakeServers> }[] = [];
        // Every open lease reads what is offered after every step: the most a planning or run could have taken.
        const readAll = (): void => {
          const offered = leases.offered();
          if (offered) for (const holder of open) holder.read.add(offered);
        };
        const check = (): void => {
          for (const servers of made) assert.ok(servers.stops <= 1, `${servers.name} stopped ${servers.stops} times`);
          for (const holder of open) for (const servers of holder.read) assert.equal(servers.stops, 0, `${servers.name} stopped under an open lease`);
          assert.equal(leases.offered()?.stops ?? 0, 0, 'a stopped set is offered');
        };
        for (const step of ops) {
          if (step.kind === 'adopt') {
            const servers = new FakeServers(`set ${made.length}`);
            made.push(servers);
            await leases.adopt(servers);
          } else if (step.kind === 'retire') {
            await leases.retire();
          } else if (step.kind === 'lease') {
            open.push({ lease: leases.lease(), read: new Set() });
          } else if (open.length > 0) {
            const [holder] = open.splice(step.which % open.length, 1);
            await holder?.lease.release();
          }
          readAll();
          check();
        }
        for (const holder of open.splice(0)) await holder.lease.release();
        for (const servers of made) assert.equal(servers.stops, servers === leases.current() ? 0 : 1, `${servers.name} leaked or stopped wrongly`);
        await leases.stopAll();
        for (const servers of made) assert.equal(servers.stops, 1);
      }),
      { numRuns: 500 },
    );
  });
});
