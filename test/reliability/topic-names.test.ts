import should from 'should';
import { MAX_NAME_LENGTH, safeTopicName, topicNameGuard } from '../../src/nodes/messages/topic';
import { RepeatGate } from '../../src/timing/repeat-gate';

describe('device names in topics (names from the device must not break an MQTT broker)', () => {
  it('strips control characters, NUL and lone surrogates, and replaces the wildcards', () => {
    should(safeTopicName('a\u0001b\u0000c\u009f#+\ud800d')).eql({ name: 'abc__d', changed: true });
  });

  it('keeps a plain name, and a path-like name without its empty levels', () => {
    should(safeTopicName('soundLocation')).eql({ name: 'soundLocation', changed: false });
    should(safeTopicName('/api/v1/room/layout')).eql({ name: 'api/v1/room/layout', changed: false });
  });

  it('cuts a long name, and keeps a character outside the BMP whole or not at all', () => {
    should(safeTopicName('x'.repeat(80_000)).name).have.length(MAX_NAME_LENGTH);
    const cut = safeTopicName(`${'x'.repeat(MAX_NAME_LENGTH - 1)}😀`).name;
    should(cut).equal('x'.repeat(MAX_NAME_LENGTH - 1));
  });

  it('makes a zone id one level', () => {
    should(safeTopicName('a/b', { oneLevel: true }).name).equal('a_b');
  });

  it('warns once per name, and about a flood of names once more, then not at all', () => {
    const warned: string[] = [];
    let more = 0;
    const guard = topicNameGuard(
      (original) => warned.push(original),
      () => more++,
    );
    guard('a#');
    guard('a#');
    should(warned).eql(['a#']);
    for (let i = 0; i < 10_000; i++) guard(`name+${i}`);
    should(warned.length).be.belowOrEqual(100);
    should(more).equal(1);
  });
});

describe('repeated error events (a flood of the muted error)', () => {
  it('passes one event of a kind a second, each kind on its own', () => {
    const gate = new RepeatGate();
    should(gate.admit('error (soundLocation)', 0)).be.true();
    should(gate.admit('error (soundLocation)', 999)).be.false();
    should(gate.admit('error (deviceMetrics)', 999)).be.true();
    should(gate.admit('error (soundLocation)', 1000)).be.true();
  });
});
