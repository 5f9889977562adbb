import path from 'node:path';
import vm from 'node:vm';
import should from 'should';
import { deviceSettingsProblems } from '../../src/api/settings';
import type * as Rules from '../../src/api/settings-rules';
import { envReference, settingCases } from '../support/settings-table';

const root = path.resolve(__dirname, '..', '..');

/** src/api/settings-rules.ts as scripts/build.js bundles it into the device dialog, run as a browser would. */
function generatedEditorRules(): typeof Rules {
  const esbuild: typeof import('esbuild') = require('esbuild');
  const bundle = esbuild.buildSync({
    entryPoints: [path.join(root, 'src', 'api', 'settings-rules.ts')],
    bundle: true,
    format: 'iife',
    globalName: 'rules',
    platform: 'browser',
    write: false,
  });
  // A bare browser-like global: no require, no process, no Buffer.
  const context: Record<string, unknown> = {};
  vm.runInNewContext(`${bundle.outputFiles[0].text}\nthis.rules = rules;`, context);
  return context.rules as typeof Rules;
}

/** Node-RED's substitution of a whole-value `${NAME}` when the flow starts (unknown names stay). */
function substituted(value: string, env: Record<string, string>): string {
  const match = /^\$\{(\S+)\}$/.exec(value);
  return match !== null && env[match[1]] !== undefined ? env[match[1]] : value;
}

describe('api/settings: the editor validates with the runtime rules', () => {
  let editorRules: typeof Rules;
  before(function () {
    this.timeout(60_000);
    editorRules = generatedEditorRules();
  });

  for (const row of settingCases) {
    const label = `${row.property} ${JSON.stringify(row.value.length > 40 ? `${row.value.slice(0, 20)}...` : row.value)}${row.tlsMode ? ` (TLS ${row.tlsMode})` : ''}`;
    it(`${row.valid ? 'accepts' : 'refuses'} ${label} in the editor and at runtime alike`, () => {
      const inEditor = editorRules.checkDeviceProperty(row.property, row.value, {
        editing: true,
        tlsMode: row.tlsMode,
      });
      should(inEditor === undefined).equal(row.valid, inEditor?.message);
      if (editorRules.envReferenceName(row.value) !== undefined) return;
      const atRuntime = deviceSettingsProblems({
        host: 'device.local',
        tls: row.tlsMode,
        [row.property]: row.value,
      }).filter((problem) => problem.property === row.property);
      should(atRuntime.map((problem) => problem.message)).eql(
        inEditor === undefined ? [] : [inEditor.message],
      );
    });
  }

  it('judges an environment variable reference the editor let through by its value after substitution', () => {
    const env = { DEVICE_PORT: '8443', DEVICE_TIMEOUT: '0' };
    should(deviceSettingsProblems({ host: 'a', port: substituted(envReference('DEVICE_PORT'), env) })).eql(
      [],
    );
    const [timeout] = deviceSettingsProblems({
      host: 'a',
      timeout: substituted(envReference('DEVICE_TIMEOUT'), env),
    });
    should(timeout?.message).match(/^Timeout .*more than 0/);
    const [host] = deviceSettingsProblems({ host: substituted(envReference('DEVICE_HOST'), env) });
    should(host?.message).match(/^Host .*DEVICE_HOST is not set/);
  });
});
