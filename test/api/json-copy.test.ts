import should from 'should';
import { copyJson } from '../../src/api/json-copy';

describe('api/json-copy: a copy of what the device sent that no later edit reaches', () => {
  it('copies objects and arrays at every depth, equal and independent', () => {
    const sent = JSON.parse(
      '{"coordinates":{"x":1,"y":2},"triggeredZones":[{"id":"a"}],"power":-40,"on":true,"no":null}',
    );
    const copy = copyJson(sent);
    should(copy).eql(sent);
    copy.coordinates.x = 99;
    copy.triggeredZones[0].id = 'changed';
    copy.triggeredZones.push({ id: 'b' });
    should(sent).eql(
      JSON.parse(
        '{"coordinates":{"x":1,"y":2},"triggeredZones":[{"id":"a"}],"power":-40,"on":true,"no":null}',
      ),
    );
  });

  it('passes strings, numbers, booleans and null through', () => {
    for (const value of ['text', 0, -1.5, true, false, null]) should(copyJson(value)).equal(value);
  });

  it("keeps a __proto__ field from the device a plain field, never the copy's prototype", () => {
    const copy = copyJson(JSON.parse('{"__proto__":{"polluted":true},"x":1}')) as Record<string, unknown>;
    should(Object.getPrototypeOf(copy)).equal(Object.prototype);
    should(Object.hasOwn(copy, '__proto__')).be.true();
    should((copy as { polluted?: unknown }).polluted).be.undefined();
    should(Object.keys(copy)).eql(['__proto__', 'x']);
  });
});
