// Write your StockPrice here. `npm run kata 2034` judges this file on every save.
// A class pasted from LeetCode works as it is, as long as it is exported.

export class StockPrice {
  constructor() {}

  update(timestamp: number, price: number): void {
    throw new Error('Not implemented: StockPrice.update');
  }

  current(): number {
    throw new Error('Not implemented: StockPrice.current');
  }

  maximum(): number {
    throw new Error('Not implemented: StockPrice.maximum');
  }

  minimum(): number {
    throw new Error('Not implemented: StockPrice.minimum');
  }
}
