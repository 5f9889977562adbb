import type { Client } from 'undici';

/** How the body is read: `for await`, as most hand-written clients do, or `data` events, as the package does. */
export type BareReading = 'for-await' | 'data';

/** See bare-stream.js: one device's data stream read by undici and eventsource-parser alone. */
type OpenBareStream = (
  url: string,
  password: string,
  onReading: () => void,
  onEnd: () => void,
  reading?: BareReading,
) => Promise<Client[]>;

export const openBareStream: OpenBareStream;

/** The same, one device after the other across every caller in the process. */
export const openBareStreamInTurn: OpenBareStream;
