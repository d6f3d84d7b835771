// `ahs emulator start`: runs the emulator until Ctrl-C/SIGTERM (ctx.signal),
// then stops after in-flight requests finish. Exit 0 on a clean stop.
import { UsageError } from '../../errors.js';
import { rawStream } from '../../io/streams.js';
import { DataDirError, FixtureError, startEmulator, type Fixture, type RunningEmulator } from '../../emulator/index.js';
import type { Options, Run } from '../define.js';
import type { startSpec } from './index.js';
import { canAct } from '../../rules/index.js';
import { documentOrLine, emulatorVariables, exportLine } from './variables.js';

type StartOptions = Options<typeof startSpec>;

export const run: Run<typeof startSpec> = async (opts, ctx) => {
  const { io } = ctx;
  const json = ctx.format === 'json';
  const quiet = ctx.globals.quiet;
  let emu: RunningEmulator;
  try {
    emu = await startEmulator({
      host: opts.host,
      port: opts.port,
      ...(opts.config !== undefined ? { config: opts.config } : {}),
      ...(opts.dataDir !== undefined ? { dataDir: opts.dataDir } : {}),
      log: (line) => {
        if (!quiet) io.err.write(`${line}\n`);
      },
    });
  } catch (error) {
    if (error instanceof FixtureError) throw new UsageError(error.message);
    if (error instanceof DataDirError) throw new UsageError(`--data-dir ${opts.dataDir}: ${error.message}`);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
      throw new UsageError(`cannot listen on ${opts.host}:${opts.port} (${code}); choose another --host or --port`);
    }
    throw error;
  }

  // -o json: one line (a script reads the first line it gets); -o yaml: the same document.
  // The banner names the fixture's keys on purpose (they are the emulator's): around the redaction.
  const addresses = { baseUrl: emu.baseUrl, deliveryUrl: emu.deliveryUrl };
  if (json) io.out.write(`${JSON.stringify(addresses)}\n`);
  else rawStream(io.out).write(await documentOrLine(ctx.format, addresses, () => readyText(emu, opts)));

  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  if (!quiet) io.err.write('stopping: waiting for in-flight requests to finish\n');
  await emu.close();
  if (!quiet) io.err.write('emulator stopped\n');
};

function readyText(emu: RunningEmulator, opts: StartOptions): string {
  const lines = [
    'Asset Hosting Service emulator is running.',
    '',
    `  API (--base-url)          ${emu.baseUrl}`,
    `  Delivery (--delivery-url) ${emu.deliveryUrl}`,
    `  Data                      ${opts.dataDir ? `${opts.dataDir} (kept across restarts)` : 'in memory (gone when it stops)'}`,
    '',
  ];
  for (const domain of emu.fixture.domains) lines.push(...domainLines(domain));
  const first = emu.fixture.domains[0]!;
  const key = first.apiKeys[0]?.key;
  lines.push(
    'Point ahs at it (paste in another terminal):',
    `  ${exportLine(emulatorVariables(emu.baseUrl, emu.deliveryUrl, emu.fixture))}`,
    ...(opts.port === 0
      ? ['  (--port 0: the port changes at every start; start with a fixed --port N to keep these lines and a profile valid)']
      : emu.fixture.variation?.deliveryPrefix !== undefined
        ? ['  (the delivery network of this fixture listens on a port chosen at start: use this line, `ahs emulator env` cannot know it)']
        : [`  or, in any shell while it runs: eval "$(${envCommand(opts)})"`]),
    '',
    'Try:',
    `  curl -H "apikey: ${key ?? 'KEY'}" ${emu.baseUrl}/api/v2/${first.domainId}/va`,
    '',
    'Press Ctrl-C to stop.',
    '',
  );
  return lines.join('\n');
}

/** The `ahs emulator env` command line that prints the same export line. */
function envCommand(opts: StartOptions): string {
  const parts = ['ahs emulator env', `--port ${opts.port}`];
  if (opts.host !== '127.0.0.1') parts.push(`--host ${opts.host}`);
  if (opts.config !== undefined) parts.push(`--config ${opts.config}`);
  return parts.join(' ');
}

function domainLines(domain: Fixture['domains'][number]): string[] {
  const actors = domain.users.filter(canAct);
  return [
    `  Domain (--domain)         ${domain.domainId}`,
    `  API key                   ${domain.apiKeys.map((key) => (key.envId ? `${key.key} (${key.envId} only)` : key.key)).join(', ') || '(none)'}`,
    `  User (--user)             ${actors.map((user) => `${user.email} (${user.role})`).join(', ') || '(no active admin or owner)'}`,
    `  Environments (--env)      ${domain.environments.join(', ')}`,
    `  Platforms (--platform)    ${domain.targetPlatforms.join(', ')}`,
    `  Asset types               ${domain.assetTypes.filter((type) => type.active).map((type) => (type.name ? `${type.code} (${type.name})` : type.code)).join(', ')}`,
    '',
  ];
}
