// `ahs emulator env --port N`: the export lines for an emulator on that
// address, without starting one (for `eval "$(ahs emulator env --port 4010)"`).
import { UsageError } from '../../errors.js';
import { FixtureError, loadFixture } from '../../emulator/index.js';
import { rawStream } from '../../io/streams.js';
import { nameOf, type Run } from '../define.js';
import { envSpec } from './index.js';
import { addressUrl, documentOrLine, emulatorVariables, exportLine } from './variables.js';

export const run: Run<typeof envSpec> = async (opts, ctx) => {
  if (opts.port === undefined) {
    throw new UsageError(`${nameOf(envSpec, 'port')} is required: the port \`ahs emulator start --port N\` listens on (with --port 0 it changes at every start)`);
  }
  let fixture;
  try {
    fixture = await loadFixture(opts.config);
  } catch (error) {
    if (error instanceof FixtureError) throw new UsageError(error.message);
    throw error;
  }
  if (fixture.variation?.deliveryPrefix !== undefined) {
    throw new UsageError('this fixture serves the delivery network on a port chosen at start (variation deliveryPrefix): copy the export line `ahs emulator start` prints');
  }
  const url = addressUrl(opts.host, opts.port);
  const variables = emulatorVariables(url, url, fixture);
  // The text form straight to stdout: it is shell code for eval, with no decoration.
  // The fixture's key is printed on purpose (it is the emulator's, for eval), even when
  // AHS_API_KEY holds the same value: around the redaction every other output gets.
  const out = rawStream(ctx.io.out);
  out.write(await documentOrLine(ctx.format, variables, () => `${exportLine(variables)}\n`));
  // The settings are printed either way (one may set them before starting the emulator), but a port where
  // nothing listens is said: the next command would fail with "connection refused".
  const silent = await nothingListens(new URL(url));
  if (silent) (await ctx.output()).warn(`nothing listens on ${new URL(url).host} (${silent}): start the emulator there with ahs emulator start --port ${opts.port}${opts.host === '127.0.0.1' ? '' : ` --host ${opts.host}`}`);
};

/** Why nothing answers a TCP connect to the URL's host and port (refused, unreachable, or not within a second), or undefined when something listens. */
async function nothingListens(url: URL): Promise<string | undefined> {
  const { connect } = await import('node:net');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket = connect({ host, port: Number(url.port) });
    const done = (why: string | undefined) => {
      socket.destroy();
      resolve(why);
    };
    socket.setTimeout(1000, () => done('no answer within 1 s'));
    socket.once('connect', () => done(undefined));
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code === 'ECONNREFUSED' ? 'connection refused' : (error.code ?? error.message)));
  });
}
