import should from 'should';
import type { DeviceSimulator } from '../../src/simulator';
import { shownStatusText } from '../support/status-text';
import {
  collect,
  deviceConfig,
  helper,
  nodeModules,
  requestNodeDef,
  statusWhere,
  tab,
  useSimulator,
} from './support';

const PASSWORD = 'Vend0r-Word-Pw!';

/** What a node reported through node.warn (the helper spies on it). */
function warnings(id: string): string[] {
  const node = helper.getNode(id) as unknown as { warn: { args: unknown[][] } };
  return node.warn.args.map((args) => String(args[0]));
}

describe("device config node: a device that uses its maker's word", () => {
  let sim: DeviceSimulator;

  useSimulator({ vendor: 'Acme', passwords: { general: PASSWORD } }, (started) => {
    sim = started;
  });

  it('works with the default word, warns once and shows the word to set in the status', async () => {
    await helper.load(
      nodeModules(),
      [
        tab,
        deviceConfig(sim, { vendor: 'Vendor' }),
        requestNodeDef('n-req', 'out'),
        { id: 'out', type: 'helper', z: 'f1' },
      ],
      { device: { password: PASSWORD } },
    );
    const request = helper.getNode('n-req');
    const hinted = statusWhere(request, (status) =>
      /set vendor word Acme/.test(shownStatusText(String(status.text))),
    );
    const outputs = collect(helper.getNode('out'), 2);
    request.receive({});
    request.receive({});
    should((await outputs).map((msg) => msg.statusCode)).eql([200, 200]);
    const status = await hinted;
    should(status.fill).equal('yellow');
    const vendorWarnings = warnings('device').filter((text) => text.includes("vendor word 'Acme'"));
    should(vendorWarnings).have.length(1);
    should(vendorWarnings[0]).match(/Set Vendor word to Acme/);
  });
});
