/**
 * An aedes MQTT broker for benchmarks, run in the benchmark's own process (not in the measured Node-RED):
 * it counts what its clients publish and keeps the latest payload of every topic, so a benchmark reads
 * how many messages Node-RED sent and what each room's status says without a subscriber of its own.
 */
import { createServer, type Server } from 'node:net';
import { Aedes } from 'aedes';

export interface CountingBroker {
  readonly port: number;
  /** Messages clients published since the broker started (the broker's own, such as $SYS, not counted). */
  published(): number;
  /** Client connections open now. */
  connectedClients(): number;
  /** The latest payload published on `topic`, as text; undefined when none was. */
  latest(topic: string): string | undefined;
  close(): Promise<void>;
}

export async function startCountingBroker(): Promise<CountingBroker> {
  const broker = await Aedes.createBroker();
  const server: Server = createServer(broker.handle);
  let published = 0;
  const latest = new Map<string, string>();
  broker.on('publish', (packet, client) => {
    if (client === null) return;
    published += 1;
    latest.set(packet.topic, packet.payload.toString());
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port for the broker');
  return {
    port: address.port,
    published: () => published,
    connectedClients: () => broker.connectedClients,
    latest: (topic) => latest.get(topic),
    async close() {
      await new Promise<void>((closed) => broker.close(() => closed()));
      await new Promise<void>((closed) => server.close(() => closed()));
    },
  };
}
