/**
 * Statuses travel as catalogue keys, so the editor shows them in its own language: the keys the nodes
 * send, and what the English and the German editor make of them (plural forms included).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import should from 'should';
import type { ConnectionState } from '../../src/api/types';
import {
  connectionStatus,
  invalidConfigStatus,
  PACKAGE_NAME,
  statusText,
} from '../../src/nodes/plain/status';
import { paletteTypes } from '../support/node-types';
import { shownStatusText } from '../support/status-text';

const zonesRead = (count: number) =>
  statusText('conference-audio-zones', 'status.read', { count, time: '14:02:07' });

describe('status texts', () => {
  it("names the key in the package's node-set namespace, as the editor looks it up", () => {
    const { name } = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
      name: string;
    };
    should(PACKAGE_NAME).equal(name);
    should(statusText('conference-audio-device', 'status.connected')).equal(
      `${name}/conference-audio-device:conference-audio-device.status.connected`,
    );
  });

  it('carries parameters as JSON after the key', () => {
    should(zonesRead(3)).equal(
      `${PACKAGE_NAME}/conference-audio-zones:conference-audio-zones.status.read {"count":3,"time":"14:02:07"}`,
    );
  });

  it('reads "1 zone" and "3 zones" in English', () => {
    should(shownStatusText(zonesRead(1))).equal('1 zone · 14:02:07');
    should(shownStatusText(zonesRead(3))).equal('3 zones · 14:02:07');
    should(shownStatusText(zonesRead(0))).equal('0 zones · 14:02:07');
  });

  it('reads "1 Zone" and "3 Zonen" in German', () => {
    should(shownStatusText(zonesRead(1), 'de')).equal('1 Zone · 14:02:07');
    should(shownStatusText(zonesRead(3), 'de')).equal('3 Zonen · 14:02:07');
  });

  it('has every connection status in English and German, different where the words differ', () => {
    const states: ConnectionState[] = [
      'idle',
      'connecting',
      'connected',
      'auth_failed',
      'rate_limited',
      'unreachable',
    ];
    const views = [
      ...states.map((state) => connectionStatus(state)),
      connectionStatus('unreachable', 'TIMEOUT'),
      connectionStatus('unreachable', 'TLS'),
      invalidConfigStatus(),
    ];
    for (const view of views) {
      const key = statusText('conference-audio-device', view.key);
      should(shownStatusText(key)).not.equal(key, `${view.key} in English`);
      should(shownStatusText(key, 'de')).not.equal(key, `${view.key} in German`);
    }
    should(shownStatusText(statusText('conference-audio-device', 'status.connected'), 'de')).equal(
      'verbunden',
    );
  });

  it('has "no device" in the catalogue of every node type that shows it', () => {
    for (const type of paletteTypes) {
      should(shownStatusText(statusText(type, 'status.noDevice'))).equal('no device');
      should(shownStatusText(statusText(type, 'status.noDevice'), 'de')).equal('kein Gerät');
    }
  });
});
