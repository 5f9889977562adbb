import should from 'should';
import { stepVolumeTo } from '../../src/homeassistant';

/** A device volume of `step` per change, clamped to 0..max; records the directions asked. */
function device(start: number, step: number, max: number) {
  let volume = start;
  const asked: string[] = [];
  return {
    asked,
    step: async (direction: 'up' | 'down') => {
      asked.push(direction);
      volume = Math.min(max, Math.max(0, volume + (direction === 'up' ? step : -step)));
      return volume;
    },
  };
}

describe('homeassistant/volume: a level reached in steps', () => {
  it('steps up to the target, one step at a time', async () => {
    const fake = device(10, 1, 20);
    should(await stepVolumeTo(10, 13, fake.step)).equal(13);
    should(fake.asked).eql(['up', 'up', 'up']);
  });

  it('steps down to the target', async () => {
    const fake = device(10, 1, 20);
    should(await stepVolumeTo(10, 8, fake.step)).equal(8);
  });

  it('sends nothing when the volume is there already', async () => {
    const fake = device(10, 1, 20);
    should(await stepVolumeTo(10, 10, fake.step)).equal(10);
    should(fake.asked).eql([]);
  });

  it('stops at the end of the range, where the volume stops moving', async () => {
    const fake = device(18, 1, 20);
    should(await stepVolumeTo(18, 20, fake.step)).equal(20);
    const stuck = device(20, 1, 20);
    should(await stepVolumeTo(20, 20, stuck.step)).equal(20);
  });

  it('stops after the step that passes the target, with a step larger than one', async () => {
    const fake = device(40, 5, 100);
    should(await stepVolumeTo(40, 52, fake.step)).equal(55);
    should(fake.asked.length).equal(3);
  });
});
