/**
 * A certificate the configuration does not trust is refused before anything is sent, with the TLS code
 * and the "certificate rejected" status; once the configuration is fixed and redeployed, reads work.
 */
import should from 'should';
import { createCertificate } from '../../src/simulator/certificate';
import { helper } from '../nodes/support';
import { DeviceFlow, zonesNode } from './device-flows';
import { useReliabilityHarness } from './harness';

describe('reliability: TLS through the nodes', () => {
  const rig = useReliabilityHarness();

  it('refuses a certificate that does not match the pin, and reads after a redeploy with the right pin', async () => {
    const wrongPin = 'AB'.repeat(32);
    const flow = await DeviceFlow.deploy(rig, zonesNode(), { device: { tls: 'pin', fingerprint: wrongPin } });
    should(await flow.fails('TLS')).match(/fingerprint/i);
    should(flow.statusTexts()).containEql('certificate rejected');
    should(rig.simulator.requests).have.length(0);

    await helper.unload();
    const fixed = await DeviceFlow.deploy(rig, zonesNode(), {
      device: { tls: 'pin', fingerprint: rig.simulator.fingerprint256 },
    });
    should((await fixed.serves()).payload).have.length(3);
  });

  it('refuses a device another CA vouches for in CA mode, and reads after a redeploy with its CA', async () => {
    const otherCa = await createCertificate('127.0.0.1');
    const flow = await DeviceFlow.deploy(rig, zonesNode(), { device: { tls: 'ca', ca: otherCa.cert } });
    should(await flow.fails('TLS')).match(/TLS failed/);
    should(flow.statusTexts()).containEql('certificate rejected');
    should(rig.simulator.requests).have.length(0);

    await helper.unload();
    const fixed = await DeviceFlow.deploy(rig, zonesNode(), {
      device: { tls: 'ca', ca: rig.simulator.certificatePem },
    });
    should((await fixed.serves()).payload).have.length(3);
  });
});
