/** A set of started MCP servers, as far as its leases are concerned. */
export interface StoppableServers {
  /** Stops every server of the set; called at most once per set. */
  stopAll(): Promise<void>;
}

/** One planning's or run's hold on the servers it may call; `release` when it ends (again: nothing). */
export interface ServerLease {
  release(): Promise<void>;
}

/**
 * The MCP server sets of one window and the plannings and runs that may still call them. A changed configuration
 * replaces the current set (`retire`), and applies from the next planning or run: a set is stopped only once no lease
 * that was open while it was offered is open any more, so a planning or run never has the servers of a tool it took
 * stopped under it.
 *
 * Invariants: a set is stopped at most once, and never while a lease that was open while `offered()` returned it is
 * open; every retired set is stopped once those leases are released; `offered()` never returns a stopped set.
 */
export class ServerLeases<S extends StoppableServers> {
  private active: S | undefined;
  /** Sets replaced but still pinned by an open lease, oldest first. */
  private readonly retired: S[] = [];
  /** The open leases, each as the sets it may have taken tools of. */
  private readonly open = new Set<Set<S>>();

  /** The set started for the configuration as it is now, if any. */
  current(): S | undefined {
    return this.active;
  }

  /**
   * The set whose tools are offered: the current one, else (after a change, before the next start) the newest set a
   * planning or run still holds, so that planning or run goes on offering and calling what it started with.
   */
  offered(): S | undefined {
    return this.active ?? this.retired.at(-1);
  }

  /** Makes `servers` the current set (retiring the one before, if any); every open lease may read it from now on. */
  async adopt(servers: S): Promise<void> {
    const before = this.retireCurrent();
    this.active = servers;
    for (const pins of this.open) pins.add(servers);
    await before;
  }

  /** The configuration changed: the current set is stopped now if no open lease holds it, else when the last one is released. */
  async retire(): Promise<void> {
    await this.retireCurrent();
  }

  /** Holds the set offered now and every set made current until `release`. */
  lease(): ServerLease {
    const offered = this.offered();
    const pins = new Set<S>(offered === undefined ? [] : [offered]);
    this.open.add(pins);
    return {
      release: async () => {
        if (!this.open.delete(pins)) return;
        const free = this.retired.filter((servers) => pins.has(servers) && !this.pinned(servers));
        this.retired.splice(0, this.retired.length, ...this.retired.filter((servers) => !free.includes(servers)));
        await Promise.all(free.map((servers) => servers.stopAll()));
      },
    };
  }

  /** Stops every set, held or not (the window closes); the leases still open hold nothing after. */
  async stopAll(): Promise<void> {
    const all = [...this.retired, ...(this.active === undefined ? [] : [this.active])];
    this.retired.length = 0;
    this.active = undefined;
    for (const pins of this.open) pins.clear();
    await Promise.all(all.map((servers) => servers.stopAll()));
  }

  private async retireCurrent(): Promise<void> {
    const servers = this.active;
    if (servers === undefined) return;
    this.active = undefined;
    if (this.pinned(servers)) this.retired.push(servers);
    else await servers.stopAll();
  }

  private pinned(servers: S): boolean {
    for (const pins of this.open) if (pins.has(servers)) return true;
    return false;
  }
}
