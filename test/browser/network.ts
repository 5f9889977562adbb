/**
 * Every request a browser context makes, and which of them would leave this machine. Requests to another
 * host are recorded and aborted, so a test that finds one fails without the request ever being sent.
 * For any page of the demo: the editor (test/browser/offline.test.ts) and the dashboard alike.
 */
import type { BrowserContext, Page, WebSocket } from 'playwright-core';

/** Addresses that stay on this machine: loopback, and URLs that never go to a network. */
export function isLocalAddress(address: string): boolean {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return false;
  }
  if (['data:', 'blob:', 'about:', 'javascript:'].includes(url.protocol)) return true;
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol)) return false;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

export interface RequestRecorder {
  /** Every URL requested since recording began (HTTP and WebSocket), in order. */
  readonly requests: readonly string[];
  /** The requested URLs that go to another host than this machine (each was aborted). */
  nonLocal(): string[];
  stop(): Promise<void>;
}

/** Starts recording (and guarding) every request of `context`'s pages, workers included. */
export async function recordRequests(context: BrowserContext): Promise<RequestRecorder> {
  const requests: string[] = [];
  const onRequest = (request: { url(): string }) => requests.push(request.url());
  const onWebSocket = (socket: WebSocket) => requests.push(socket.url());
  const watchPage = (page: Page) => page.on('websocket', onWebSocket);
  const toOtherHosts = (url: URL) => !isLocalAddress(url.href);
  context.on('request', onRequest);
  context.on('page', watchPage);
  for (const page of context.pages()) watchPage(page);
  await context.route(toOtherHosts, (route) => route.abort('blockedbyclient'));
  return {
    requests,
    nonLocal: () => [...new Set(requests.filter((url) => !isLocalAddress(url)))],
    async stop() {
      context.off('request', onRequest);
      context.off('page', watchPage);
      for (const page of context.pages()) page.off('websocket', onWebSocket);
      await context.unroute(toOtherHosts);
    },
  };
}
