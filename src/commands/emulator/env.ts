// `ahs emulator env --port N`: the export lines for an emulator on that
// address, without starting one (for `eval "$(ahs emulator env --port 4010)"`).
import { UsageError } from '../../errors.js';
import { FixtureError, loadFixture } from '../../emulator/index.js';
import { rawStream } from '../../io/streams.js';
import { nameOf, type Run } from '../define.js';
import { envSpec } from './index.js';
import { addressUrl, emulatorVariables, exportLine } from './variables.js';

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
  out.write(ctx.format === 'json' ? `${JSON.stringify(variables, null, 2)}\n` : `${exportLine(variables)}\n`);
};
