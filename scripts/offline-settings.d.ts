/** See offline-settings.js: Node-RED settings under which neither the editor nor the runtime asks another host. */
export const offlineSettings: Readonly<Record<string, unknown>>;
export function withOfflineSettings(settings?: Record<string, unknown>): Record<string, unknown>;
