/**
 * A run's events in order (see select.ts `Event`): its kind and the cost it took or compared, in
 * typed arrays that grow by doubling. A summary's fitting rounds record tens of thousands each.
 */
export class EventLog {
  kinds: Uint8Array;
  costs: Float64Array;
  length = 0;
  constructor(capacity = 1_024) {
    this.kinds = new Uint8Array(capacity);
    this.costs = new Float64Array(capacity);
  }
  push(kind: number, cost: number): void {
    if (this.length === this.kinds.length) {
      const kinds = new Uint8Array(this.length * 2);
      kinds.set(this.kinds);
      this.kinds = kinds;
      const costs = new Float64Array(this.length * 2);
      costs.set(this.costs);
      this.costs = costs;
    }
    this.kinds[this.length] = kind;
    this.costs[this.length++] = cost;
  }
  /** A copy of the first `n` events, with room to grow. */
  prefix(n: number): EventLog {
    const log = new EventLog(Math.max(1_024, n * 2));
    log.kinds.set(this.kinds.subarray(0, n));
    log.costs.set(this.costs.subarray(0, n));
    log.length = n;
    return log;
  }
}
