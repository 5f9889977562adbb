/**
 * Answers an unattended flow meets from a broken device or a proxy in between: bodies that cannot be read
 * fail the input with a clear error, zones that break the spec's rules arrive with warnings, and the same
 * deployed flow serves the next input normally. The password stays out of everything (the harness checks).
 */
import should from 'should';
import { type SimulatorFault, sampleZones } from '../../src/simulator';
import { DeviceFlow, lookupNode, requestNode, ZONES_PATH, zonesNode } from './device-flows';
import { useReliabilityHarness } from './harness';

const PROXY_PAGE =
  '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>nginx</h1></body></html>';

function zone(id: string, x: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    types: ['Switching'],
    geometry: { point1: { x, y: 0 }, point2: { x: x + 1000, y: 1000 } },
    label: `Zone ${id}`,
    id,
    ...extra,
  };
}

interface UnreadableCase {
  name: string;
  fault?: SimulatorFault;
  zones?: unknown[];
  code: string;
  message: RegExp;
}

const UNREADABLE: UnreadableCase[] = [
  {
    name: 'malformed JSON',
    fault: { kind: 'malformed-json', path: ZONES_PATH },
    code: 'BAD_RESPONSE',
    message: /GET \/api\/v1\/room\/zones with JSON that cannot be read/,
  },
  {
    name: 'an HTML page from a proxy with status 200',
    fault: { kind: 'status', status: 200, body: PROXY_PAGE, contentType: 'text/html', path: ZONES_PATH },
    code: 'BAD_RESPONSE',
    message: /the body is a string \("<!DOCTYPE html>.*not a JSON object/,
  },
  {
    name: 'an HTML error page from a proxy with status 502',
    fault: { kind: 'status', status: 502, body: PROXY_PAGE, contentType: 'text/html', path: ZONES_PATH },
    code: 'HTTP_ERROR',
    message: /HTTP 502; device said: 502 Bad Gateway/,
  },
  {
    name: 'an HTML page from a proxy in front of the login',
    fault: { kind: 'status', status: 200, body: PROXY_PAGE, contentType: 'text/html' },
    code: 'BAD_RESPONSE',
    message: /The login answer is not JSON/,
  },
  {
    name: 'an empty body',
    fault: { kind: 'status', status: 200, body: '', path: ZONES_PATH },
    code: 'BAD_RESPONSE',
    message: /the body is empty/,
  },
  {
    name: 'a body far larger than any zone list (20 MB)',
    fault: { kind: 'huge-body', path: ZONES_PATH },
    code: 'BAD_RESPONSE',
    message: /larger than 1 MiB/,
  },
  {
    name: 'zones that are not an array',
    fault: { kind: 'wrong-shape', body: { zones: { id: 'z1' } }, path: ZONES_PATH },
    code: 'BAD_RESPONSE',
    message: /zones is an object, not an array/,
  },
  {
    name: 'a zone without geometry',
    zones: [zone('z1', 0), { types: ['Switching'], label: 'Stage', id: 'z2' }],
    code: 'BAD_RESPONSE',
    message: /zones\[1\] has no geometry/,
  },
  {
    name: 'coordinates given as strings',
    zones: [zone('z1', 0, { geometry: { point1: { x: '0', y: 0 }, point2: { x: 1000, y: 1000 } } })],
    code: 'BAD_RESPONSE',
    message: /zones\[0\]\.geometry\.point1\.x is a string \("0"\), not a finite number of millimetres/,
  },
];

interface RuleCase {
  name: string;
  zones: unknown[];
  warning: string;
}

const RULE_BREAKS: RuleCase[] = [
  {
    name: '9 zones',
    zones: Array.from({ length: 9 }, (_, i) => zone(`z${i}`, i * 2000)),
    warning: 'TOO_MANY_ZONES',
  },
  {
    name: 'a type listed twice',
    zones: [zone('z1', 0, { types: ['Switching', 'Switching'] })],
    warning: 'DUPLICATE_TYPE',
  },
  {
    name: 'overlapping zones of one type',
    zones: [zone('z1', 0), zone('z2', 500)],
    warning: 'OVERLAPPING_ZONES',
  },
  { name: 'repeated ids', zones: [zone('z1', 0), zone('z1', 2000)], warning: 'DUPLICATE_ID' },
];

describe('reliability: bodies a device or a proxy may send', () => {
  const rig = useReliabilityHarness();

  describe('room zones node', () => {
    for (const body of UNREADABLE) {
      it(`fails an input with ${body.code} for ${body.name}, then serves the next one`, async () => {
        const flow = await DeviceFlow.deploy(rig, zonesNode());
        if (body.fault) rig.simulator.setFault({ ...body.fault, times: 1 } as SimulatorFault);
        if (body.zones) rig.simulator.setZones(body.zones);
        should(await flow.fails(body.code)).match(body.message);
        rig.simulator.setZones(sampleZones());
        should((await flow.serves()).payload).have.length(3);
      });
    }

    for (const rule of RULE_BREAKS) {
      it(`sends the zones of ${rule.name} with a ${rule.warning} warning, then the next read without`, async () => {
        const flow = await DeviceFlow.deploy(rig, zonesNode());
        rig.simulator.setZones(rule.zones);
        const msg = await flow.serves();
        should(msg.payload).have.length(rule.zones.length);
        should((msg.warnings as Array<{ code: string }>).map((warning) => warning.code)).containEql(
          rule.warning,
        );
        rig.simulator.setZones(sampleZones());
        should(await flow.serves()).not.have.property('warnings');
      });
    }
  });

  describe('device request node', () => {
    it('hands an HTML page answered with 200 on as text, and serves JSON next', async () => {
      const flow = await DeviceFlow.deploy(rig, requestNode());
      rig.simulator.setFault({
        kind: 'status',
        status: 200,
        body: PROXY_PAGE,
        contentType: 'text/html',
        path: '/api/v1/audio',
        times: 1,
      });
      should((await flow.serves()).payload).equal(PROXY_PAGE);
      should((await flow.serves()).payload).be.an.Object();
    });

    it('fails an input with BAD_RESPONSE for a body far larger than 1 MiB, then serves the next one', async () => {
      const flow = await DeviceFlow.deploy(rig, requestNode());
      rig.simulator.setFault({ kind: 'huge-body', path: '/api/v1/audio', times: 1 });
      should(await flow.fails('BAD_RESPONSE')).match(/GET \/api\/v1\/audio is larger than 1 MiB/);
      should((await flow.serves()).statusCode).equal(200);
    });
  });

  describe('zone lookup node', () => {
    it('fails a point with BAD_RESPONSE while the zones are unreadable, then finds its zone', async () => {
      const flow = await DeviceFlow.deploy(rig, lookupNode());
      rig.simulator.setFault({ kind: 'malformed-json', path: ZONES_PATH, times: 1 });
      await flow.fails('BAD_RESPONSE', { payload: { x: 0, y: 1000 } });
      const msg = await flow.serves({ payload: { x: 0, y: 1000 } });
      should((msg.zone as { label: string }).label).equal('Presenter');
    });
  });
});
