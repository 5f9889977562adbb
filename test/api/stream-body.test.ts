import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import should from 'should';
import { Client } from 'undici';
import { RequestAbort } from '../../src/api/abort';
import { dispatchStream, type StreamAnswer } from '../../src/api/stream-body';
import { until } from '../support/wait';

/** What a listener of a stream body heard, in order. */
function hear(answer: StreamAnswer): { chunks: string[]; ends: Array<Error | undefined> } {
  const heard = { chunks: [] as string[], ends: [] as Array<Error | undefined> };
  answer.body.read({
    onChunk: (chunk) => heard.chunks.push(chunk.toString('utf8')),
    onEnd: (error) => heard.ends.push(error),
  });
  return heard;
}

describe('api/stream-body: a long-lived answer read chunk by chunk', () => {
  let server: Server;
  let client: Client;
  let response: ServerResponse | undefined;
  let closedByClient = false;
  let finished = 0;

  beforeEach(async () => {
    response = undefined;
    closedByClient = false;
    finished = 0;
    server = createServer((_request, answer) => {
      response = answer;
      answer.on('close', () => {
        if (!answer.writableFinished) closedByClient = true;
      });
      answer.writeHead(200, { 'content-type': 'text/event-stream' });
      answer.write('first\n\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    client = new Client(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });

  afterEach(async () => {
    await client.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const open = (signal?: RequestAbort) =>
    dispatchStream(client, { method: 'GET', path: '/stream', bodyTimeout: 0 }, signal, () => {
      finished += 1;
    });

  it('resolves with the status and headers once the head has come', async () => {
    const answer = await open();
    should(answer.statusCode).equal(200);
    should(answer.headers['content-type']).equal('text/event-stream');
  });

  it('tells the chunks that came before it was read first, then each chunk as it comes, then the end', async () => {
    const answer = await open();
    // The server sends the first chunk with the head: undici hands both over in one go, before the read.
    await until(() => response !== undefined, 'the request to arrive');
    const heard = hear(answer);
    await until(() => heard.chunks.length === 1, 'the first chunk');
    should(heard.chunks).eql(['first\n\n']);
    response?.end('second\n\n');
    await until(() => heard.ends.length === 1, 'the end');
    should(heard.chunks).eql(['first\n\n', 'second\n\n']);
    should(heard.ends).eql([undefined]);
    should(finished).equal(1);
  });

  it('ends with an error, once, when its signal aborts, and lets go of the connection', async () => {
    const signal = new RequestAbort();
    const heard = hear(await open(signal));
    signal.abort();
    await until(() => heard.ends.length === 1 && closedByClient, 'the abort to end it');
    should(heard.ends[0]).be.an.Error();
    should(finished).equal(1);
  });

  it('ends with an error, once, when it is destroyed', async () => {
    const answer = await open();
    const heard = hear(answer);
    answer.body.destroy();
    answer.body.destroy();
    await until(() => closedByClient, 'the connection to close');
    should(heard.ends).have.length(1);
    should(heard.ends[0]).be.an.Error();
    should(finished).equal(1);
  });

  it('rejects, and runs its end once, when its signal has aborted before it was sent', async () => {
    const signal = new RequestAbort();
    signal.abort();
    await should(open(signal)).be.rejected();
    should(finished).equal(1);
  });

  it('is read once', async () => {
    const answer = await open();
    hear(answer);
    should(() => hear(answer)).throw(/read once/);
  });
});
