import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import should from 'should';
import { CertificateTrustStore } from '../../src/device/certificate-trust';
import {
  ContextPinStorage,
  type ContextStore,
  choosePinStorage,
  FilePinStorage,
  PIN_FILE_NAME,
} from '../../src/device/pin-storage';

const PRINT_A = `${'AB:'.repeat(31)}AB`;
const PRINT_B = `${'CD:'.repeat(31)}CD`;

/** A context store as Node-RED's memory store behaves: values by store and key. */
function memoryContext(): ContextStore & { entries: Map<string, unknown> } {
  const entries = new Map<string, unknown>();
  return {
    entries,
    get: (key, store) => entries.get(`${store ?? 'default'}/${key}`),
    set: (key, value, store) => {
      entries.set(`${store ?? 'default'}/${key}`, value);
    },
  };
}

describe('device/pin-storage', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ca-pins-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  describe('FilePinStorage', () => {
    it('keeps a pin that a new storage on the same file finds', () => {
      const file = path.join(dir, PIN_FILE_NAME);
      new FilePinStorage(file).write('node1', { address: 'h:443', fingerprint: PRINT_A });
      should(new FilePinStorage(file).read('node1')).eql({ address: 'h:443', fingerprint: PRINT_A });
    });

    it('writes a file only its owner can read or write, and leaves no temporary file', () => {
      const file = path.join(dir, PIN_FILE_NAME);
      new FilePinStorage(file).write('node1', { address: 'h:443', fingerprint: PRINT_A });
      should(statSync(file).mode & 0o777).equal(0o600);
      should(readdirSync(dir)).eql([PIN_FILE_NAME]);
    });

    it('makes a file that others could read private again when it writes', () => {
      const file = path.join(dir, PIN_FILE_NAME);
      writeFileSync(file, '{}\n');
      chmodSync(file, 0o644);
      new FilePinStorage(file).write('node1', { address: 'h:443', fingerprint: PRINT_A });
      should(statSync(file).mode & 0o777).equal(0o600);
    });

    it('leaves the file alone when the pin it would write is already there', () => {
      const file = path.join(dir, PIN_FILE_NAME);
      const storage = new FilePinStorage(file);
      storage.write('node1', { address: 'h:443', fingerprint: PRINT_A });
      const written = statSync(file).ino;
      storage.write('node1', { address: 'h:443', fingerprint: PRINT_A });
      should(statSync(file).ino).equal(written);
      storage.write('node1', { address: 'h:8443', fingerprint: PRINT_A });
      should(statSync(file).ino).not.equal(written);
    });

    it("keeps the other config nodes' pins when one changes", () => {
      const storage = new FilePinStorage(path.join(dir, PIN_FILE_NAME));
      storage.write('node1', { address: 'h:443', fingerprint: PRINT_A });
      storage.write('node2', { address: 'g:443', fingerprint: PRINT_B });
      storage.write('node1', { address: 'h:443', fingerprint: PRINT_B });
      should(storage.read('node1')).eql({ address: 'h:443', fingerprint: PRINT_B });
      should(storage.read('node2')).eql({ address: 'g:443', fingerprint: PRINT_B });
    });

    it('reads nothing before the first pin, and nothing for a key the file does not hold', () => {
      const storage = new FilePinStorage(path.join(dir, PIN_FILE_NAME));
      should(storage.read('node1')).be.undefined();
      storage.write('node1', { address: 'h:443', fingerprint: PRINT_A });
      should(storage.read('toString')).be.undefined();
    });

    it('refuses to replace a file it cannot read, which may hold the pins of other devices', () => {
      const file = path.join(dir, PIN_FILE_NAME);
      writeFileSync(file, 'not json');
      const storage = new FilePinStorage(file);
      should(() => storage.write('node1', { address: 'h:443', fingerprint: PRINT_A })).throw();
      should(readFileSync(file, 'utf8')).equal('not json');
    });
  });

  describe('choosePinStorage', () => {
    it('uses the persistent context store of settings.js when there is one', () => {
      const context = memoryContext();
      const storage = choosePinStorage({
        contextStorage: { default: { module: 'memory' }, disk: { module: 'localfilesystem' } },
        userDir: dir,
        globalContext: context,
      });
      storage.write('node1', { address: 'h:443', fingerprint: PRINT_A });
      should([...context.entries.keys()]).eql(['disk/conferenceAudioTrustedCertificate_node1']);
      should(readdirSync(dir)).eql([]);
    });

    it('uses a file in the user directory when every context store is in memory', () => {
      const storage = choosePinStorage({
        contextStorage: { default: { module: 'memory' } },
        userDir: dir,
        globalContext: memoryContext(),
      });
      should(storage).be.instanceOf(FilePinStorage);
      storage.write('node1', { address: 'h:443', fingerprint: PRINT_A });
      should(readdirSync(dir)).eql([PIN_FILE_NAME]);
    });

    it('uses the default context without a user directory', () => {
      const storage = choosePinStorage({
        contextStorage: undefined,
        userDir: undefined,
        globalContext: memoryContext(),
      });
      should(storage).be.instanceOf(ContextPinStorage);
    });
  });

  describe('CertificateTrustStore', () => {
    it('trusts a pin learned for the same address, and not one learned for another', () => {
      const storage = new FilePinStorage(path.join(dir, PIN_FILE_NAME));
      new CertificateTrustStore(storage, 'node1', 'h:443').remember(PRINT_A);
      should(new CertificateTrustStore(storage, 'node1', 'h:443').tlsFor({ mode: 'pin' })).eql({
        tls: { mode: 'pin', fingerprint: PRINT_A },
        source: 'first use',
      });
      should(new CertificateTrustStore(storage, 'node1', 'other:443').tlsFor({ mode: 'pin' })).eql({
        tls: { mode: 'pin' },
        source: null,
      });
    });

    it('says so when the storage cannot keep a pin', () => {
      const failing = {
        read: () => undefined,
        write: () => {
          throw new Error('read-only');
        },
      };
      should(new CertificateTrustStore(failing, 'node1', 'h:443').remember(PRINT_A)).be.false();
    });
  });
});
