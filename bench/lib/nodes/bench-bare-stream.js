/**
 * A bench-only node type (loaded by the many-rooms benchmark, never shipped): it holds one device's data
 * stream with the bare reader of the baseline (../bare-stream.js: undici and eventsource-parser alone),
 * inside Node-RED, and sends nothing. What it costs beside the same reader in a process of its own is what
 * Node-RED's process costs any node that reads a stream (its heap, its collector, its event loop), before
 * the node does anything with a reading. `url` is the node's; the password is the runtime setting
 * `benchBarePassword`, so that the flow holds none, and how the body is read is `benchBareReading`.
 */
const { openBareStreamInTurn } = require('../bare-stream');

module.exports = (RED) => {
  function BenchBareStream(config) {
    RED.nodes.createNode(this, config);
    let clients = [];
    let closed = false;
    this.status({ fill: 'yellow', shape: 'ring', text: 'opening' });
    openBareStreamInTurn(
      config.url,
      RED.settings.benchBarePassword,
      () => undefined,
      () => {
        if (!closed) this.status({ fill: 'red', shape: 'dot', text: 'stream ended' });
      },
      RED.settings.benchBareReading,
    ).then(
      (opened) => {
        clients = opened;
        if (closed) for (const client of opened) void client.destroy();
        else this.status({ fill: 'green', shape: 'dot', text: 'streaming' });
      },
      (error) => this.error(`bare stream: ${error.message}`),
    );
    this.on('close', (done) => {
      closed = true;
      Promise.all(clients.map((client) => client.destroy())).then(() => done(), done);
    });
  }
  RED.nodes.registerType('bench-bare-stream', BenchBareStream);
};
