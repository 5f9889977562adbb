import should from 'should';
import { escapeXml, renderZoneMap, type Zone } from '../../src/zones';
import { audience, presenter, zone } from './fixtures';
import { findElements, parseStrictXml, textContent, type XmlElement } from './xml';

const hostileLabel = '<script>alert(1)</script> & "x"';
const escapedHostileLabel = '&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;';

function byClass(root: XmlElement, className: string): XmlElement[] {
  return findElements(root, (element) => (element.attributes.class ?? '').split(' ').includes(className));
}

function only<T>(items: readonly T[], what: string): T {
  should(items).have.length(1, `exactly one ${what}`);
  return items[0] as T;
}

function child(element: XmlElement, name: string): XmlElement {
  return only(
    element.children.filter((candidate) => candidate.name === name),
    `<${name}> in <${element.name}>`,
  );
}

function numberAttribute(element: XmlElement, name: string): number {
  const value = Number(element.attributes[name]);
  should(Number.isFinite(value)).be.true(`${element.name} ${name}="${element.attributes[name]}" is a number`);
  return value;
}

/** The drawn group of the zone with this id, parsed from a fresh rendering of `zones`. */
function zoneGroup(root: XmlElement, id: string): XmlElement {
  return only(
    byClass(root, 'zone').filter((group) => group.attributes['data-zone-id'] === id),
    `group for zone ${id}`,
  );
}

/** The zone's rectangle in SVG units: left, top, right, bottom. */
function drawnRectangle(
  root: XmlElement,
  id: string,
): { left: number; top: number; right: number; bottom: number } {
  const rect = child(zoneGroup(root, id), 'rect');
  const left = numberAttribute(rect, 'x');
  const top = numberAttribute(rect, 'y');
  return {
    left,
    top,
    right: left + numberAttribute(rect, 'width'),
    bottom: top + numberAttribute(rect, 'height'),
  };
}

function labelsDrawn(root: XmlElement): string[] {
  return byClass(root, 'zone').map((group) =>
    textContent(group.children.filter((c) => c.name === 'text')[0] ?? group),
  );
}

describe('zones/map', () => {
  describe('the strict XML reader these tests rely on', () => {
    const malformed: Array<[string, string]> = [
      ['an unclosed element', '<svg><g></svg>'],
      ['crossed tags', '<svg><g><text></g></text></svg>'],
      ['an unquoted attribute', '<svg width=10></svg>'],
      ['a repeated attribute', '<svg x="1" x="2"></svg>'],
      ['attributes without whitespace between them', '<svg x="1"y="2"></svg>'],
      ['"<" in an attribute value', '<svg><g data-x="<b>"/></svg>'],
      ['a bare & in an attribute value', '<svg><g data-x="a & b"/></svg>'],
      ['a bare & in text', '<svg><text>a & b</text></svg>'],
      ['an unknown entity', '<svg><text>&nbsp;</text></svg>'],
      ['a "<" in text', '<svg><text>1 < 2</text></svg>'],
      ['a character XML forbids', '<svg><text>bell \u0007</text></svg>'],
      ['two root elements', '<svg></svg><svg></svg>'],
      ['text outside the root', '<svg></svg>trailing'],
    ];
    for (const [problem, text] of malformed) {
      it(`rejects ${problem}`, () => {
        should(() => parseStrictXml(text)).throw(/not well-formed XML/);
      });
    }

    it('accepts and decodes entities in text and attributes', () => {
      const root = parseStrictXml('<svg a="&quot;&amp;&#60;"><text>&lt;b&gt; &#x26; &apos;</text></svg>');
      should(root.attributes.a).equal('"&<');
      should(textContent(root)).equal("<b> & '");
    });
  });

  describe('document', () => {
    it('is a well-formed standalone SVG document with a viewBox matching its size', () => {
      const svg = renderZoneMap([presenter, audience], { width: 800, height: 600 });
      const root = parseStrictXml(svg);
      should(root.name).equal('svg');
      should(root.attributes).match({
        xmlns: 'http://www.w3.org/2000/svg',
        width: '800',
        height: '600',
        viewBox: '0 0 800 600',
      });
    });

    it('uses the default size when the size options are not finite numbers', () => {
      const root = parseStrictXml(renderZoneMap([presenter], { width: Number.NaN, height: Infinity }));
      should(root.attributes).match({ width: '640', height: '480', viewBox: '0 0 640 480' });
    });

    it('is the same string for the same input, and for a copy of it', () => {
      const options = { title: 'Room 1', highlightIds: [presenter.id], point: { x: 120, y: 2400 } };
      const first = renderZoneMap([presenter, audience], options);
      should(renderZoneMap([presenter, audience], options)).equal(first);
      should(renderZoneMap(structuredClone([presenter, audience]), structuredClone(options))).equal(first);
    });

    it('draws the same picture whichever corner order the device used', () => {
      const swapped = zone(presenter.id, [2000, 3000, -2000, 1000], { label: presenter.label });
      const otherDiagonal = zone(presenter.id, [-2000, 3000, 2000, 1000], { label: presenter.label });
      const expected = renderZoneMap([presenter, audience]);
      should(renderZoneMap([swapped, audience])).equal(expected);
      should(renderZoneMap([otherDiagonal, audience])).equal(expected);
    });

    it('carries no script, style or element id that could affect the page embedding it', () => {
      const root = parseStrictXml(
        renderZoneMap([zone('script', [0, 0, 1000, 1000], { label: hostileLabel })]),
      );
      should(
        findElements(root, (element) => ['script', 'style', 'foreignObject'].includes(element.name)),
      ).eql([]);
      should(findElements(root, (element) => 'id' in element.attributes)).eql([]);
      should(
        findElements(root, (element) => Object.keys(element.attributes).some((name) => /^on/i.test(name))),
      ).eql([]);
    });
  });

  describe('labels', () => {
    it('draws every zone label as text', () => {
      const zones = [presenter, audience, zone('c', [3000, 0, 5000, 2000], { label: 'Window seats' })];
      const root = parseStrictXml(renderZoneMap(zones));
      should(labelsDrawn(root)).eql(['Presenter', 'Audience', 'Window seats']);
    });

    it('shows a hostile label only escaped, and the viewer reads it back unchanged', () => {
      const svg = renderZoneMap([zone('a', [0, 0, 2000, 2000], { label: hostileLabel })]);
      should(svg).not.containEql('<script');
      should(svg).not.containEql(hostileLabel);
      should(svg).not.match(/&(?!(?:amp|lt|gt|quot|apos);)/);
      should(svg).containEql(escapedHostileLabel);
      const root = parseStrictXml(svg);
      should(labelsDrawn(root)).eql([hostileLabel]);
      should(findElements(root, (element) => element.name === 'script')).eql([]);
    });

    it('escapes hostile ids, types and titles too', () => {
      const hostileId = `a" onload="alert(1)`;
      const sneaky = zone(hostileId, [0, 0, 1000, 1000], { types: ['</title><script>'], label: '' });
      const svg = renderZoneMap([sneaky], { title: hostileLabel, highlightIds: [hostileId] });
      should(svg).not.containEql('<script');
      should(svg).not.containEql('onload="');
      const root = parseStrictXml(svg);
      should(zoneGroup(root, hostileId).attributes.class).equal('zone highlighted');
      should(textContent(child(root, 'title'))).equal(hostileLabel);
      should(textContent(child(zoneGroup(root, hostileId), 'title'))).containEql('</title><script>');
    });

    it('replaces characters XML forbids instead of breaking the document', () => {
      const root = parseStrictXml(
        renderZoneMap([zone('a', [0, 0, 1000, 1000], { label: 'bell\u0007 and \uD800' })]),
      );
      should(labelsDrawn(root)).eql(['bell\uFFFD and \uFFFD']);
    });

    it('names a zone without a label by its id', () => {
      const root = parseStrictXml(renderZoneMap([zone('only-id', [0, 0, 1000, 1000], { label: '' })]));
      should(labelsDrawn(root)).eql(['only-id']);
    });

    it('keeps the labels of zones on the edge of the room inside the picture', () => {
      const zones = [
        zone('west', [-8382, 0, -6000, 10660], { label: 'West wall' }),
        zone('east', [6000, 0, 8382, 10660], { label: 'East wall' }),
        zone('north', [-6000, 9000, 6000, 10660], { label: 'North wall' }),
      ];
      const root = parseStrictXml(renderZoneMap(zones, { width: 640, height: 480 }));
      for (const text of findElements(root, (element) => element.name === 'text')) {
        should(numberAttribute(text, 'x')).be.within(0, 640);
        should(numberAttribute(text, 'y')).be.within(0, 480);
      }
    });
  });

  describe('orientation', () => {
    it('draws north up: a zone further north has a smaller SVG y', () => {
      const south = zone('south', [-1000, 0, 1000, 1000]);
      const north = zone('north', [-1000, 5000, 1000, 6000]);
      const root = parseStrictXml(renderZoneMap([south, north]));
      const southRect = drawnRectangle(root, 'south');
      const northRect = drawnRectangle(root, 'north');
      should(northRect.bottom).be.below(southRect.top);
    });

    it('draws east right: a zone further east has a larger SVG x', () => {
      const west = zone('west', [-3000, 0, -2000, 1000]);
      const east = zone('east', [2000, 0, 3000, 1000]);
      const root = parseStrictXml(renderZoneMap([west, east]));
      should(drawnRectangle(root, 'east').left).be.above(drawnRectangle(root, 'west').right);
    });

    it('keeps proportions: a 4 m by 2 m zone is drawn twice as wide as high', () => {
      const root = parseStrictXml(renderZoneMap([presenter]));
      const { left, top, right, bottom } = drawnRectangle(root, presenter.id);
      should(right - left).be.approximately(2 * (bottom - top), 0.05);
    });

    it('names the axes x east and y north, with the north arrow pointing up', () => {
      const root = parseStrictXml(renderZoneMap([presenter]));
      const axes = only(byClass(root, 'axes'), 'axes group');
      const texts = axes.children.filter((element) => element.name === 'text').map(textContent);
      should(texts).containEql('x east').and.containEql('y north');
      const [, yAxis] = axes.children.filter((element) => element.name === 'line');
      if (yAxis === undefined) throw new Error('no y axis line');
      should(numberAttribute(yAxis, 'x1')).equal(numberAttribute(yAxis, 'x2'));
      should(numberAttribute(yAxis, 'y2')).be.below(numberAttribute(yAxis, 'y1'));
    });
  });

  describe('origin and scale', () => {
    it('marks the origin where the zones put it: at the south-west corner of a zone starting at (0, 0)', () => {
      const root = parseStrictXml(renderZoneMap([zone('corner', [0, 0, 2000, 1000]), audience]));
      const marker = child(only(byClass(root, 'origin'), 'origin group'), 'circle');
      const { left, bottom } = drawnRectangle(root, 'corner');
      should(numberAttribute(marker, 'cx')).be.approximately(left, 0.02);
      should(numberAttribute(marker, 'cy')).be.approximately(bottom, 0.02);
    });

    it('marks the origin even when every zone is far from it', () => {
      const root = parseStrictXml(renderZoneMap([zone('far', [5000, 5000, 6000, 6000])]));
      const marker = child(only(byClass(root, 'origin'), 'origin group'), 'circle');
      const { left, bottom } = drawnRectangle(root, 'far');
      should(numberAttribute(marker, 'cx')).be.below(left);
      should(numberAttribute(marker, 'cy')).be.above(bottom);
      should(numberAttribute(marker, 'cx')).be.within(0, 640);
      should(numberAttribute(marker, 'cy')).be.within(0, 480);
    });

    it('shows a scale bar in metres, as long as that many metres of a zone', () => {
      const root = parseStrictXml(renderZoneMap([presenter, audience]));
      const scale = only(byClass(root, 'scale'), 'scale group');
      const caption = textContent(scale)
        .trim()
        .match(/^(\d+(?:\.\d+)?) m\b/);
      if (caption === null) throw new Error(`no length in metres in "${textContent(scale).trim()}"`);
      const bar = child(scale, 'path').attributes.d?.match(/^M([\d.]+) [\d.]+V[\d.]+H([\d.]+)/);
      if (bar == null) throw new Error('no horizontal scale bar');
      const pixelsPerMetre = (Number(bar[2]) - Number(bar[1])) / Number(caption[1]);
      const { left, right } = drawnRectangle(root, presenter.id);
      should((right - left) / pixelsPerMetre).be.approximately(4, 0.01);
    });
  });

  describe('zones drawn', () => {
    it('gives each of eight zones its own semi-transparent colour', () => {
      const eight: Zone[] = Array.from({ length: 8 }, (_, index) =>
        zone(`z${index}`, [index * 1000, 0, index * 1000 + 900, 900]),
      );
      const root = parseStrictXml(renderZoneMap(eight));
      const rects = eight.map((item) => child(zoneGroup(root, item.id), 'rect'));
      should(new Set(rects.map((rect) => rect.attributes.fill)).size).equal(8);
      for (const rect of rects) should(numberAttribute(rect, 'fill-opacity')).be.within(0.05, 0.95);
    });

    it('emphasises the highlighted zones only', () => {
      const root = parseStrictXml(renderZoneMap([presenter, audience], { highlightIds: [audience.id] }));
      should(zoneGroup(root, audience.id).attributes.class).equal('zone highlighted');
      should(zoneGroup(root, presenter.id).attributes.class).equal('zone');
    });

    it('marks the given point with its coordinates', () => {
      const root = parseStrictXml(renderZoneMap([presenter], { point: { x: 250, y: 1800 } }));
      should(textContent(only(byClass(root, 'point'), 'point group'))).containEql('250, 1800 mm');
    });

    it('leaves out a zone whose corners are not finite numbers instead of writing NaN', () => {
      const broken = zone('broken', [Number.NaN, 0, 1000, 1000]);
      const svg = renderZoneMap([broken, presenter]);
      should(svg).not.match(/NaN|Infinity/);
      should(byClass(parseStrictXml(svg), 'zone').map((group) => group.attributes['data-zone-id'])).eql([
        presenter.id,
      ]);
    });
  });

  describe('empty room', () => {
    it('draws a well-formed empty room with axes, origin and a note, and no zone', () => {
      const svg = renderZoneMap([]);
      const root = parseStrictXml(svg);
      should(byClass(root, 'zone')).eql([]);
      should(byClass(root, 'axes')).have.length(1);
      should(byClass(root, 'origin')).have.length(1);
      should(byClass(root, 'scale')).have.length(1);
      const visibleTexts = findElements(root, (element) => element.name === 'text').map(textContent);
      should(visibleTexts).containEql('No zones configured');
    });

    it('writes the empty-room note beside the y axis, not across it, and inside the drawing', () => {
      const root = parseStrictXml(renderZoneMap([]));
      const note = only(
        findElements(
          root,
          (element) => element.name === 'text' && textContent(element) === 'No zones configured',
        ),
        'empty-room note',
      );
      const yAxis = findElements(
        byClass(root, 'axes')[0] as XmlElement,
        (element) => element.name === 'line',
      ).find((line) => line.attributes.x1 === line.attributes.x2);
      if (yAxis === undefined) throw new Error('no vertical axis line');
      const axisX = numberAttribute(yAxis, 'x1');
      const x = numberAttribute(note, 'x');
      // Generous for sans-serif: 0.6 em a character.
      const width = 'No zones configured'.length * 14 * 0.6;
      const [from, to] = note.attributes['text-anchor'] === 'end' ? [x - width, x] : [x, x + width];
      should(from > axisX || to < axisX).be.true(
        `the note (x ${from}..${to}) crosses the y axis at x ${axisX}`,
      );
      should(from).be.above(0);
      should(to).be.below(numberAttribute(root, 'width'));
    });

    it('does not draw the empty-room note when there are zones', () => {
      const root = parseStrictXml(renderZoneMap([presenter]));
      should(findElements(root, (element) => element.name === 'text').map(textContent)).not.containEql(
        'No zones configured',
      );
    });
  });

  describe('escapeXml', () => {
    it('escapes the five XML special characters', () => {
      should(escapeXml(`<a href='x'>"&"</a>`)).equal(
        '&lt;a href=&apos;x&apos;&gt;&quot;&amp;&quot;&lt;/a&gt;',
      );
    });

    it('keeps tabs, newlines and characters beyond the basic plane', () => {
      should(escapeXml('a\tb\nc 🎤')).equal('a\tb\nc 🎤');
    });
  });
});
