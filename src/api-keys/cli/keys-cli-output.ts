import { ApiKeyView, CreatedApiKey } from '../api-key.view';

const COLUMNS: [header: string, value: (key: ApiKeyView) => string | null][] = [
  ['KEY ID', (key) => key.key_id],
  ['ACCOUNT', (key) => key.account_id],
  ['TYPE', (key) => key.account_type],
  ['NAME', (key) => key.name],
  ['STATUS', (key) => key.status],
  ['CREATED', (key) => key.created_at],
  ['EXPIRES', (key) => key.expires_at],
  ['LAST USED', (key) => key.last_used_at],
];

/** The list as an aligned table, one key a line; `-` for a time that never was. */
export function formatKeyTable(keys: ApiKeyView[]): string {
  if (keys.length === 0) return 'No API keys.\n';
  const rows = [COLUMNS.map(([header]) => header), ...keys.map((key) => COLUMNS.map(([, value]) => value(key) ?? '-'))];
  const widths = COLUMNS.map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return (
    rows
      .map((row) =>
        row
          .map((cell, column) => cell.padEnd(widths[column]))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

/** What `create` says beside the key: on stderr, so `KEY=$(npm run -s keys -- create …)` captures the key alone. */
export function describeCreated(created: CreatedApiKey): string {
  const expiry = created.expires_at ? `expires ${created.expires_at}` : 'no expiry';
  return (
    `Created API key ${created.key_id} for account ${created.account_id} (type ${created.account_type}), ${expiry}.\n` +
    'This is the only time the key is shown: store it now.\n'
  );
}

export function describeRevoked(key: ApiKeyView): string {
  return `Revoked API key ${key.key_id} (account ${key.account_id}) at ${key.revoked_at}.\n`;
}
