/** Work under way that must not reject (a session closing, lists read again), each forgotten once it settles. */
export class UnderWay {
  private readonly promises = new Set<Promise<void>>();

  add(promise: Promise<void>): void {
    this.promises.add(promise);
    void promise.finally(() => this.promises.delete(promise));
  }

  /** Settles when everything under way now has settled. */
  settled(): Promise<unknown> {
    return Promise.all(this.promises);
  }
}
