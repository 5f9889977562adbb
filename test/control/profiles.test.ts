import should from 'should';
import { parseControlAction } from '../../src/control';
import { MAX_LISTED_PROFILES, MAX_QUOTED_PROFILE_NAME, profileNotFound } from '../../src/control/profiles';
import { thrown } from './helpers';

describe('control/profiles: how a flow names a room profile', () => {
  it('takes a word, a number, {id} or {name}', () => {
    should(parseControlAction('profile', 'Workshop')).eql({
      action: 'profile',
      value: { by: 'either', value: 'Workshop' },
    });
    should(parseControlAction('profile', 7)).eql({ action: 'profile', value: { by: 'either', value: '7' } });
    should(parseControlAction('profile', { id: ' p-1 ' })).eql({
      action: 'profile',
      value: { by: 'id', value: 'p-1' },
    });
    should(parseControlAction('profile', { name: 'Workshop' })).eql({
      action: 'profile',
      value: { by: 'name', value: 'Workshop' },
    });
  });

  it('refuses an object with both, with another key, or with an empty value as INVALID_INPUT', () => {
    for (const value of [{ id: 'p-1', name: 'x' }, { profileId: 'p-1' }, { name: '' }, {}, [], Number.NaN]) {
      should(thrown(() => parseControlAction('profile', value)).code).equal('INVALID_INPUT');
    }
  });

  it('lists at most 20 names when a profile is not found, and cuts the name asked for to 200 characters', () => {
    const profiles = Array.from({ length: 30 }, (_, index) => ({
      profileId: `p-${index}`,
      name: `room ${index}`,
      active: index === 0,
    }));
    const asked = 'x'.repeat(5000);
    const error = profileNotFound(asked, { profiles });
    should(error.code).equal('NOT_FOUND');
    should(error.message).startWith(
      `The device has no room profile "${'x'.repeat(MAX_QUOTED_PROFILE_NAME)}…": `,
    );
    should(error.message).endWith('"room 19" and 10 more');
    should(error.message.match(/"room \d+"/g)).have.length(MAX_LISTED_PROFILES);
  });

  it('cuts a long profile name the device lists', () => {
    const error = profileNotFound('x', { profiles: [{ profileId: 'p', name: 'n'.repeat(1000) }] });
    should(error.message.length).be.below(400);
  });
});
