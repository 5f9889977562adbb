import should from 'should';
import { parseLayoutResponse, readCameraInputs, withCameraInputs } from '../../src/zones';
import { isZonesChange, zonesFromChange } from '../../src/zones/zone-changes';

const zones = [
  { id: 'a', label: 'A', types: ['Switching'], geometry: { point1: { x: 0, y: 0 }, point2: { x: 1, y: 1 } } },
  { id: 'b', label: 'B', types: ['Switching'], geometry: { point1: { x: 2, y: 0 }, point2: { x: 3, y: 1 } } },
];

describe('zones/camera-inputs', () => {
  it('reads a list of {zoneId, inputPort} under either spelling of the map', () => {
    for (const key of ['cameraSwitcherZoneInputMap', 'cameraSwitcherZoneInputMaps']) {
      const inputs = readCameraInputs({ zones, [key]: [{ zoneId: 'a', inputPort: 'USB2' }] });
      should([...inputs]).eql([['a', 'USB2']]);
    }
  });

  it('reads other entry spellings, an object keyed by zone id, and numeric inputs', () => {
    should([
      ...readCameraInputs({
        cameraSwitcherZoneInputMap: [
          { id: 'a', input: 3 },
          { zone: 'b', port: 'HDMI1' },
        ],
      }),
    ]).eql([
      ['a', 3],
      ['b', 'HDMI1'],
    ]);
    should([
      ...readCameraInputs({ cameraSwitcherZoneInputMaps: { a: 'USB1', b: { inputPort: 'USB2' } } }),
    ]).eql([
      ['a', 'USB1'],
      ['b', 'USB2'],
    ]);
  });

  it('finds a map nested one level down, and none in a layout without one or with junk', () => {
    should([
      ...readCameraInputs({ room: { cameraSwitcherZoneInputMap: [{ zoneId: 'b', inputPort: 'X' }] } }),
    ]).eql([['b', 'X']]);
    should(readCameraInputs({ zones }).size).equal(0);
    should(
      readCameraInputs({ cameraSwitcherZoneInputMap: [null, 7, { zoneId: 'a' }, { inputPort: 'x' }] }).size,
    ).equal(0);
    should(readCameraInputs('layout').size).equal(0);
  });

  it('gives each zone the map names its cameraInput and leaves the others as they were', () => {
    const [a, b] = withCameraInputs(zones, new Map([['a', 'USB2']]));
    should(a).have.property('cameraInput', 'USB2');
    should(b).not.have.property('cameraInput');
    should(zones[0]).not.have.property('cameraInput');
  });

  it('keeps the map when the zones are read from the layout', () => {
    const read = parseLayoutResponse({
      zones,
      cameraSwitcherZoneInputMap: [{ zoneId: 'b', inputPort: 'USB3' }],
    });
    should(read.zones[1]).have.property('cameraInput', 'USB3');
    should(read.zones[0]).not.have.property('cameraInput');
  });
});

describe('zones/zone-changes', () => {
  it('tells the change events that are about zones', () => {
    should(isZonesChange('/api/v1/room/layout')).be.true();
    should(isZonesChange('/api/v1/room/zones')).be.true();
    should(isZonesChange('/api/v1/room/zones/a')).be.true();
    should(isZonesChange('/api/v1/room/layouts')).be.false();
    should(isZonesChange('ledStateUpdated')).be.false();
    should(isZonesChange('/api/v1/audio/hardware')).be.false();
  });

  it('reads the zones a layout or zones event carries, and nothing from a part or junk', () => {
    should(zonesFromChange('/api/v1/room/layout', { zones })?.zones.map((z) => z.id)).eql(['a', 'b']);
    should(zonesFromChange('/api/v1/room/zones', { zones })?.source).equal('zones');
    should(zonesFromChange('/api/v1/room/zones/a', zones[0])).be.undefined();
    should(zonesFromChange('/api/v1/room/layout', 'not json')).be.undefined();
  });
});
