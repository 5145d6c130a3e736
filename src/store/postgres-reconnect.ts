import { StoreConnectionError } from './errors.js';
import { CommitUnknownError, connectionLost } from './postgres-pool.js';

/** How long an operation keeps trying to reach the server again (a failover takes seconds). */
export interface ReconnectPolicy {
  deadlineMs: number;
  firstDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RECONNECT: ReconnectPolicy = { deadlineMs: 15_000, firstDelayMs: 20, maxDelayMs: 1_000 };

/**
 * Whether a write whose COMMIT was lost landed: `{ value }` (what the write returns) if it did,
 * null if it did not (it is made again). It may throw the error the write should end with (a
 * version conflict: another writer got there instead).
 */
export type Landed<T> = () => Promise<{ value: T } | null>;

/**
 * Runs `attempt`, again on a new connection while the connection is lost, until the policy's
 * deadline; then a StoreConnectionError. A read or a transaction lost before its COMMIT changed
 * nothing, so making it again is safe. A COMMIT lost on the way is settled by `landed` first; an
 * operation without one must be idempotent (a DELETE, an insert keyed by its content).
 */
export async function reconnecting<T>(
  operation: string,
  attempt: () => Promise<T>,
  landed?: Landed<T>,
  policy: ReconnectPolicy = DEFAULT_RECONNECT,
): Promise<T> {
  const started = Date.now();
  let unknown = false;
  for (let n = 0; ; n++) {
    try {
      if (unknown && landed) {
        const found = await landed();
        if (found) return found.value;
        unknown = false;
      }
      return await attempt();
    } catch (error) {
      if (error instanceof CommitUnknownError) unknown = true;
      else if (!connectionLost(error)) throw error;
      const elapsed = Date.now() - started;
      if (elapsed >= policy.deadlineMs) throw new StoreConnectionError(operation, unknown, error);
      const wait = Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** n, policy.deadlineMs - elapsed);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
