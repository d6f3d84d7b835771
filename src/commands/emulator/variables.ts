// The AHS_* variables that point ahs at an emulator, as `export` lines a
// person pastes (or a shell evals): printed by `emulator start` and, for an
// address given without starting anything, by `emulator env`.
import type { Fixture } from '../../emulator/index.js';

export type EmulatorVariables = Record<'AHS_BASE_URL' | 'AHS_DELIVERY_URL' | 'AHS_DOMAIN' | 'AHS_API_KEY' | 'AHS_USER', string>;

/**
 * The first domain of the fixture, its first domain-wide key (an
 * environment-scoped one when it has none) and its first active owner or
 * admin: the identity that can run every command.
 */
export function emulatorVariables(baseUrl: string, deliveryUrl: string, fixture: Fixture): EmulatorVariables {
  const domain = fixture.domains[0]!;
  const key = domain.apiKeys.find((k) => !k.envId) ?? domain.apiKeys[0];
  const user = domain.users.find((u) => u.active && (u.role === 'owner' || u.role === 'admin'));
  return {
    AHS_BASE_URL: baseUrl,
    AHS_DELIVERY_URL: deliveryUrl,
    AHS_DOMAIN: domain.domainId,
    AHS_API_KEY: key?.key ?? '',
    AHS_USER: user?.email ?? '',
  };
}

/** One POSIX `export` line; values quoted only when the shell would split or expand them. */
export function exportLine(variables: EmulatorVariables): string {
  return `export ${Object.entries(variables)
    .map(([name, value]) => `${name}=${shellWord(value)}`)
    .join(' ')}`;
}

function shellWord(value: string): string {
  return /^[A-Za-z0-9@%+=:,./_-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The URL a client uses for HOST:PORT: a wildcard bind is reached through the loopback address. */
export function addressUrl(host: string, port: number): string {
  if (host === '0.0.0.0' || host === '') return `http://127.0.0.1:${port}`;
  if (host === '::') return `http://[::1]:${port}`;
  return host.includes(':') ? `http://[${host}]:${port}` : `http://${host}:${port}`;
}

/**
 * What `emulator env|start` print for the output format asked: the document
 * as indented JSON or as YAML (`-o json|yaml`), else the text form (the
 * export line, the banner: -o table and -o wide alike, they have no table).
 */
export async function documentOrLine(format: string, document: object, text: () => string): Promise<string> {
  if (format === 'json') return `${JSON.stringify(document, null, 2)}\n`;
  if (format === 'yaml') return (await import('yaml')).stringify(document);
  return text();
}
