/**
 * How the body is read: `for await`, as most hand-written clients do, `data` events, as the package does,
 * or `tls`: the stream on a bare TLS socket, with no HTTP library.
 */
export type BareReading = 'for-await' | 'data' | 'tls';

/** Every `BareReading`. */
export const READINGS: readonly BareReading[];

/** What a host destroys to let go of a device: its login `Client` and its stream. */
interface Destroyable {
  destroy(): Promise<unknown>;
}

/** See bare-stream.js: one device's data stream read by undici and eventsource-parser alone. */
type OpenBareStream = (
  url: string,
  password: string,
  onReading: () => void,
  onEnd: () => void,
  reading: BareReading,
) => Promise<Destroyable[]>;

export const openBareStream: OpenBareStream;

/** The same, one device after the other across every caller in the process. */
export const openBareStreamInTurn: OpenBareStream;
