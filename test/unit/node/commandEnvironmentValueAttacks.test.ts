import assert from 'node:assert/strict';
import { withoutSecrets } from '../../../src/node/commandEnvironment';

// Attacks on docs/security.md §4.2 "Never: inherit a variable that looks like a credential … by value: a URL's or a
// command line's password, a known key format …". Each value sits under a name that says nothing (`NOTIFY`, `EXTRA`), as
// a CI system's or a user's shell may hold it; each reached every command and MCP server before the fix.
const keptOf = (values: Record<string, string>): string[] => Object.keys(withoutSecrets(values));

describe('attack: credentials by value that withoutSecrets kept', () => {
  it('attack: keys of known formats: an age identity, a Telegram bot token, Shopify, DigitalOcean and Databricks tokens', () => {
    assert.deepEqual(
      keptOf({
        AGE: `AGE-SECRET-KEY-1${'QYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSHJDGQ'}`,
        BOT: '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw',
        SHOP: 'shpat_0123456789abcdef0123456789abcdef',
        DO: `dop_v1_${'0123456789abcdef'.repeat(4)}`,
        DBX: 'dapi0123456789abcdef0123456789abcdef',
      }),
      [],
    );
  });

  it('attack: a URL with a credential in its query under another name: GitLab\'s private_token, refresh, id and auth tokens, a JWT, a session', () => {
    const values = ['private_token', 'refresh_token', 'id_token', 'auth_token', 'access-token', 'jwt', 'sessionid', 'client_secret', 'x-api-key'];
    assert.deepEqual(keptOf(Object.fromEntries(values.map((name, index) => [`LINK_${index}`, `https://gitlab.example.com/api/v4/projects?${name}=abc123`]))), []);
  });

  it('attack: webhooks whose secret is in the path: Discord, Teams, a Telegram bot\'s URL', () => {
    assert.deepEqual(
      keptOf({
        DISCORD: 'https://discord.com/api/webhooks/123456789/abcdefABCDEF0123456789-_',
        TEAMS: 'https://contoso.webhook.office.com/webhookb2/0123abcd-0000@tenant/IncomingWebhook/abc/def',
        TELEGRAM: 'https://api.telegram.org/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/sendMessage',
      }),
      [],
    );
  });

  it('attack: a command line giving a password through a prefixed option, or assigning a variable named like a credential', () => {
    assert.deepEqual(
      keptOf({
        MIGRATE: 'migrate --db-password=hunter2 up',
        KAFKA: 'kcat -X --sasl_password=hunter2',
        PSQL: 'PGPASSWORD=hunter2 psql -h db',
        SETUP: 'export API_TOKEN=abcd1234',
      }),
      [],
    );
  });

  it('keeps what names no credential: a prefixed option without its value, plain URLs and queries, ordinary assignments', () => {
    const plain = {
      DB_CLI: 'mysql --skip-password -h db app',
      DOCS: 'https://example.com/search?q=token&page=2',
      LOCALE_SETUP: 'LANG=C.UTF-8 make',
      SORTING: 'https://example.com/list?sort=name&order=asc',
      RELEASE: 'v1.2.3',
    };
    assert.deepEqual(keptOf(plain), Object.keys(plain));
  });
});
