import type { Accounts } from '../accounts';
import type { DeviceContext } from '../device';
import { type Exchange, type Routes, sendError, sendJsonAnswer } from '../exchange';
import { readJsonBody } from '../request-body';
import type { RequestLog } from '../request-log';
import type { SimulatorAccount } from '../types';
import { isRecord } from '../zones';

/**
 * What a client meets before the device's resources: the API description, the login, and the security
 * policy (admin only).
 */
export function sessionRoutes(
  device: DeviceContext,
  accounts: Accounts,
  log: RequestLog,
  allRoutes: () => Routes,
): Routes {
  return {
    '/api/v1': {
      minimumRole: null,
      methods: { GET: (exchange) => describeApi(exchange, device, allRoutes()) },
    },
    '/api/v1/auth/login': {
      minimumRole: null,
      methods: { POST: (exchange) => login(exchange, accounts, log) },
    },
    '/api/v1/security/policy': {
      minimumRole: 'admin',
      methods: {
        GET: (exchange) =>
          sendJsonAnswer(exchange, 200, {
            passwordPolicy: { minimumLength: 8 },
            generalAccountEnabled: true,
            httpsOnly: true,
          }),
      },
    },
  };
}

function describeApi(exchange: Exchange, device: DeviceContext, routes: Routes): void {
  const endpoints = Object.entries(routes).flatMap(([path, route]) =>
    Object.keys(route.methods).map((method) => ({ method, path, minimumRole: route.minimumRole ?? 'none' })),
  );
  sendJsonAnswer(exchange, 200, {
    name: 'Conference audio device (simulator)',
    apiVersion: 'v1',
    model: device.model,
    firmwareVersion: device.firmwareVersion,
    endpoints,
  });
}

async function login(exchange: Exchange, accounts: Accounts, log: RequestLog): Promise<void> {
  const body = await readJsonBody(exchange);
  if (body === undefined) {
    log.counters.failedLogins += 1;
    return;
  }
  const problems: string[] = [];
  if (!isRecord(body)) problems.push('Request body must be a JSON object');
  else {
    const unknownMembers = Object.keys(body).filter((key) => key !== 'account' && key !== 'password');
    if (body.account !== 'general' && body.account !== 'admin')
      problems.push('Unsupported Attributes: account.');
    if (typeof body.password !== 'string') problems.push('Unsupported Attributes: password.');
    if (unknownMembers.length > 0) problems.push(`Unsupported Attributes: ${unknownMembers.join(', ')}.`);
  }
  if (problems.length > 0 || !isRecord(body)) {
    log.counters.failedLogins += 1;
    sendError(exchange, 400, problems);
    return;
  }
  const account: SimulatorAccount = body.account === 'admin' ? 'admin' : 'general';
  if (!accounts.passwordMatches(account, String(body.password))) {
    log.counters.failedLogins += 1;
    sendError(exchange, 401, ['Invalid account or password']);
    return;
  }
  log.counters.logins += 1;
  sendJsonAnswer(exchange, 200, { authParameters: accounts.tokenFor(account) });
}
