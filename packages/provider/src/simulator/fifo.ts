/**
 * A queue of items with due times, popped in order. Items are pushed with nondecreasing due
 * times in the common case (a constant delay after "now"), so push appends in O(1); a smaller
 * delay set mid-run is placed by a short walk back from the tail instead of breaking the order.
 */
export class DueQueue<T> {
  private items: { due: number; item: T }[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(due: number, item: T): void {
    let i = this.items.length;
    while (i > this.head && this.items[i - 1]!.due > due) i--;
    if (i === this.items.length) this.items.push({ due, item });
    else this.items.splice(i, 0, { due, item });
  }

  /** Removes and returns every item due at or before `now`, in due order. */
  popDue(now: number, max = Infinity): T[] {
    const out: T[] = [];
    while (this.head < this.items.length && this.items[this.head]!.due <= now && out.length < max) {
      out.push(this.items[this.head]!.item);
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return out;
  }

  drain(): T[] {
    const out = this.items.slice(this.head).map((e) => e.item);
    this.clear();
    return out;
  }

  clear(): void {
    this.items = [];
    this.head = 0;
  }
}
