/**
 * A bench-only node type (loaded by bench/lib/embedded-node-red.ts, never shipped): when it starts it
 * hands its sender to `RED.settings.benchRawEvents`, a function the benchmark passes in the runtime
 * settings, which reads a device's events on a stream of its own (undici and eventsource-parser) and
 * calls it with each event's name and parsed data; the node sends them on as `msg.event` and
 * `msg.payload`. As little as a node can do with an event, so a benchmark can tell what Node-RED itself
 * costs per event from what the package costs.
 */
module.exports = (RED) => {
  function BenchRawEvents(config) {
    RED.nodes.createNode(this, config);
    const start = RED.settings.benchRawEvents;
    if (typeof start !== 'function') {
      this.error('the runtime settings have no benchRawEvents function');
      return;
    }
    start((event, payload) => this.send({ event, payload }));
  }
  RED.nodes.registerType('bench-raw-events', BenchRawEvents);
};
