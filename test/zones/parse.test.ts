import should from 'should';
import { DeviceError } from '../../src/errors';
import { parseLayoutResponse, parseZoneList, parseZonesResponse } from '../../src/zones';

const specZone = {
  types: ['Switching'],
  geometry: { point1: { x: -1000, y: 500 }, point2: { x: 1500, y: 2500 } },
  label: 'Presenter',
  id: '0f8fad5b-d9cb-469f-a165-70867728950e',
};

function badResponse(read: () => unknown): DeviceError {
  try {
    read();
  } catch (error) {
    should(error).be.instanceOf(DeviceError);
    should((error as DeviceError).code).equal('BAD_RESPONSE');
    return error as DeviceError;
  }
  throw new Error('expected a BAD_RESPONSE error');
}

describe('zones/parse', () => {
  describe('spec shape', () => {
    it('reads the spec body unchanged, source zones, no warnings', () => {
      const result = parseZonesResponse({ zones: [specZone] });
      should(result).eql({ zones: [specZone], warnings: [], source: 'zones' });
    });

    it('reads an empty zones array as a room without zones', () => {
      should(parseZonesResponse({ zones: [] })).eql({ zones: [], warnings: [], source: 'zones' });
    });

    it('returns a copy: changing a parsed zone leaves the body alone', () => {
      const body = { zones: [structuredClone(specZone)] };
      const result = parseZonesResponse(body);
      const parsed = result.zones[0];
      if (parsed === undefined) throw new Error('no zone');
      parsed.geometry.point1.x = 42;
      parsed.types.push('Other');
      should(body.zones[0]).eql(specZone);
    });
  });

  describe('alternate spellings', () => {
    it('reads type as a string into types', () => {
      const { types, ...rest } = specZone;
      const zone = parseZonesResponse({ zones: [{ ...rest, type: 'Switching' }] }).zones[0];
      should(zone?.types).eql(['Switching']);
      should(zone).not.have.property('type');
    });

    it('adds a type beside types when it names another type, once', () => {
      const zone = parseZonesResponse({ zones: [{ ...specZone, type: 'Switching' }] }).zones[0];
      should(zone?.types).eql(['Switching']);
      const both = parseZonesResponse({ zones: [{ ...specZone, type: 'Muting' }] }).zones[0];
      should(both?.types).eql(['Switching', 'Muting']);
    });

    it('reads zoneId as id', () => {
      const { id, ...rest } = specZone;
      const zone = parseZonesResponse({ zones: [{ ...rest, zoneId: id }] }).zones[0];
      should(zone?.id).equal(id);
      should(zone).not.have.property('zoneId');
    });

    it('reads a numeric id as its text', () => {
      const zone = parseZonesResponse({ zones: [{ ...specZone, id: 3 }] }).zones[0];
      should(zone?.id).equal('3');
    });

    it('reads ZoneLabel and zoneLabel as label', () => {
      const { label, ...rest } = specZone;
      for (const key of ['ZoneLabel', 'zoneLabel']) {
        const result = parseZonesResponse({ zones: [{ ...rest, [key]: label }] });
        should(result.zones[0]?.label).equal(label);
        should(result.zones[0]).not.have.property(key);
        should(result.warnings).eql([]);
      }
    });

    it('prefers the spec spelling and drops the alternate one', () => {
      const zone = parseZonesResponse({
        zones: [{ ...specZone, zoneId: 'other', ZoneLabel: 'Other' }],
      }).zones[0];
      should(zone?.id).equal(specZone.id);
      should(zone?.label).equal('Presenter');
      should(Object.keys(zone ?? {})).eql(['types', 'geometry', 'label', 'id']);
    });

    it('reads the newer firmware spelling in full on the layout endpoint', () => {
      const result = parseLayoutResponse({
        zones: [
          {
            type: 'Switching',
            geometry: specZone.geometry,
            ZoneLabel: 'Presenter',
            zoneId: specZone.id,
            on: true,
          },
        ],
      });
      should(result.source).equal('layout');
      should(result.zones).eql([{ ...specZone, on: true }]);
      should(result.warnings).eql([]);
    });
  });

  describe('device fields', () => {
    it('keeps a boolean on and unknown fields untouched, after the spec fields', () => {
      const extra = { on: false, colour: '#ff0000', limits: { minDb: -40, tags: ['a', 'b'] } };
      const zone = parseZonesResponse({ zones: [{ ...extra, ...specZone }] }).zones[0];
      should(zone).eql({ ...specZone, ...extra });
      should(Object.keys(zone ?? {})).eql(['types', 'geometry', 'label', 'id', 'on', 'colour', 'limits']);
    });

    it('keeps extra fields of geometry and of the corners', () => {
      const geometry = { point1: { x: 0, y: 0, z: 1200 }, point2: { x: 10, y: 10, z: 1200 }, shape: 'rect' };
      const zone = parseZonesResponse({ zones: [{ ...specZone, geometry }] }).zones[0];
      should(zone?.geometry).eql(geometry);
    });

    it('keeps a __proto__ key from the device as a plain field', () => {
      const raw = JSON.parse(
        `{"zones":[${JSON.stringify(specZone).slice(0, -1)},"__proto__":{"polluted":true}}]}`,
      );
      const zone = parseZonesResponse(raw).zones[0];
      should(Object.hasOwn(zone ?? {}, '__proto__')).be.true();
      should(({} as Record<string, unknown>).polluted).be.undefined();
      should((zone as Record<string, unknown>).polluted).be.undefined();
    });
  });

  describe('missing fields', () => {
    it('reads a missing label as an empty label with a MISSING_FIELD warning naming the zone', () => {
      const { label: _label, ...rest } = specZone;
      const result = parseZonesResponse({ zones: [rest] });
      should(result.zones[0]?.label).equal('');
      should(result.warnings).have.length(1);
      should(result.warnings[0]).match({ code: 'MISSING_FIELD', zoneIds: [specZone.id] });
      should(result.warnings[0]?.message).containEql('zones[0]').and.containEql('label');
    });

    it('reads a null label as missing', () => {
      const result = parseZonesResponse({ zones: [{ ...specZone, label: null }] });
      should(result.zones[0]?.label).equal('');
      should(result.warnings.map((warning) => warning.code)).eql(['MISSING_FIELD']);
    });

    it('reads missing types as none, with a warning', () => {
      const { types: _types, ...rest } = specZone;
      const result = parseZonesResponse({ zones: [rest] });
      should(result.zones[0]?.types).eql([]);
      should(result.warnings[0]).match({ code: 'MISSING_FIELD', message: /types/ });
    });

    it('reads a missing id as an empty id, with a warning that names the index', () => {
      const { id: _id, ...rest } = specZone;
      const elsewhere = { ...rest, geometry: { point1: { x: 5000, y: 0 }, point2: { x: 6000, y: 1000 } } };
      const result = parseZonesResponse({ zones: [specZone, elsewhere] });
      should(result.zones[1]?.id).equal('');
      should(result.warnings).have.length(1);
      should(result.warnings[0]?.code).equal('MISSING_FIELD');
      should(result.warnings[0]?.message).containEql('zones[1]').and.containEql('id');
    });
  });

  describe('layout endpoint', () => {
    it('reads zones nested one level down and says where they were', () => {
      for (const member of ['layout', 'room']) {
        const result = parseLayoutResponse({ name: 'Room 1', [member]: { width: 8000, zones: [specZone] } });
        should(result).eql({ zones: [specZone], warnings: [], source: 'layout' });
      }
    });

    it('prefers top-level zones over nested ones', () => {
      const result = parseLayoutResponse({ zones: [], layout: { zones: [specZone] } });
      should(result.zones).eql([]);
    });

    it('names the nested path when nested zones are unreadable', () => {
      const error = badResponse(() =>
        parseLayoutResponse({ layout: { zones: [{ ...specZone, geometry: 3 }] } }),
      );
      should(error.message).containEql('layout.zones[0].geometry');
    });

    it('fails when no zones are anywhere in the layout', () => {
      const error = badResponse(() => parseLayoutResponse({ layout: { devices: [] } }));
      should(error.message).containEql('GET /api/v1/room/layout').and.containEql('no "zones" member');
    });
  });

  describe('unreadable bodies', () => {
    const cases: Array<[string, unknown, string]> = [
      ['an empty body', undefined, 'the body is empty'],
      ['an empty string', '', 'the body is empty'],
      ['a text body', '<html>busy</html>', 'the body is a string ("<html>busy</html>"), not a JSON object'],
      ['null', null, 'the body is null, not a JSON object'],
      ['an array body', [specZone], 'the body is an array, not a JSON object'],
      ['no zones member', { rooms: [] }, 'the body has no "zones" member'],
      ['zones not an array', { zones: { a: specZone } }, 'zones is an object, not an array'],
      ['zones null', { zones: null }, 'zones is null, not an array'],
      ['a zone not an object', { zones: [specZone, 'x'] }, 'zones[1] is a string ("x"), not an object'],
      [
        'a zone without geometry',
        { zones: [{ ...specZone, geometry: undefined }] },
        'zones[0] has no geometry',
      ],
      ['geometry not an object', { zones: [{ ...specZone, geometry: [] }] }, 'zones[0].geometry is an array'],
      [
        'a missing corner',
        { zones: [{ ...specZone, geometry: { point1: { x: 1, y: 2 } } }] },
        'zones[0].geometry.point2 is missing',
      ],
      [
        'a corner not an object',
        { zones: [{ ...specZone, geometry: { point1: 5, point2: { x: 1, y: 2 } } }] },
        'zones[0].geometry.point1 is the number 5, not an object {x, y}',
      ],
      [
        'a missing coordinate',
        { zones: [{ ...specZone, geometry: { point1: { x: 1 }, point2: { x: 1, y: 2 } } }] },
        'zones[0].geometry.point1.y is missing',
      ],
      [
        'a numeric string coordinate',
        { zones: [{ ...specZone, geometry: { point1: { x: '100', y: 2 }, point2: { x: 1, y: 2 } } }] },
        'zones[0].geometry.point1.x is a string ("100"), not a finite number of millimetres',
      ],
      [
        'a null coordinate',
        { zones: [{ ...specZone, geometry: { point1: { x: 0, y: 2 }, point2: { x: null, y: 2 } } }] },
        'zones[0].geometry.point2.x is null, not a finite number',
      ],
      ['types not a list', { zones: [{ ...specZone, types: 7 }] }, 'zones[0].types is the number 7'],
      [
        'a type not a string',
        { zones: [{ ...specZone, types: ['Switching', 2] }] },
        'zones[0].types[1] is the number 2',
      ],
      [
        'an id that is an object',
        { zones: [{ ...specZone, id: { v: 1 } }] },
        'zones[0].id is an object, not a string',
      ],
      ['a label that is a boolean', { zones: [{ ...specZone, label: true }] }, 'zones[0].label is a boolean'],
      [
        'a type that is a number',
        { zones: [{ ...specZone, types: undefined, type: 5 }] },
        'zones[0].type is the number 5',
      ],
      [
        'a type beside types that is not a string',
        { zones: [{ ...specZone, type: [1] }] },
        'zones[0].type[0] is the number 1',
      ],
      [
        'a zoneId that is an object',
        { zones: [{ ...specZone, id: undefined, zoneId: {} }] },
        'zones[0].zoneId is an object',
      ],
      [
        'a ZoneLabel that is an array',
        { zones: [{ ...specZone, label: undefined, ZoneLabel: [] }] },
        'zones[0].ZoneLabel is an array',
      ],
      [
        'a zoneLabel that is a boolean',
        { zones: [{ ...specZone, label: undefined, zoneLabel: false }] },
        'zones[0].zoneLabel is a boolean',
      ],
      ['a null geometry', { zones: [{ ...specZone, geometry: null }] }, 'zones[0] has no geometry'],
      [
        'an infinite coordinate',
        { zones: [{ ...specZone, geometry: { point1: { x: 0, y: 0 }, point2: { x: 1, y: Infinity } } }] },
        'zones[0].geometry.point2.y is the number Infinity, not a finite number',
      ],
    ];
    for (const [name, body, reason] of cases) {
      it(`fails with BAD_RESPONSE on ${name}, saying ${reason}`, () => {
        const error = badResponse(() => parseZonesResponse(body));
        should(error.message).startWith('GET /api/v1/room/zones answered with unreadable zones: ');
        should(error.message).containEql(reason);
      });
    }

    const layoutCases: Array<[string, unknown, string]> = [
      ['an empty body', undefined, 'the body is empty'],
      ['a text body', 'busy', 'the body is a string ("busy"), not a JSON object'],
      ['an array body', [specZone], 'the body is an array, not a JSON object'],
      ['zones not an array', { zones: 'none' }, 'zones is a string ("none"), not an array'],
      ['nested zones not an array', { room: { zones: 4 } }, 'room.zones is the number 4, not an array'],
    ];
    for (const [name, body, reason] of layoutCases) {
      it(`fails with BAD_RESPONSE on a layout with ${name}, naming the layout endpoint`, () => {
        const error = badResponse(() => parseLayoutResponse(body));
        should(error.message).startWith('GET /api/v1/room/layout answered with unreadable zones: ');
        should(error.message).containEql(reason);
      });
    }

    it('rejects a non-finite coordinate that did not come from JSON', () => {
      const geometry = { point1: { x: Number.NaN, y: 0 }, point2: { x: 1, y: 1 } };
      const error = badResponse(() => parseZonesResponse({ zones: [{ ...specZone, geometry }] }));
      should(error.message).containEql('zones[0].geometry.point1.x is the number NaN');
    });
  });
});

describe('zones/parse: zones a flow hands in (parseZoneList)', () => {
  it('reads them in the spec shape, with the same spellings and warnings as the device readers', () => {
    const { zones, warnings } = parseZoneList([{ ...specZone }, { ...specZone, label: 'Copy' }], 'msg.zones');
    should(zones[0]).eql(specZone);
    should(warnings.map((warning) => warning.code)).containEql('DUPLICATE_ID');
  });

  it('refuses unreadable zones as INVALID_INPUT naming the path the caller gave, not the device', () => {
    let caught: unknown;
    try {
      parseZoneList([{ ...specZone, geometry: null }], 'msg.zones');
    } catch (error) {
      caught = error;
    }
    should(caught).be.instanceOf(DeviceError);
    should((caught as DeviceError).code).equal('INVALID_INPUT');
    should((caught as DeviceError).message)
      .startWith('msg.zones[0]')
      .and.not.containEql('GET /api');
  });
});
