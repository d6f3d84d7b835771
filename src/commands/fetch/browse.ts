// Interactive browse (`ahs fetch` with no collection, in a terminal): a
// searchable list of collections, an environment where the chosen one is
// Live, then a checkbox of its items with names, types and sizes. The prompt
// functions are injectable so tests can drive them (@inquirer/testing or a
// pseudo-terminal).
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { isJournalCollection } from '../../service/journal.js';
import { fetchAll } from '../../http/paging.js';
import type { Collection, Item } from '../../rules/schemas.js';
import { formatBytes } from '../../io/progress.js';
import { listItems } from '../../service/collections.js';
import { liveEnvs } from '../../pickers/pick-collection.js';
import { compareText } from '../../order.js';

export interface PickChoice<T> {
  name: string;
  value: T;
  description?: string;
  checked?: boolean;
  /** What the answer line shows once picked. */
  short?: string;
}

export interface BrowsePrompts {
  /** A searchable single choice. */
  search(message: string, choices: PickChoice<string>[]): Promise<string>;
  select(message: string, choices: PickChoice<string>[], preselected?: string): Promise<string>;
  checkbox(message: string, choices: PickChoice<string>[]): Promise<string[]>;
}

export interface BrowseResult {
  collectionId: string;
  envId: string;
  itemIds: string[];
}

export async function browse(ctx: Context, prompts?: BrowsePrompts): Promise<BrowseResult> {
  const ask = prompts ?? (await inquirerPrompts(ctx));
  const api = await ctx.api();
  const out = await ctx.output();
  const collections = (await fetchAll<Collection>(api, api.path('vc'))).filter((c) => !c.deleted && (c.assetItems?.length ?? 0) > 0);
  if (collections.length === 0) throw new UsageError('no collection with items to fetch in this domain');
  const settings = await ctx.settings();
  const preferredEnv = settings.get('envId');

  for (;;) {
    const collectionId = await ask.search(
      'Collection (type to search)',
      collections.map((c) => ({
        // The journal is not content (cli.md, "Memory"): offered, marked as such.
        name: `${c.collectionName} (${c.collectionId})${isJournalCollection(c) ? ' [ahs journal: the team\'s record of writes, not content]' : ''} · ${c.assetItems?.length ?? 0} item(s)`,
        value: c.collectionId,
        description: c.description ?? undefined,
      })),
    );
    const live = await liveEnvs(ctx, collectionId);
    if (live.length === 0) {
      out.warn(`${collectionId} is not Live in any environment; pick another (or deploy it: ahs collection-deploy ${collectionId})`);
      continue;
    }
    let envId: string;
    if (live.length === 1) {
      envId = live[0]!;
      out.info(`Environment: ${envId} (the only one where ${collectionId} is Live)`);
    } else {
      envId = await ask.select(
        'Environment (where it is Live)',
        live.map((e) => ({ name: e, value: e })),
        preferredEnv && live.includes(preferredEnv) ? preferredEnv : undefined,
      );
    }
    // By name, as item sync and fetch's table list them.
    const items = (await listItems(api, collectionId)).sort((a, b) => compareText(a.assetItemName, b.assetItemName) || compareText(a.assetItemId, b.assetItemId));
    const itemIds = await ask.checkbox(
      'Items to download (space toggles, a toggles all, enter confirms)',
      items.map((item: Item) => ({
        name: `${item.assetItemName}  ${dim(ctx, [item.fileName && item.fileName !== item.assetItemName ? item.fileName : undefined, `type ${item.assetType}`, formatBytes(item.size ?? 0)].filter(Boolean).join(' · '))}`,
        value: item.assetItemId,
        short: item.assetItemName,
        checked: true,
      })),
    );
    return { collectionId, envId, itemIds };
  }
}

function dim(ctx: Context, text: string): string {
  return ctx.io.errColor ? `\x1b[2m${text}\x1b[22m` : text;
}

async function inquirerPrompts(ctx: Context): Promise<BrowsePrompts> {
  const { search, select, checkbox } = await import('@inquirer/prompts');
  const context = { input: ctx.io.in, output: ctx.io.err, signal: ctx.signal, clearPromptOnDone: false };
  return {
    search: (message, choices) =>
      search<string>(
        {
          message,
          pageSize: 12,
          source: (term) => {
            const needle = (term ?? '').toLowerCase();
            return choices.filter((c) => !needle || c.name.toLowerCase().includes(needle) || c.value.toLowerCase().includes(needle));
          },
        },
        context,
      ),
    select: (message, choices, preselected) => select<string>({ message, choices, default: preselected }, context),
    checkbox: (message, choices) =>
      checkbox<string>({ message, choices, pageSize: 15, required: true, validate: (picked) => (picked.length > 0 ? true : 'pick at least one item') }, context),
  };
}
