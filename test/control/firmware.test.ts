import should from 'should';
import { compareFirmware, formatFirmware, parseFirmwareVersion } from '../../src/control';

describe('control/firmware: versions compared as the device compares them', () => {
  it('reads the text before the first dash as up to three numeric groups', () => {
    should(parseFirmwareVersion('1.9.278056-0')).eql([1, 9, 278056]);
    should(parseFirmwareVersion('2.0.1.7-beta')).eql([2, 0, 1]);
  });

  it('counts missing groups as zero', () => {
    should(parseFirmwareVersion('1.9')).eql([1, 9, 0]);
    should(compareFirmware([1, 9, 0], parseFirmwareVersion('1.9.0') ?? [0, 0, 0])).equal(0);
  });

  it('has no version for a text without a leading number', () => {
    should(parseFirmwareVersion('unknown')).be.undefined();
    should(parseFirmwareVersion('')).be.undefined();
  });

  it('compares group by group, numerically', () => {
    should(compareFirmware([1, 9, 278056], [1, 9, 0])).be.above(0);
    should(compareFirmware([1, 10, 0], [1, 9, 999])).be.above(0);
    should(compareFirmware([1, 999, 999], [2, 0, 0])).be.below(0);
  });

  it('writes a version without a zero third group', () => {
    should(formatFirmware([1, 3, 0])).equal('1.3');
    should(formatFirmware([1, 999, 999])).equal('1.999.999');
  });
});
