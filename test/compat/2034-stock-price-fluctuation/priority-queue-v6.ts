// expect: accepted
// Two heaps on LeetCode's global MaxPriorityQueue and MinPriorityQueue (datastructures-js 6.x,
// no import): records are objects, ordered by the callback given to the constructor, and front()
// returns the record itself. Records a correction overruled are thrown away when they reach the top.

interface PriceRecord {
  timestamp: number;
  price: number;
}

export class StockPrice {
  private readonly prices = new Map<number, number>();
  private latest = 0;
  private readonly high = new MaxPriorityQueue<PriceRecord>((record) => record.price);
  private readonly low = new MinPriorityQueue<PriceRecord>((record) => record.price);

  update(timestamp: number, price: number): void {
    this.prices.set(timestamp, price);
    this.latest = Math.max(this.latest, timestamp);
    this.high.enqueue({ timestamp, price });
    this.low.enqueue({ timestamp, price });
  }

  current(): number {
    return this.prices.get(this.latest)!;
  }

  maximum(): number {
    return this.top(this.high);
  }

  minimum(): number {
    return this.top(this.low);
  }

  private top(queue: MaxPriorityQueue<PriceRecord> | MinPriorityQueue<PriceRecord>): number {
    while (this.prices.get(queue.front()!.timestamp) !== queue.front()!.price) queue.dequeue();
    return queue.front()!.price;
  }
}
