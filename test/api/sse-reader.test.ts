import should from 'should';
import { SseReader } from '../../src/api/sse-reader';

/** Feeds `text` in pieces cut at `cuts` and returns what the reader passed on and dropped. */
function read(text: string, cuts: readonly number[], maxEventBytes = 1024) {
  const events: Array<[string, string]> = [];
  const dropped: Array<string | undefined> = [];
  const reader = new SseReader({
    maxEventBytes,
    onEvent: (name, data) => events.push([name, data]),
    onOversized: (name) => dropped.push(name),
  });
  const bytes = Buffer.from(text, 'utf8');
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    reader.feed(bytes.subarray(from, cut));
    from = cut;
  }
  return { events, dropped };
}

const LINE_ENDS = { LF: '\n', CRLF: '\r\n', CR: '\r' } as const;

describe('api/sse-reader: events from the bytes of a stream', () => {
  for (const [label, eol] of Object.entries(LINE_ENDS)) {
    // The first line of a third event follows: with CR line ends the parser (eventsource-parser) passes an
    // event on once it has seen the next whole line, as it does on a live stream.
    const stream = `event: a${eol}data: {"n":1}${eol}${eol}event: b${eol}data: {"n":2}${eol}${eol}event: c${eol}`;

    it(`reads the same events wherever the chunks are cut (${label} line ends)`, () => {
      for (let cut = 0; cut <= stream.length; cut++) {
        should(read(stream, [cut]).events).eql(
          [
            ['a', '{"n":1}'],
            ['b', '{"n":2}'],
          ],
          `cut at ${cut}`,
        );
      }
    });

    it(`drops an event over the cap and reads the next one (${label} line ends)`, () => {
      const large = `event: big${eol}data: ${'x'.repeat(200)}${eol}${eol}`;
      for (const cut of [5, 50, large.length - 1, large.length + 3]) {
        const { events, dropped } = read(large + stream, [cut], 100);
        should(dropped).eql(['big'], `cut at ${cut}`);
        should(events).eql(
          [
            ['a', '{"n":1}'],
            ['b', '{"n":2}'],
          ],
          `cut at ${cut}`,
        );
      }
    });

    it(`counts an event from its own start after a chunk that ended with a whole event (${label} line ends)`, () => {
      // 70 bytes of the second event, under the cap of 100; with the first event's first part still
      // counted against it, it would pass the cap and be dropped.
      const first = `event: a${eol}data: "${'y'.repeat(40)}"${eol}${eol}`;
      const second = `event: b${eol}data: "${'z'.repeat(80)}"${eol}${eol}event: c${eol}`;
      const { events, dropped } = read(first + second, [40, first.length, first.length + 70], 100);
      should(dropped).eql([]);
      should(events.map(([name]) => name)).eql(['a', 'b']);
    });
  }
});

describe('api/sse-reader: the size of a dropped event', () => {
  it('tells it, counted to the end of the event, wherever the chunks are cut', () => {
    const large = `event: big\ndata: ${'x'.repeat(200)}\n\n`;
    const text = `${large}event: a\ndata: 1\n\n`;
    const bytes = Buffer.from(text, 'utf8');
    for (const cut of [5, 50, 150, large.length - 1, large.length + 3]) {
      const sizes: number[] = [];
      const reader = new SseReader({
        maxEventBytes: 100,
        onEvent: () => undefined,
        onOversized: (_name, size) => sizes.push(size),
      });
      reader.feed(bytes.subarray(0, cut));
      reader.feed(bytes.subarray(cut));
      // Its data at least (200 bytes), and at most its whole text.
      should(sizes).have.length(1);
      should(sizes[0]).be.within(200, large.length, `cut at ${cut}`);
    }
  });
});

describe('api/sse-reader: text', () => {
  it('drops a byte order mark at the start of the stream, even when its bytes come apart', () => {
    const stream = '\uFEFFevent: a\ndata: 1\n\n';
    for (const cut of [1, 2, 3, 4]) should(read(stream, [cut]).events).eql([['a', '1']], `cut at ${cut}`);
  });

  it('reads a character whose bytes are split between chunks', () => {
    const stream = 'event: a\ndata: "Besprechungsraum Süd ☕"\n\n';
    const bytes = Buffer.from(stream, 'utf8');
    for (let cut = 0; cut <= bytes.length; cut++) {
      should(read(stream, [cut]).events).eql([['a', '"Besprechungsraum Süd ☕"']], `cut at ${cut}`);
    }
  });
});
