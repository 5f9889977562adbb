/**
 * The map of the live room view (example 7's ui-template) sizes itself from the zones: its viewBox must
 * stay a finite box whatever the device sends, or the browser draws nothing. The template's own script,
 * as the example ships it, is evaluated here without a browser.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import should from 'should';

interface Bounds {
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
}
interface TemplateComponent {
  computed: {
    extent(this: { zones: Array<{ bounds?: Partial<Bounds> }> }): Bounds;
    viewBox(this: { extent: Bounds }): string;
  };
}

function roomViewComponent(): TemplateComponent {
  const file = join(__dirname, '..', '..', 'examples', '07 Live room view.json');
  const nodes = JSON.parse(readFileSync(file, 'utf8')) as Array<{ type: string; format?: string }>;
  const format = nodes.find((node) => node.type === 'ui-template')?.format ?? '';
  const script = /<script>([\s\S]*?)<\/script>/.exec(format)?.[1];
  if (script === undefined) throw new Error('example 7 has no template script');
  const sandbox: { module: { exports?: TemplateComponent } } = { module: {} };
  runInNewContext(script.replace('export default', 'module.exports ='), sandbox);
  if (sandbox.module.exports === undefined) throw new Error('the template script exports nothing');
  return sandbox.module.exports;
}

function viewBoxFor(zones: Array<{ bounds?: Partial<Bounds> }>): number[] {
  const { computed } = roomViewComponent();
  const extent = computed.extent.call({ zones });
  return computed.viewBox.call({ extent }).split(' ').map(Number);
}

const zone = (minX: number, maxX: number, minY: number, maxY: number) => ({
  bounds: { minX, maxX, minY, maxY },
});

describe('the room map of the live room view example', () => {
  it('frames ordinary zones with the device in a finite box', () => {
    const [x, y, width, height] = viewBoxFor([zone(-2000, 2000, 600, 3000)]);
    should(x).be.below(-2000);
    should(y).be.below(-3000);
    should(x + width).be.above(2000);
    should(y + height).be.above(0);
  });

  it('keeps a finite box for two zones further apart than the largest number', () => {
    const box = viewBoxFor([
      zone(-Number.MAX_VALUE, -Number.MAX_VALUE / 2, 0, 1000),
      zone(Number.MAX_VALUE / 2, Number.MAX_VALUE, 0, 1000),
    ]);
    should(box.every(Number.isFinite)).be.true(`viewBox ${box.join(' ')}`);
    should(box[2]).be.above(0);
    should(box[3]).be.above(0);
  });

  it('keeps a finite box when a zone has no usable bounds', () => {
    const box = viewBoxFor([{}, { bounds: { minX: Number.NaN, maxX: 100, minY: 0, maxY: Infinity } }]);
    should(box.every(Number.isFinite)).be.true(`viewBox ${box.join(' ')}`);
  });
});
