import { type DeviceContext, onZoneModel } from '../device';
import { answerWrite, type Exchange, type Routes, sendJsonAnswer, sendProblem } from '../exchange';
import { readText } from '../request-body';
import type { SimulatorProfile } from '../types';
import type { RoomLayout } from './room';

export function sampleProfiles(): SimulatorProfile[] {
  return [
    { profileId: '6f1c2a9e-3b7d-4c58-9e21-0a4b8d7c5e31', name: 'Standard' },
    { profileId: 'b83e5d20-9c41-4f6a-8d17-2e6f0c9a4b72', name: 'Workshop' },
    { profileId: 'e2a7c4f9-5d18-4b3e-a069-7c1d8e2f5a43', name: 'Lecture' },
  ];
}

/**
 * Room profiles of a 410: `GET /api/v1/room/profiles` and `POST .../{profileId}/active`. A profile with
 * zones of its own brings them along when it becomes active; a switch is announced as a layout change.
 */
export class RoomProfiles {
  #profiles: SimulatorProfile[] = [];
  #active = '';

  constructor(
    private readonly device: DeviceContext,
    private readonly room: RoomLayout,
    profiles: SimulatorProfile[] = sampleProfiles(),
    active?: string,
  ) {
    this.set(profiles, active);
  }

  /** Replaces the profiles; `active` (an id) or else the first one is active. Throws a TypeError for an unknown id. */
  set(profiles: SimulatorProfile[], active?: string): void {
    if (active !== undefined && !profiles.some((profile) => profile.profileId === active)) {
      throw new TypeError('activeProfile must be the id of a profile');
    }
    this.#profiles = profiles.map((profile) => ({ ...profile }));
    this.#active = active ?? profiles[0]?.profileId ?? '';
  }

  list(): { profileId: string; name: string; active: boolean }[] {
    return this.#profiles.map(({ profileId, name }) => ({
      profileId,
      name,
      active: profileId === this.#active,
    }));
  }

  routes(): Routes {
    return {
      '/api/v1/room/profiles': {
        minimumRole: 'general',
        methods: {
          GET: (exchange) =>
            onZoneModel(this.device, exchange, () =>
              sendJsonAnswer(exchange, 200, { profiles: this.list() }),
            ),
        },
      },
      '/api/v1/room/profiles/{profileId}/active': {
        minimumRole: 'general',
        methods: { POST: (exchange) => onZoneModel(this.device, exchange, () => this.#activate(exchange)) },
      },
    };
  }

  /** Makes a profile active, as the device's own app would; announced as a layout change. */
  activate(profileId: string): boolean {
    const target = this.#profiles.find((profile) => profile.profileId === profileId);
    if (target === undefined) return false;
    if (profileId === this.#active) return true;
    const current = this.#profiles.find((profile) => profile.profileId === this.#active);
    if (target.zones !== undefined) {
      if (current !== undefined) current.zones = Array.isArray(this.room.zones) ? this.room.zones : [];
      this.room.zones = target.zones;
    }
    this.#active = profileId;
    this.room.announce();
    return true;
  }

  async #activate(exchange: Exchange): Promise<void> {
    if ((await readText(exchange)) === undefined) return;
    const profileId = exchange.params.profileId ?? '';
    if (!this.activate(profileId)) {
      sendProblem(exchange, 404, [`The room profile ${profileId} was not found.`]);
      return;
    }
    answerWrite(exchange, 200, undefined);
  }
}
