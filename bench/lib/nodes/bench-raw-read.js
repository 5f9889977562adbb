/**
 * A bench-only node type (loaded by bench/lib/embedded-node-red.ts, never shipped): on each input it awaits
 * `RED.settings.benchRawRead(msg.device)`, a function the benchmark passes in the runtime settings, puts
 * the result in `msg.payload` and sends the message on. As little as a node can do, so a benchmark can
 * tell what Node-RED itself costs per message from what the package costs.
 */
module.exports = (RED) => {
  function BenchRawRead(config) {
    RED.nodes.createNode(this, config);
    const read = RED.settings.benchRawRead;
    this.on('input', (msg, send, done) => {
      if (typeof read !== 'function') {
        done(new Error('the runtime settings have no benchRawRead function'));
        return;
      }
      read(msg.device).then((result) => {
        msg.payload = result;
        send(msg);
        done();
      }, done);
    });
  }
  RED.nodes.registerType('bench-raw-read', BenchRawRead);
};
