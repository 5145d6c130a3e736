/** One holder at a time, the others waiting in arrival order. */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();

  /** Resolves when the caller holds the lock, with the function that releases it (idempotent). */
  acquire(): Promise<() => void> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const turn = this.tail.then(() => release);
    this.tail = this.tail.then(() => released);
    return turn;
  }
}
