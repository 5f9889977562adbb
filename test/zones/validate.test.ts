import should from 'should';
import { parseZonesResponse, validateZones } from '../../src/zones';
import { audience, presenter, zone } from './fixtures';

describe('zones/validate', () => {
  it('accepts a valid room without warnings', () => {
    should(validateZones([presenter, audience])).eql([]);
  });

  it('accepts an empty room without warnings', () => {
    should(validateZones([])).eql([]);
  });

  it('keeps unknown types without a warning, since more types are planned', () => {
    const result = parseZonesResponse({ zones: [zone('a', [0, 0, 1, 1], { types: ['Spotlight'] })] });
    should(result.zones[0]?.types).eql(['Spotlight']);
    should(result.warnings).eql([]);
  });

  it('warns TOO_MANY_ZONES above eight zones, listing them', () => {
    const nine = Array.from({ length: 9 }, (_, index) =>
      zone(`z${index}`, [index * 1000, 0, index * 1000 + 900, 900]),
    );
    should(validateZones(nine.slice(0, 8))).eql([]);
    const warnings = validateZones(nine);
    should(warnings).have.length(1);
    should(warnings[0]).match({ code: 'TOO_MANY_ZONES', message: /9 zones.*at most 8/ });
    should(warnings[0]?.zoneIds).eql(nine.map((item) => item.id));
  });

  it('warns DUPLICATE_TYPE once per repeated type in a zone', () => {
    const warnings = validateZones([
      zone('a', [0, 0, 1, 1], { types: ['Switching', 'Switching', 'Switching'] }),
    ]);
    should(warnings).have.length(1);
    should(warnings[0]).match({
      code: 'DUPLICATE_TYPE',
      zoneIds: ['a'],
      message: /"Switching" more than once/,
    });
  });

  it('warns DUPLICATE_ID for zones sharing an id', () => {
    const warnings = validateZones([
      zone('same', [0, 0, 1000, 1000]),
      zone('other', [2000, 0, 3000, 1000]),
      zone('same', [4000, 0, 5000, 1000]),
    ]);
    should(warnings).have.length(1);
    should(warnings[0]).match({
      code: 'DUPLICATE_ID',
      zoneIds: ['same'],
      message: /2 zones share the id same \(at indexes 0, 2\)/,
    });
  });

  it('warns OVERLAPPING_ZONES for two zones of one type that share floor area', () => {
    const first = zone('a', [0, 0, 2000, 2000], { label: 'Front' });
    const second = zone('b', [1999, 1999, 4000, 4000], { label: 'Back' });
    const warnings = validateZones([first, second]);
    should(warnings).have.length(1);
    should(warnings[0]).match({ code: 'OVERLAPPING_ZONES', zoneIds: ['a', 'b'] });
    should(warnings[0]?.message).containEql('"Front"').and.containEql('"Back"').and.containEql('"Switching"');
  });

  it('finds an overlap whatever the corner order of either zone', () => {
    const first = zone('a', [2000, 2000, 0, 0]);
    const second = zone('b', [4000, 1000, 1000, 3000]);
    should(validateZones([first, second]).map((warning) => warning.code)).eql(['OVERLAPPING_ZONES']);
  });

  it('does not count zones that only share an edge or a corner as overlapping', () => {
    const left = zone('left', [-2000, 0, 0, 2000]);
    const right = zone('right', [0, 0, 2000, 2000]);
    const diagonal = zone('diagonal', [2000, 2000, 3000, 3000]);
    should(validateZones([left, right, diagonal])).eql([]);
  });

  it('does not warn about overlapping zones of different types', () => {
    const camera = zone('a', [0, 0, 2000, 2000], { types: ['Switching'] });
    const other = zone('b', [500, 500, 1500, 1500], { types: ['Muting'] });
    should(validateZones([camera, other])).eql([]);
  });

  it('reports each overlapping pair', () => {
    const warnings = validateZones([
      zone('a', [0, 0, 3000, 3000]),
      zone('b', [1000, 1000, 2000, 2000]),
      zone('c', [2500, 2500, 5000, 5000]),
    ]);
    should(warnings.map((warning) => warning.zoneIds)).eql([
      ['a', 'b'],
      ['a', 'c'],
    ]);
  });

  it('names a zone without an id by its index and leaves the empty id out of zoneIds', () => {
    const warnings = validateZones([
      zone('a', [0, 0, 2000, 2000]),
      zone('', [1000, 1000, 3000, 3000], { label: '' }),
    ]);
    should(warnings[0]?.zoneIds).eql(['a']);
    should(warnings[0]?.message).containEql('zones[1]');
  });

  it('passes validation warnings through the parser', () => {
    const result = parseZonesResponse({ zones: [presenter, { ...presenter }] });
    should(result.warnings.map((warning) => warning.code)).eql(['DUPLICATE_ID', 'OVERLAPPING_ZONES']);
  });
});
