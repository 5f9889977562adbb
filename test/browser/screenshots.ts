/**
 * The README's pictures of the editor, made the way the browser test runs (the same harness: a real
 * Node-RED with this package from dist/, the simulator, Debian's Chromium). Run by `npm run screenshots`;
 * writes the files of `screenshotFiles` into docs/.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { type DeviceSimulator, startSimulator } from '../../src/simulator';
import { startBroker } from '../rooms/support';
import {
  type Browser,
  cleanUpAll,
  describeProblem,
  launchBrowser,
  type NodeRed,
  projectRoot,
  startNodeRed,
} from './harness';
import { exampleRooms, roomsExampleFlows } from './rooms-example';

const docsDir = path.join(projectRoot, 'docs');
/** What this script writes into docs/, in the order it makes them; the README shows these. */
export const screenshotFiles = [
  'flow-debug.png',
  'device-dialog.png',
  'zones-dialog-map.png',
  'dashboard-room.png',
  'dashboard-rooms.png',
] as const;
type ScreenshotFile = (typeof screenshotFiles)[number];
const viewport = { width: 1280, height: 800 };
// Shown as dots only; the simulator needs some password so the field does not look empty.
const password = 'screenshots-only';

/** The port the README's examples use when it is free, so the pictures match the text. */
async function simulatorOnReadmePort(): Promise<DeviceSimulator> {
  const options = { passwords: { general: password } };
  try {
    return await startSimulator({ ...options, port: 8443 });
  } catch {
    return startSimulator({ ...options, port: 0 });
  }
}

function exampleFlow(simulator: DeviceSimulator): unknown[] {
  const tab = 'a1c0ffee00000001';
  return [
    { id: tab, type: 'tab', label: 'Room 2.14' },
    {
      id: 'a1c0ffee00000002',
      type: 'conference-audio-device',
      name: 'Room 2.14 ceiling mic',
      host: '127.0.0.1',
      port: simulator.port,
      account: 'general',
      clientId: 'node-red',
      vendor: 'Vendor',
      tls: 'pin',
      fingerprint: simulator.fingerprint256,
      ca: '',
      timeout: 10,
      credentials: { password },
    },
    {
      id: 'a1c0ffee00000003',
      type: 'inject',
      z: tab,
      name: 'read now',
      props: [],
      repeat: '',
      once: false,
      x: 130,
      y: 100,
      wires: [['a1c0ffee00000004']],
    },
    {
      id: 'a1c0ffee00000004',
      type: 'conference-audio-zones',
      z: tab,
      name: '',
      device: 'a1c0ffee00000002',
      output: 'each',
      interval: 0,
      onStart: false,
      topic: 'rooms/2.14/zones',
      x: 320,
      y: 100,
      wires: [['a1c0ffee00000005']],
    },
    {
      id: 'a1c0ffee00000005',
      type: 'debug',
      z: tab,
      name: 'zones',
      active: true,
      tosidebar: true,
      console: false,
      tostatus: false,
      complete: 'payload',
      targetType: 'msg',
      x: 510,
      y: 100,
      wires: [],
    },
    {
      id: 'a1c0ffee00000006',
      type: 'inject',
      z: tab,
      name: 'sound at (0, 1500)',
      props: [{ p: 'payload' }],
      payload: '{"x":0,"y":1500}',
      payloadType: 'json',
      repeat: '',
      once: false,
      x: 160,
      y: 180,
      wires: [['a1c0ffee00000007']],
    },
    {
      id: 'a1c0ffee00000007',
      type: 'conference-audio-zone-lookup',
      z: tab,
      name: '',
      device: 'a1c0ffee00000002',
      property: 'payload',
      maxAge: 60,
      x: 370,
      y: 180,
      wires: [['a1c0ffee00000008'], []],
    },
    {
      id: 'a1c0ffee00000008',
      type: 'debug',
      z: tab,
      name: 'zone',
      active: true,
      tosidebar: true,
      console: false,
      tostatus: false,
      complete: 'zone.label',
      targetType: 'msg',
      x: 560,
      y: 180,
      wires: [],
    },
  ];
}

/** Moves the mouse off every control, so no tooltip or hover colour lands in the picture. */
async function restMouse(page: Page): Promise<void> {
  await page.mouse.move(viewport.width / 3, viewport.height - 60);
  await page.locator('.red-ui-popover-tooltip').waitFor({ state: 'hidden' });
}

type Clip = { x: number; y: number; width: number; height: number };

async function capture(page: Page, name: ScreenshotFile, clip?: Clip): Promise<void> {
  await restMouse(page);
  const file = path.join(docsDir, name);
  await page.screenshot({ path: file, ...(clip === undefined ? {} : { clip }) });
  console.log(`wrote ${path.relative(projectRoot, file)}`);
}

/** The open dialog (the topmost tray) and the sidebar beside it, below the header bar. */
async function dialogAndSidebar(page: Page): Promise<Clip> {
  const tray = await page.locator('.red-ui-tray').last().boundingBox();
  const main = await page.locator('#red-ui-main-container').boundingBox();
  if (tray === null || main === null) throw new Error('no dialog on screen');
  return { x: tray.x, y: main.y, width: main.x + main.width - tray.x, height: main.height };
}

async function flowWithDebug(page: Page): Promise<void> {
  await page.locator('#red-ui-tab-debug-link-button').click();
  // The sound position first, then the zones, so every message fits in the sidebar.
  for (const name of ['sound at (0, 1500)', 'read now']) {
    const inject = page.locator('#red-ui-workspace-chart g.red-ui-flow-node-group', { hasText: name });
    await inject.locator('.red-ui-flow-node-button').click();
  }
  const messages = page.locator('.red-ui-debug-msg');
  await messages.nth(3).waitFor();
  // Open the first zone, so the picture shows what a zone message holds.
  await messages.nth(1).locator('.red-ui-debug-msg-object-handle').first().click();
  // The "Successfully injected" notices would cover the header; they go by themselves after a while.
  await page.locator('.red-ui-notification').last().waitFor({ state: 'hidden' });
  await capture(page, 'flow-debug.png');
}

async function deviceDialog(page: Page, zonesNode: Locator): Promise<void> {
  await zonesNode.dblclick();
  await page.locator('#node-input-btn-device-edit').click();
  await page.locator('#conference-audio-test-connection').click();
  await page.locator('#conference-audio-test-result.conference-audio-ok').waitFor();
  await page.locator('#red-ui-tab-help-link-button').click();
  await capture(page, 'device-dialog.png', await dialogAndSidebar(page));
  await page.locator('#node-config-dialog-cancel').click();
  await page.locator('#node-config-input-host').waitFor({ state: 'detached' });
}

async function zonesDialogWithMap(page: Page): Promise<void> {
  // Tall enough for the whole dialog with its map, so nothing is scrolled out of the picture.
  await page.setViewportSize({ width: viewport.width, height: 1040 });
  await page.locator('#conference-audio-show-zones').click();
  await page.locator('#conference-audio-zone-map svg').waitFor();
  await capture(page, 'zones-dialog-map.png', await dialogAndSidebar(page));
  await page.locator('#node-dialog-cancel').click();
}

const demo = require('../../scripts/start.js') as {
  loadExamples(): Array<{ file: string }>;
  buildDemoFlows(
    examples: unknown[],
    target: { devicePort: number; inlineCredentials: boolean; devicePassword: string },
  ): unknown[];
};

/** The live room view of example 7, the talker standing in the presenter zone. */
async function liveRoomView(page: Page, nodeRed: NodeRed, simulator: DeviceSimulator): Promise<void> {
  const example = demo.loadExamples().filter((candidate) => candidate.file.startsWith('07'));
  await nodeRed.adminJson(
    'POST',
    '/flows',
    demo.buildDemoFlows(example, {
      devicePort: simulator.port,
      inlineCredentials: true,
      devicePassword: password,
    }),
  );
  const presenter = (
    simulator.getState().zones as Array<{
      label: string;
      id: string;
      geometry: { point1: { x: number; y: number }; point2: { x: number; y: number } };
    }>
  ).find((zone) => zone.label === 'Presenter');
  if (presenter === undefined) throw new Error('the simulator has no Presenter zone');
  const { point1, point2 } = presenter.geometry;
  simulator.placeTalker({
    x: point1.x + (point2.x - point1.x) * 0.3,
    y: point1.y + (point2.y - point1.y) * 0.7,
  });
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.goto(`${nodeRed.url}/dashboard/room`);
  await page
    .locator(`g.ca-zone[data-zone-id="${presenter.id}"][data-active="true"]`)
    .waitFor({ timeout: 20000 });
  // Dashboard 2.0 greets a first visit with an "offline ready" notice; it is not part of the view.
  const notice = page.getByRole('button', { name: 'Close' });
  if (await notice.isVisible().catch(() => false)) await notice.click();
  await capture(page, 'dashboard-room.png');
}

/**
 * The Rooms page of example 9, each room on a device of its own: one muted, one whose device is gone,
 * one online, as the page sorts them.
 */
async function roomsPage(page: Page, nodeRed: NodeRed): Promise<void> {
  const broker = await startBroker();
  const devices = new Map<string, DeviceSimulator>();
  try {
    for (const room of exampleRooms) devices.set(room, await startSimulator({ port: 0 }));
    const device = (room: string) => devices.get(room) as DeviceSimulator;
    await nodeRed.adminJson(
      'POST',
      '/flows',
      roomsExampleFlows(broker.port, (room) => device(room).port),
    );
    await page.setViewportSize({ width: 1000, height: 440 });
    await page.goto(`${nodeRed.url}/dashboard/rooms`);
    await page.locator('table tbody tr', { hasText: 'online' }).nth(2).waitFor({ timeout: 30000 });
    device('training').setMuted(true);
    await device('huddle-1').close();
    await page.locator('table tbody tr', { hasText: 'unreachable' }).waitFor({ timeout: 30000 });
    await page.locator('table tbody tr', { hasText: 'muted' }).waitFor({ timeout: 30000 });
    const notice = page.getByRole('button', { name: 'Close' });
    if (await notice.isVisible().catch(() => false)) await notice.click();
    await capture(page, 'dashboard-rooms.png');
  } finally {
    await nodeRed.adminJson('POST', '/flows', []);
    await broker.close();
    for (const simulator of devices.values()) await simulator.close();
  }
}

async function main(): Promise<void> {
  let simulator: DeviceSimulator | undefined;
  let nodeRed: NodeRed | undefined;
  let browser: Browser | undefined;
  try {
    simulator = await simulatorOnReadmePort();
    nodeRed = await startNodeRed({
      waitForTypes: ['conference-audio-device', 'conference-audio-zones', 'conference-audio-zone-lookup'],
      startTimeoutMs: 60000,
    });
    await nodeRed.adminJson('POST', '/flows', exampleFlow(simulator));
    browser = await launchBrowser({ viewport });
    const page = browser.page;
    await page.goto(nodeRed.url);
    const zonesNode = page.locator('#red-ui-workspace-chart g.red-ui-flow-node-group', {
      hasText: 'room zones',
    });
    await zonesNode.waitFor();
    fs.mkdirSync(docsDir, { recursive: true });

    await flowWithDebug(page);
    await deviceDialog(page, zonesNode);
    await zonesDialogWithMap(page);
    await liveRoomView(page, nodeRed, simulator);
    await roomsPage(page, nodeRed);

    if (browser.problems.length > 0) {
      throw new Error(
        `the editor reported problems:\n  ${browser.problems.map(describeProblem).join('\n  ')}`,
      );
    }
  } finally {
    const sim = simulator;
    await cleanUpAll([browser?.close, nodeRed?.stop, sim === undefined ? undefined : () => sim.close()]);
  }
}

// Imported by the README check for `screenshotFiles`: only a direct run makes pictures.
if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exitCode = 1;
  });
}
