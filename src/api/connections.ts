import { type buildConnector, Client, type Dispatcher, errors } from 'undici';
import { type CallerSignal, whenAborted } from './abort';
import { dispatchStream, type StreamAnswer } from './stream-body';

/** At most this many connections carry requests at once; each event stream has one of its own besides. */
const MAX_REQUEST_CONNECTIONS = 4;

/**
 * How long a request waits for a request connection to be free before it opens one of its own. Waiting
 * for an answer costs about a round trip; a new connection costs a TCP and a TLS handshake, two round
 * trips or more and a key exchange on the device's small processor. A device on a LAN answers a few reads
 * within this; an answer that takes longer may never come, and what waits behind it must not wait with it.
 */
const WAIT_FOR_FREE_MS = 250;

/** A request waiting for a free request connection, first come first served. */
interface WaitingRequest {
  /** Sends it on `client`, a connection that has just become free, and ends the wait. */
  sendOn: (client: Client) => void;
  /** Ends the wait with `error`: the request is never sent. */
  fail: (error: Error) => void;
}

/** undici's request options, with a signal of the kinds the package hands in. */
export type DeviceRequestOptions = Dispatcher.RequestOptions & { signal?: CallerSignal | undefined };

export interface DeviceConnectionsOptions {
  connect: buildConnector.connector | Partial<buildConnector.BuildOptions>;
  headersTimeout: number;
  bodyTimeout: number;
}

/**
 * The connections to one device: a few keep-alive connections for requests, and one connection per event
 * stream, made for it and ended with it. A request takes a free request connection; when none is free it
 * waits in turn for one, a moment at most, and then opens a connection of its own while fewer than the
 * most are open (else it queues on the least busy). So a burst of reads goes one after another on the
 * connection already open, as long as the device answers promptly.
 * undici's Pool would share connections too, but every Pool holds a queue of 2,048 slots (16 KiB) from
 * the start: with 1,000 devices in one process that was a fifth of each device's heap (bench/README.md,
 * many-rooms).
 */
export class DeviceConnections {
  readonly #origin: string;
  readonly #options: DeviceConnectionsOptions;
  /** Requests under way (answer not read to its end) per request connection. */
  readonly #requests = new Map<Client, number>();
  readonly #streams = new Set<Client>();
  readonly #waiting: WaitingRequest[] = [];

  constructor(origin: string, options: DeviceConnectionsOptions) {
    this.#origin = origin;
    this.#options = options;
  }

  /** One request on a request connection (see the class); it counts as busy until its body is done. */
  request(options: DeviceRequestOptions): Promise<Dispatcher.ResponseData> {
    // Those already waiting come first.
    if (this.#waiting.length === 0) {
      const free = this.#free();
      if (free !== undefined) return this.#send(free, options);
      if (this.#requests.size === 0) return this.#send(this.#open(), options);
    }
    return new Promise((resolve) => {
      // Set last: a signal aborted already ends the wait before it is.
      let stopListening: (() => void) | undefined;
      const settle = (sent: Promise<Dispatcher.ResponseData>): void => {
        clearTimeout(timer);
        stopListening?.();
        const index = this.#waiting.indexOf(waiting);
        if (index !== -1) this.#waiting.splice(index, 1);
        resolve(sent);
      };
      const waiting: WaitingRequest = {
        sendOn: (client) => settle(this.#send(client, options)),
        fail: (error) => settle(Promise.reject(error)),
      };
      const timer = setTimeout(() => settle(this.#send(this.#openOrLeastBusy(), options)), WAIT_FOR_FREE_MS);
      this.#waiting.push(waiting);
      // A caller that gives up (its timeout, its signal) takes the request out of the queue at once: it
      // opens no connection and never reaches the device.
      stopListening = whenAborted(options.signal, () => waiting.fail(new errors.RequestAbortedError()));
    });
  }

  /** A long-lived request (an event stream) on a connection of its own, closed when its body ends. */
  stream(options: Dispatcher.DispatchOptions, signal: CallerSignal | undefined): Promise<StreamAnswer> {
    const client = this.#client();
    this.#streams.add(client);
    return dispatchStream(client, options, signal, () => {
      this.#streams.delete(client);
      void client.destroy().catch(() => undefined);
    });
  }

  /** Ends every connection and every request and stream on them. */
  async destroy(): Promise<void> {
    for (const waiting of [...this.#waiting]) waiting.fail(new errors.ClientDestroyedError());
    const clients = [...this.#requests.keys(), ...this.#streams];
    this.#requests.clear();
    this.#streams.clear();
    await Promise.all(clients.map((client) => client.destroy().catch(() => undefined)));
  }

  /** `finished` runs once the answer's body has closed, or at once when the request fails. */
  async #requestOn(
    client: Client,
    options: Dispatcher.RequestOptions,
    finished: () => void,
  ): Promise<Dispatcher.ResponseData> {
    try {
      const response = await client.request(options);
      response.body.once('close', finished);
      return response;
    } catch (error) {
      finished();
      throw error;
    }
  }

  #send(client: Client, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
    this.#requests.set(client, (this.#requests.get(client) ?? 0) + 1);
    const done = (): void => {
      const busy = this.#requests.get(client);
      if (busy === undefined) return;
      this.#requests.set(client, busy - 1);
      if (busy > 1) return;
      // Handed over at once, so that no request made meanwhile takes the connection first.
      this.#waiting[0]?.sendOn(client);
    };
    return this.#requestOn(client, options, done);
  }

  #free(): Client | undefined {
    for (const [client, busy] of this.#requests) if (busy === 0) return client;
    return undefined;
  }

  #openOrLeastBusy(): Client {
    if (this.#requests.size < MAX_REQUEST_CONNECTIONS) {
      const client = this.#open();
      this.#forgetWhenIdleAndClosed(client);
      return client;
    }
    let chosen: Client | undefined;
    let least = Number.POSITIVE_INFINITY;
    for (const [client, busy] of this.#requests) if (busy < least) [chosen, least] = [client, busy];
    return chosen ?? this.#open();
  }

  #open(): Client {
    const client = this.#client();
    this.#requests.set(client, 0);
    return client;
  }

  /**
   * A connection opened for a burst of requests is forgotten once its socket closes while it has nothing
   * to do (undici closes idle sockets after its keep-alive time): opening it again would cost a new TLS
   * handshake either way, and with 1,000 devices the idle clients add up. The first one stays.
   */
  #forgetWhenIdleAndClosed(client: Client): void {
    client.on('disconnect', () => {
      if (this.#requests.get(client) !== 0) return;
      this.#requests.delete(client);
      void client.destroy().catch(() => undefined);
    });
  }

  #client(): Client {
    const { connect, headersTimeout, bodyTimeout } = this.#options;
    return new Client(this.#origin, { connect, headersTimeout, bodyTimeout });
  }
}
