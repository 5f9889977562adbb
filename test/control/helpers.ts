import should from 'should';
import { DeviceError } from '../../src/errors';

/** The DeviceError `run` throws; fails the test when it throws nothing or something else. */
export function thrown(run: () => unknown): DeviceError {
  try {
    run();
  } catch (error) {
    should(error).be.instanceOf(DeviceError);
    return error as DeviceError;
  }
  throw new Error('expected a DeviceError, nothing was thrown');
}
