import should from 'should';
import { displayName, entitySlug, isSafeTopic, safeId } from '../../src/homeassistant';
import { HOSTILE_NAMES } from './fixtures';

const SAFE = /^[A-Za-z0-9_-]{1,64}$/;

describe('homeassistant/ids: names the device chooses, made safe', () => {
  it('keeps an id that is safe already, such as a hardware id', () => {
    should(safeId('SIM410000000001')).equal('SIM410000000001');
    should(safeId('networkA')).equal('networkA');
  });

  for (const name of HOSTILE_NAMES) {
    it(`makes a safe id of ${JSON.stringify(name.slice(0, 40))}`, () => {
      should(safeId(name)).match(SAFE);
    });
  }

  it('gives names cleaned alike different ids, and a name the same id every time', () => {
    const ids = ['a/b', 'a#b', 'a+b', 'a_b'].map(safeId);
    should(new Set(ids).size).equal(4);
    should(safeId('a/b')).equal(ids[0]);
  });

  it('gives a name with nothing safe in it an id too', () => {
    should(safeId('}}{%')).match(SAFE);
    should(safeId('')).match(SAFE);
  });

  it('suggests entity ids of lower case letters, digits and single underscores', () => {
    should(entitySlug('Room 1 / Stage "A"')).equal('room_1_stage_a');
    for (const name of HOSTILE_NAMES) should(entitySlug(name)).match(/^([a-z0-9]+(_[a-z0-9]+)*)?$/);
  });

  it('cuts a long name and removes control characters for the texts of a config', () => {
    should(displayName('n'.repeat(10_000)).length).equal(100);
    should(displayName('nul\u0000here')).equal('nulhere');
  });

  it('takes a configured topic only of safe levels', () => {
    should(isSafeTopic('homeassistant')).be.true();
    should(isSafeTopic('site-1/conference_audio')).be.true();
    for (const topic of ['', 'a//b', 'a/#', 'a/+/b', 'a b', '/a']) should(isSafeTopic(topic)).be.false();
  });
});
