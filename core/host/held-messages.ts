/**
 * Which messages the user sent are still exchanges of the conversation, by an id each message line carries (a
 * window's ⋯ menu on a message offers what fits it: the last one can be asked again, an earlier one taken back with
 * all after it, one already taken back nothing). Positions would not do: after a take-back the next message has
 * the place of the one that went.
 */
export class HeldMessages {
  private ids: number[] = [];
  private last = 0;

  /** The ids of the exchanges held, oldest first. */
  get held(): readonly number[] {
    return this.ids;
  }

  /** The id of a message being sent. */
  sent(): number {
    return ++this.last;
  }

  /** After a command or a turn: the conversation holds `count` exchanges; `sent` is the message this work sent. */
  settle(count: number, sent?: number): void {
    if (count < this.ids.length) this.ids.length = count;
    else if (sent !== undefined && count === this.ids.length + 1) this.ids.push(sent);
  }

  /** Another conversation took this one's place (a resumed session): fresh ids for its `count` exchanges. */
  replaced(count: number): readonly number[] {
    this.ids = Array.from({ length: count }, () => ++this.last);
    return this.ids;
  }
}
