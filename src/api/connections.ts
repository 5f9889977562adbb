import { type buildConnector, Client, type Dispatcher } from 'undici';

/** At most this many connections carry requests at once; each event stream has one of its own besides. */
const MAX_REQUEST_CONNECTIONS = 4;

/**
 * Requests a connection holds (one waiting for its answer, the rest queued behind it) before another
 * connection opens. Waiting for one answer costs about a round trip; a new connection costs a TCP and a TLS
 * handshake, two round trips or more and a key exchange on the device's small CPU. So a second request
 * waits, and a third opens a connection of its own.
 */
const REQUESTS_PER_CONNECTION = 2;

export interface DeviceConnectionsOptions {
  connect: buildConnector.connector | Partial<buildConnector.BuildOptions>;
  headersTimeout: number;
  bodyTimeout: number;
}

/**
 * The connections to one device: a few keep-alive connections for requests, each request going to the
 * least busy one (a busy one takes a second request before another connection opens), and one connection per event stream, made for it and ended with it. undici's Pool
 * would share them too, but every Pool holds a queue of 2,048 slots (16 KiB) from the start: with 1,000
 * devices in one process that was a fifth of each device's heap (bench/README.md, many-rooms).
 */
export class DeviceConnections {
  readonly #origin: string;
  readonly #options: DeviceConnectionsOptions;
  /** Requests under way (answer not read to its end) per request connection. */
  readonly #requests = new Map<Client, number>();
  readonly #streams = new Set<Client>();

  constructor(origin: string, options: DeviceConnectionsOptions) {
    this.#origin = origin;
    this.#options = options;
  }

  /** One request on the least busy request connection; it counts as busy until its body is done. */
  request(options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
    const client = this.#leastBusy();
    this.#requests.set(client, (this.#requests.get(client) ?? 0) + 1);
    const done = (): void => {
      const busy = this.#requests.get(client);
      if (busy !== undefined) this.#requests.set(client, busy - 1);
    };
    return this.#requestOn(client, options, done);
  }

  /** A long-lived request (an event stream) on a connection of its own, closed when its body closes. */
  stream(options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
    const client = this.#client();
    this.#streams.add(client);
    const end = (): void => {
      this.#streams.delete(client);
      void client.destroy().catch(() => undefined);
    };
    return this.#requestOn(client, options, end);
  }

  /** Ends every connection and every request and stream on them. */
  async destroy(): Promise<void> {
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

  #leastBusy(): Client {
    let chosen: Client | undefined;
    let least = Number.POSITIVE_INFINITY;
    for (const [client, busy] of this.#requests) {
      if (busy === 0) return client;
      if (busy < least) [chosen, least] = [client, busy];
    }
    if (
      chosen !== undefined &&
      (least < REQUESTS_PER_CONNECTION || this.#requests.size >= MAX_REQUEST_CONNECTIONS)
    ) {
      return chosen;
    }
    const client = this.#client();
    this.#requests.set(client, 0);
    if (chosen !== undefined) this.#forgetWhenIdleAndClosed(client);
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
