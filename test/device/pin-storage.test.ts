import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import should from 'should';
import { CertificateTrustStore } from '../../src/device/certificate-trust';
import {
  choosePinStorage,
  FilePinStorage,
  MemoryPinStorage,
  PIN_FILE_NAME,
} from '../../src/device/pin-storage';

const PRINT_A = `${'AB:'.repeat(31)}AB`;
const PRINT_B = `${'CD:'.repeat(31)}CD`;

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

    it('throws, naming the file, for a store that exists but cannot be read, never "no pin"', () => {
      const file = path.join(dir, PIN_FILE_NAME);
      const cases: Array<[string, RegExp]> = [
        ['', /is not valid JSON/],
        ['{"node1": {"address": "h:443", "fing', /is not valid JSON/],
        ['null', /holds null, not an object of pins/],
        ['"pins"', /holds a string, not an object of pins/],
        ['{"node1": "AB:CD"}', /holds an entry for config node node1 that is not/],
        [`{"node1": {"address": "h:443", "fingerprint": "${PRINT_A.toLowerCase()}"}}`, /not an address/],
      ];
      for (const [text, problem] of cases) {
        writeFileSync(file, text);
        const error = (() => {
          try {
            new FilePinStorage(file).read('node1');
          } catch (thrown) {
            return thrown as Error;
          }
          throw new Error(`read ${JSON.stringify(text)} as a pin store`);
        })();
        should(error.message).startWith(file).and.match(problem);
      }
    });

    it('reads nothing for another node in a store whose entries are pins', () => {
      const file = path.join(dir, PIN_FILE_NAME);
      writeFileSync(file, JSON.stringify({ node2: { address: 'g:443', fingerprint: PRINT_B } }));
      should(new FilePinStorage(file).read('node1')).be.undefined();
    });
  });

  describe('choosePinStorage', () => {
    it('uses a file in the user directory, never a context store a flow could write', () => {
      const storage = choosePinStorage({ userDir: dir, memory: new MemoryPinStorage() });
      should(storage).be.instanceOf(FilePinStorage);
      storage.write('node1', { address: 'h:443', fingerprint: PRINT_A });
      should(readdirSync(dir)).eql([PIN_FILE_NAME]);
    });

    it('keeps pins in memory without a user directory', () => {
      const memory = new MemoryPinStorage();
      const storage = choosePinStorage({ userDir: undefined, memory });
      should(storage).equal(memory);
      storage.write('node1', { address: 'h:443', fingerprint: PRINT_A });
      should(memory.read('node1')).eql({ address: 'h:443', fingerprint: PRINT_A });
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

    it('refuses a first use while the storage cannot be read, naming it, and trusts once it can', () => {
      const file = path.join(dir, PIN_FILE_NAME);
      writeFileSync(file, '{');
      const trust = new CertificateTrustStore(new FilePinStorage(file), 'node1', 'h:443');
      should(trust.tlsFor({ mode: 'pin' })).eql({ tls: { mode: 'pin' }, source: null });
      should(trust.storeProblem).startWith(file);
      should(() => trust.firstUse(PRINT_A)).throw({ code: 'TLS', message: new RegExp(file) });
      should(readFileSync(file, 'utf8')).equal('{');
      rmSync(file);
      should(trust.firstUse(PRINT_A)).eql({ fingerprint: PRINT_A, kept: true });
      should(trust.storeProblem).be.undefined();
    });

    it('pins what the storage holds for the device when it came meanwhile, not the certificate seen', () => {
      const storage = new MemoryPinStorage();
      const trust = new CertificateTrustStore(storage, 'node1', 'h:443');
      should(trust.tlsFor({ mode: 'pin' }).source).be.null();
      storage.write('node1', { address: 'h:443', fingerprint: PRINT_A });
      should(trust.firstUse(PRINT_B)).eql({ fingerprint: PRINT_A, kept: true });
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
