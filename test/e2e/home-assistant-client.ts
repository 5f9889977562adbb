/**
 * A client that plays Home Assistant's MQTT integration, for the end-to-end tests: it reads the discovery
 * configs under the prefix (keys in full or abbreviated), subscribes to the state topics the configs name,
 * sends commands to the command topics they name, and says `online` on its status topic as Home
 * Assistant does when it starts. The tests never spell an entity's topic themselves.
 */
import { connectAsync, type MqttClient } from 'mqtt';
import { fullKeys } from '../support/homeassistant-schema';
import { probeUntil } from '../support/wait';

export interface DiscoveredEntity {
  platform: string;
  topic: string;
  config: Record<string, unknown>;
}

export class HomeAssistantClient {
  readonly #client: MqttClient;
  readonly #prefix: string;
  readonly #configs = new Map<string, DiscoveredEntity>();
  readonly #states = new Map<string, string>();
  readonly #subscribed = new Set<string>();
  /** Config messages heard, retained or live, counted so a test can wait for configs to come again. */
  configMessages = 0;

  private constructor(client: MqttClient, prefix: string) {
    this.#client = client;
    this.#prefix = prefix;
    client.on('message', (topic, payload) => {
      const text = payload.toString('utf8');
      if (topic.startsWith(`${prefix}/`) && topic.endsWith('/config')) {
        this.configMessages++;
        if (text === '') this.#configs.delete(topic);
        else
          this.#configs.set(topic, {
            platform: topic.split('/')[1] ?? '',
            topic,
            config: fullKeys(JSON.parse(text) as Record<string, unknown>),
          });
        void this.#followStates();
      } else if (this.#subscribed.has(topic)) {
        this.#states.set(topic, text);
      }
    });
  }

  static async connect(port: number, prefix = 'homeassistant'): Promise<HomeAssistantClient> {
    const client = await connectAsync(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0 });
    const assistant = new HomeAssistantClient(client, prefix);
    await client.subscribeAsync(`${prefix}/#`, { qos: 1 });
    return assistant;
  }

  get entities(): DiscoveredEntity[] {
    return [...this.#configs.values()];
  }

  /** The entity of `platform` named `name`, once its config is known. */
  async entity(platform: string, name: string): Promise<DiscoveredEntity> {
    return probeUntil(`the ${platform} "${name}"`, () =>
      this.entities.find((entity) => entity.platform === platform && entity.config.name === name),
    );
  }

  /** The last state heard on an entity's state topic. */
  state(entity: DiscoveredEntity): string | undefined {
    return this.#states.get(String(entity.config.state_topic));
  }

  /** The payload last heard on a topic that a config names (an availability topic). */
  heard(topic: string): string | undefined {
    return this.#states.get(topic);
  }

  async command(entity: DiscoveredEntity, payload: string): Promise<void> {
    await this.#client.publishAsync(String(entity.config.command_topic), payload, { qos: 1 });
  }

  /** Home Assistant's birth message. */
  async online(): Promise<void> {
    await this.#client.publishAsync(`${this.#prefix}/status`, 'online', { qos: 1 });
  }

  async close(): Promise<void> {
    await this.#client.endAsync(true);
  }

  async #followStates(): Promise<void> {
    const topics = new Set<string>();
    for (const { config } of this.#configs.values()) {
      if (typeof config.state_topic === 'string') topics.add(config.state_topic);
      for (const availability of (config.availability as Array<{ topic?: unknown }> | undefined) ?? [])
        if (typeof availability.topic === 'string') topics.add(availability.topic);
    }
    const fresh = [...topics].filter((topic) => !this.#subscribed.has(topic));
    for (const topic of fresh) this.#subscribed.add(topic);
    if (fresh.length > 0 && this.#client.connected) await this.#client.subscribeAsync(fresh, { qos: 1 });
  }
}
