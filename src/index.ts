/**
 * Plain Node.js entry point (no Node-RED needed): the device client, the zone
 * functions and the device simulator. Node-RED loads the nodes from
 * `dist/nodes/` through package.json's `node-red` section instead.
 */
export * from './api';
export * from './simulator';
export * from './zones';
