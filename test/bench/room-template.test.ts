import should from 'should';
import type { FlowNode } from '../../bench/lib/node-red-child';
import { SHARED_BROKER_ID, templateRooms, withSharedBroker } from '../../bench/lib/room-template-flows';
import { connectionShare, type TemplateSample, templateReport } from '../../bench/lib/room-template-report';

const simulators = [
  { url: 'https://127.0.0.1:9001', fingerprint256: 'AA' },
  { url: 'https://127.0.0.1:9002', fingerprint256: 'BB' },
];

const sample = (overrides: Partial<TemplateSample>): TemplateSample => ({
  variant: 'room broker',
  rooms: 0,
  cpu: 0,
  heapUsed: 40 * 1024 * 1024,
  mqttPerSecond: 0,
  mqttConnections: 0,
  requestsPerSecond: {},
  connectionsPerSecond: 0,
  streaming: 0,
  statusWords: {},
  ...overrides,
});

const MIB = 1024 * 1024;

describe('room-template bench helpers', () => {
  describe('templateRooms', () => {
    it('makes one subflow instance per simulator, named by the prefix, on its port', () => {
      const flows = templateRooms(simulators, 'r2', 'pw', 1883);
      const instances = flows.filter((node) => node.type.startsWith('subflow:'));
      should(instances.map((node) => node.name)).eql(['r2-0', 'r2-1']);
      const portOf = (node: FlowNode) =>
        (node.env as { name: string; value?: string }[]).find((each) => each.name === 'PORT')?.value;
      should(instances.map(portOf)).eql(['9001', '9002']);
    });

    it('deploys nothing for no simulators', () => {
      should(templateRooms([], 'r0', 'pw', 1883)).eql([]);
    });
  });

  describe('withSharedBroker', () => {
    const rooms = templateRooms(simulators, 'r2', 'pw', 1883);
    const shared = withSharedBroker(rooms, 1883);
    const brokers = (flows: readonly FlowNode[]) => flows.filter((node) => node.type === 'mqtt-broker');

    it('leaves one broker config node, at top level, without a last will or close message', () => {
      should(brokers(rooms)).have.length(1);
      should(brokers(rooms)[0]?.z).be.a.String();
      const [only] = brokers(shared);
      should(brokers(shared)).have.length(1);
      should(only).containEql({ id: SHARED_BROKER_ID, willTopic: '', closeTopic: '', port: '1883' });
      should(only?.z).be.undefined();
    });

    it('points every mqtt node at the shared broker config node', () => {
      const mqttNodes = shared.filter((node) => node.type.startsWith('mqtt ') && 'broker' in node);
      should(mqttNodes.length).be.above(0);
      for (const node of mqttNodes) should(node.broker).equal(SHARED_BROKER_ID);
    });
  });

  describe('templateReport', () => {
    const base = sample({});
    const own = sample({ rooms: 100, cpu: 0.2, heapUsed: 40 * MIB + 100 * 400 * 1024 });
    const sharedOne = sample({
      variant: 'shared broker',
      rooms: 100,
      cpu: 0.15,
      heapUsed: 40 * MIB + 100 * 300 * 1024,
    });

    it('reports heap and CPU per room against the sample of no rooms', () => {
      const report = templateReport([base, own]);
      should(report).match(/room broker\s+100\s+20\.0%\s+0\.200%\s+79\.1 MiB\s+400 KiB/);
    });

    it("reports a room's MQTT connection as the room-broker sample minus the shared one, per room", () => {
      const share = connectionShare([base, own, sharedOne]);
      should(share?.rooms).equal(100);
      should(share?.heapUsed).be.approximately(100 * 1024, 1e-6);
      should(share?.cpu).be.approximately(0.0005, 1e-9);
      should(templateReport([base, own, sharedOne])).match(/heap 100 KiB of 400 KiB, CPU 0\.050% of 0\.200%/);
    });

    it('lists the device requests a second by path, most first', () => {
      const busy = sample({
        rooms: 2,
        requestsPerSecond: { '/api/v1/room/layout': 0.1, '/api/v1/audio': 1 },
      });
      should(templateReport([base, busy])).match(/: \/api\/v1\/audio 1\.0, \/api\/v1\/room\/layout 0\.1/);
    });

    it('counts muted rooms as working and lists the words when a room is neither online nor muted', () => {
      const some = sample({ rooms: 3, statusWords: { online: 1, muted: 1, connecting: 1 } });
      const report = templateReport([base, some]);
      should(report).match(/\s2\/3\n/);
      should(report).match(/status words .*3 rooms \(room broker\): online 1, muted 1, connecting 1/);
    });

    it('lists no status words when every room is online or muted', () => {
      const all = sample({ rooms: 2, statusWords: { online: 1, muted: 1 } });
      should(templateReport([base, all])).not.match(/status words/);
    });

    it('refuses a run without the sample of no rooms', () => {
      should(() => templateReport([own])).throw(/baseline/);
    });
  });
});
