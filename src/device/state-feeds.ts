import type { StreamCondition, StreamSubscriber } from './stream-hub';
import { onStreamingAgain } from './stream-return';

/** What the device state follows of the device's live streams. */
export interface StateFeeds {
  /** Joins the device's change stream; returns the function that leaves it. */
  followChanges: (subscriber: StreamSubscriber) => () => void;
  /**
   * Hears the microphone muted or live again, as the data stream shows it while it is open for another
   * node; returns the function that stops. The device never announces audio changes, but a mute from
   * anywhere (its app, another controller) shows on that stream at once: the audio is read then.
   */
  watchMute?: (watcher: (muted: boolean) => void) => () => void;
}

/** What the device state does with what its change stream brings. */
export interface ChangeHandlers {
  /** A change event, or (without data) one too large to pass, whose name still says what changed. */
  apply: (name: string, data: unknown) => void;
  /** Reads everything again. */
  resync: () => void;
  condition: (condition: StreamCondition) => void;
  /** Reads the audio: the microphone was muted or went live again. */
  readAudio: () => void;
}

/** Follows the change stream, and the mute while another node keeps the data stream open; returns the stop. */
export function followFeeds(feeds: StateFeeds, handlers: ChangeHandlers): () => void {
  const stopChanges = feeds.followChanges(changeSubscriber(handlers));
  const stopWatchingMute = feeds.watchMute?.(() => handlers.readAudio());
  return () => {
    stopChanges();
    stopWatchingMute?.();
  };
}

/**
 * The device state's place on the change stream: it reads everything each time the stream streams again
 * (its first open too, which the reads wait for), and when an event too large to pass lost its name.
 */
function changeSubscriber(handlers: ChangeHandlers): StreamSubscriber {
  const readWhenBack = onStreamingAgain(() => handlers.resync());
  return {
    onEvent: (event) => handlers.apply(event.event, event.data),
    // An event too large to pass said something: read what it names, or everything when its name was lost.
    onWarning: (_warning, _kind, { droppedEvent }) => {
      if (droppedEvent === undefined) handlers.resync();
      else handlers.apply(droppedEvent, undefined);
    },
    onCondition: (condition) => {
      handlers.condition(condition);
      readWhenBack(condition);
    },
  };
}
