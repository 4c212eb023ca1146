import pg from 'pg';

/** Where a copy of a campaign lives: its own id, guild and channel. */
export interface CloneTarget {
  readonly id: string;
  readonly guildId: string;
  readonly channelId: string;
}

/** Tables in an order that inserts every row after the rows its foreign keys name. */
async function tablesInKeyOrder(client: pg.Client): Promise<string[]> {
  const tables = (await client.query<{ name: string }>("select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name")).rows.map((r) => r.name);
  const keys = (await client.query<{ child: string; parent: string }>("select conrelid::regclass::text as child, confrelid::regclass::text as parent from pg_constraint where contype = 'f' and conrelid <> confrelid")).rows;
  const order: string[] = [];
  const placed = new Set<string>();
  while (order.length < tables.length) {
    const next = tables.find((t) => !placed.has(t) && keys.every((k) => k.child !== t || placed.has(k.parent) || !tables.includes(k.parent)));
    if (next === undefined) throw new Error(`pgClone: the foreign keys of ${tables.filter((t) => !placed.has(t)).join(', ')} form a cycle`);
    order.push(next);
    placed.add(next);
  }
  return order;
}

/**
 * Copies one campaign's rows (in every table keyed by the campaign) to many new campaigns, in one
 * statement a table: the big test's 1,000 campaigns in a second instead of 1,000 runs of the
 * commands that made the first. Every text value has the template's id, guild id and channel id
 * replaced by the copy's (ids are random hex, snowflakes are 18 digits: nothing else matches);
 * identity columns take new values. PostgreSQL only (the test database).
 */
export async function cloneCampaign(url: string, template: CloneTarget, copies: readonly CloneTarget[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const columns = (await client.query<{ table: string; column: string; type: string; identity: string }>(
      "select table_name as table, column_name as column, data_type as type, is_identity as identity from information_schema.columns where table_schema = 'public' order by table_name, ordinal_position",
    )).rows;
    const ids = [copies.map((c) => c.id), copies.map((c) => c.guildId), copies.map((c) => c.channelId)];
    await client.query('begin');
    for (const table of await tablesInKeyOrder(client)) {
      const own = columns.filter((c) => c.table === table && c.identity !== 'YES');
      const key = table === 'campaigns' ? 'id' : 'campaign_id';
      if (!own.some((c) => c.column === key) || table === '__drizzle_migrations') continue;
      const value = (c: (typeof own)[number]): string => {
        const col = `t.${client.escapeIdentifier(c.column)}`;
        if (c.type !== 'text') return col;
        return `replace(replace(replace(${col}, $1, n.id), $2, n.guild), $3, n.channel)`;
      };
      const names = own.map((c) => client.escapeIdentifier(c.column)).join(', ');
      await client.query(
        `insert into ${client.escapeIdentifier(table)} (${names}) select ${own.map(value).join(', ')} from ${client.escapeIdentifier(table)} t, unnest($4::text[], $5::text[], $6::text[]) as n(id, guild, channel) where t.${client.escapeIdentifier(key)} = $1`,
        [template.id, template.guildId, template.channelId, ...ids],
      );
    }
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    await client.end();
  }
}
