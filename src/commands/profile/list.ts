// ahs profile list
import type { Run } from '../define.js';
import type { listSpec } from './index.js';
import { profileView } from './view.js';

export const run: Run<typeof listSpec> = async (_options, ctx) => {
  const store = await ctx.profiles();
  const out = await ctx.output();
  const current = store.current();
  const views = store.names().map((name) => profileView(name, store.get(name)!, name === current));
  out.print(views, (rows, kit) => {
    if (rows.length === 0) {
      out.info('no profiles yet: ahs profile add NAME --base-url URL --domain ID --user EMAIL --api-key-stdin');
      return undefined;
    }
    return kit.table(
      [
        { header: '', get: (v) => (v.current ? '*' : '') },
        { header: 'NAME', get: (v) => v.name },
        { header: 'BASE URL', get: (v) => v.baseUrl },
        { header: 'DOMAIN', get: (v) => v.domainId },
        { header: 'ENV', get: (v) => v.envId },
        { header: 'PLATFORM', get: (v) => v.platform },
        { header: 'USER', get: (v) => v.user },
        { header: 'API KEY', get: (v) => v.apiKey ?? '' },
      ],
      rows,
    );
  });
};
