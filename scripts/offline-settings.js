'use strict';

/**
 * The Node-RED settings that keep an editor and its runtime on this machine, for `npm start` and every
 * Node-RED the tests and benchmarks start: no palette catalogue from catalogue.nodered.org, no telemetry
 * ping to telemetry.nodered.org (which also carries the update notice), and no welcome tour. The editor
 * itself loads its fonts and scripts from Node-RED, never from a CDN. `diagnostics` stays as it is: it
 * only answers on Node-RED's own port. test/browser/offline.test.ts checks that the editor asks no other
 * host.
 */
const offlineSettings = {
  telemetry: { enabled: false, updateNotification: false },
  editorTheme: { tours: false, palette: { catalogues: [] } },
};

function isPlainObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `settings` over the offline settings, merged key by key (so a caller's `editorTheme` keeps `palette`). */
function withOfflineSettings(settings = {}) {
  const merge = (base, over) => {
    const merged = { ...base };
    for (const [key, value] of Object.entries(over)) {
      merged[key] = isPlainObject(value) && isPlainObject(base[key]) ? merge(base[key], value) : value;
    }
    return merged;
  };
  return merge(offlineSettings, settings);
}

module.exports = { offlineSettings, withOfflineSettings };
