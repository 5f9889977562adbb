import should from 'should';
import { TokenBucket } from '../../src/timing/token-bucket';

describe('timing/token-bucket', () => {
  it('lets a full burst go at once, then one token per refill period', () => {
    const bucket = new TokenBucket(3, 1 / 100, 0);
    for (let index = 0; index < 3; index++) {
      should(bucket.waitAt(0)).equal(0);
      bucket.take();
    }
    should(bucket.waitAt(0)).equal(100);
    should(bucket.waitAt(60)).equal(40);
    should(bucket.waitAt(100)).equal(0);
  });

  it('never holds more than the burst, however long it stood unused', () => {
    const bucket = new TokenBucket(2, 1 / 100, 0);
    should(bucket.waitAt(1_000_000)).equal(0);
    bucket.take();
    bucket.take();
    should(bucket.waitAt(1_000_000)).equal(100);
  });

  it('stays full with no refill rate, leaving the pacing to someone else', () => {
    const bucket = new TokenBucket(1, 0, 0);
    bucket.take();
    should(bucket.waitAt(0)).equal(0);
  });
});
