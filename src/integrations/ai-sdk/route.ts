import type { JsonObject } from '../../model/json.js';
import type { SessionHandle } from '../../session/handle.js';
import type { SessionOptions } from '../../session/options.js';
import type { Store } from '../../store/store.js';
import { readCursor } from './cursor.js';

/** Opens (or creates) a session by id: the public entry passes `openSession`. */
export type OpenSession<S extends SessionHandle> = (
  store: Store,
  id: string,
  options: SessionOptions,
) => Promise<S>;

/**
 * Which session the middleware writes to. The app's `sessionId` names the root; after the app
 * rewrote its history the conversation continues in a branch `<sessionId>~<n>`, which the root's
 * cursor points to (a restart follows the pointer). No session is ever rewritten.
 */
export class SessionRoute<S extends SessionHandle> {
  private root: S | null = null;
  private active: S | null = null;

  constructor(
    private readonly open: OpenSession<S>,
    private readonly store: Store,
    private readonly id: string,
    private options: SessionOptions,
    private readonly onSession?: (session: S) => void,
  ) {}

  /** The session to write to, opened on first use; `modelId` gives the limits if no model was set. */
  async current(modelId: string): Promise<S> {
    if (this.active) return this.active;
    this.options = { ...this.options, model: this.options.model ?? modelId };
    this.root = await this.open(this.store, this.id, this.options);
    const branch = readCursor(this.root.log.record.state.cursor, this.id).branch;
    this.active = branch ? await this.open(this.store, branch, this.options) : this.root;
    this.onSession?.(this.active);
    return this.active;
  }

  /** Continues in a new, empty branch, which keeps what the session learned of the model's counting. */
  async branch(reason: string): Promise<S> {
    const root = this.root!;
    const previous = this.active!;
    const cursor = readCursor(root.log.record.state.cursor, this.id);
    let n = (cursor.branches ?? 0) + 1;
    while (await this.store.getSession(`${this.id}~${n}`)) n++;
    const branchId = `${this.id}~${n}`;
    // The pointer first: a restart between the two writes opens the empty branch and fills it.
    await root.append([], { cursor: { ...cursor, branch: branchId, branches: n } });
    const metadata: JsonObject = { ...this.options.metadata, branchOf: this.id, branchReason: reason };
    const next = await this.open(this.store, branchId, { ...this.options, metadata });
    const { calibration } = previous.log.record.state;
    await next.log.mutate((record) => ({ append: [], state: { ...record.state, calibration } }));
    previous.events.emit('warning', {
      message: `the app rewrote its history (${reason}); continuing in session '${branchId}'`,
      error: undefined,
    });
    this.active = next;
    this.onSession?.(next);
    return next;
  }
}
