import assert from 'node:assert/strict';
import { withoutSecrets, withSafeGitConfig } from '../../../src/node/commandEnvironment';

/** Variables a command needs and that hold nothing secret: they reach it unchanged. */
const kept: [name: string, value: string][] = [
  ['PATH', '/usr/local/bin:/usr/bin:/bin'],
  ['HOME', '/home/u'],
  ['LANG', 'C.UTF-8'],
  ['LC_ALL', 'en_US.UTF-8'],
  ['NODE_ENV', 'test'],
  ['TERM', 'xterm-256color'],
  ['SHELL', '/bin/bash'],
  ['PWD', '/home/u/project'],
  ['KEYBOARD_LAYOUT', 'us'],
  ['DATABASE_URL', 'postgres://db.internal:5432/app'],
  ['REDIS_URL', 'redis://localhost:6379/0'],
  ['API_BASE_URL', 'https://api.example.com/v1?region=eu'],
  ['GIT_REMOTE', 'ssh://git@github.com/acme/app.git'],
  ['npm_config_registry', 'https://registry.npmjs.org/'],
  ['GIT_COMMIT', '9fceb02d0ae598e95dc970b74767f19372d61af8'],
  ['INVOCATION_ID', 'a3c1f2e4b5d6478899aabbccddeeff00'],
  ['BUILD_ID', '550e8400-e29b-41d4-a716-446655440000'],
  ['LS_COLORS', 'rs=0:di=01;34:ln=01;36:mi=00:pi=40;33:so=01;35:do=01;35:bd=40;33;01'],
  ['NODE_OPTIONS', '--max-old-space-size=4096'],
  ['JAVA_TOOL_OPTIONS', '-Dfile.encoding=UTF-8 -Xmx2g'],
  ['GREETING', 'Hello world, this is a long but ordinary sentence'],
  ['CamelSetting', 'ThisIsAPlainCamelCaseIdentifier'],
  ['OLDPWD', '/home/u'],
  ['LOGNAME', 'u'],
  ['BUNDLE_GEMFILE', '/home/u/project/Gemfile'],
  ['BUNDLE_PATH', 'vendor/bundle'],
  ['PASSENGER_ENV', 'production'],
  ['HEADER_FILE', 'include/app.h'],
  ['DESCRIPTION', 'a bearer of good news'],
  ['PINNED_VERSION', '1.2.3'],
  ['SPINNER', 'dots'],
  ['PWD_PARENT', '/home'],
  ['VAULT_ADDR', 'https://vault.internal:8200'],
  ['SEED', '42'],
  // Where each new rule stops (found by mutation testing).
  ['BUILD_PWDIR', '/tmp/build'],
  ['LOGIN_SHELL', '/bin/bash'],
  ['MY_BUNDLE_DIR__X', 'vendor'],
  ['OLD_VSCODE_GIT_FLAG', '1'],
  ['MY_TASK_PLANNER_MCP_INPUT_NOTE', 'plain words'],
  // Where the rules widened after the 2026-12-02 attack stop: PASS, KEY, SEED, AUTH and the value shapes.
  ['FTP_PASSIVE', '1'],
  ['PROXY_PASSTHROUGH', 'on'],
  ['SSL_PASS_THRU', 'on'],
  ['COMPASS_DIR', 'styles'],
  ['BYPASS_CACHE', '1'],
  ['GNOME_KEYRING_PID', '1234'],
  ['XKB_DEFAULT_LAYOUT', 'us'],
  ['KEYSTORE_TYPE', 'pkcs12'],
  ['GIT_AUTHOR_NAME', 'Ann Example'],
  ['GIT_AUTHOR_EMAIL', 'Ann.Example42@Example.com'],
  ['RANDOM_SEED', '1234'],
  ['PYTHONHASHSEED', 'random'],
  ['SEEDING', 'on'],
  ['PIPELINE', 'main'],
  ['HOTPLUG', 'yes'],
  ['VIRTUAL_ENV', '/home/u/project/.venv'],
  ['EDITOR', 'vim'],
  ['CFLAGS', '-O2 -pthread -pipe -pedantic'],
  ['DOCKER_ARGS', '-u 1000 -p 8080:80'],
  ['MAKE_ARGS', 'mkdir -p build'],
  ['NPM_REGISTRY', 'http://localhost:4873/@types/node'],
  ['SCOPED', 'https://registry.example.com/@acme/app'],
  ['VERSION_TAG', 'v1.2.3-Beta.4'],
  ['CLASSPATH', 'lib/Foo-1.0.jar:lib/Bar2.jar'],
  ['PROMPT', '$P$G'],
  ['SHORT_B32', 'JBSWY3DPEHPK3PX'],
  ['HEX_256', 'a3c1f2e4b5d6478899aabbccddeeff00a3c1f2e4b5d6478899aabbccddeeff0'],
  // Settings written like a header whose name only starts like a credential's, and an Authorization word alone.
  ['SPLITTER', 'tokenizer: bpe'],
  ['LAYOUT', 'key-map: emacs'],
  ['NOTE', 'see the authorization docs'],
  ['MODE_TEXT', 'authorization: none'],
  ['LIST', 'x-token-list'],
];

/** Credentials by name, by value, or inside a URL or connection string: never reach a command. */
const removed: [name: string, value: string][] = [
  ['OPENAI_API_KEY', 'x'],
  ['ANTHROPIC_API_KEY', 'x'],
  ['GITHUB_TOKEN', 'x'],
  ['NPM_TOKEN', 'x'],
  ['AWS_SECRET_ACCESS_KEY', 'x'],
  ['AWS_ACCESS_KEY_ID', 'x'],
  ['AZURE_OPENAI_KEY', 'x'],
  ['DATABASE_PASSWORD', 'x'],
  ['PGPASSWORD', 'x'],
  ['SSH_AUTH_SOCK', '/tmp/agent'],
  ['SESSION_COOKIE', 'x'],
  ['HF_TOKEN', 'x'],
  ['GOOGLE_APPLICATION_CREDENTIALS', '/k.json'],
  ['my_apikey', 'x'],
  ['PRIVATE_KEY', 'x'],
  // Names ending in _KEY or _DSN, whatever they hold.
  ['MY_SERVICE_KEY', 'abc'],
  ['STRIPE_KEY', 'abc'],
  ['KEY', 'abc'],
  ['SENTRY_DSN', 'https://public@o0.ingest.sentry.io/1'],
  ['ANALYTICS_DSN', 'anything'],
  // URLs with credentials in the user info or the query, under any name.
  ['DATABASE_URL', 'postgres://u:pass@db.internal:5432/app'],
  ['REDIS_URL', 'redis://:s3cret@localhost:6379/0'],
  ['MONGO', 'mongodb+srv://admin:hunter2@cluster0.example.net/db'],
  ['PIP_INDEX_URL', 'https://user:pw@pypi.example.com/simple'],
  ['HTTPS_PROXY', 'http://alice:wonderland@proxy:3128'],
  ['REPO', 'https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/acme/app.git'],
  ['WEBHOOK_URL', 'https://hooks.example.com/in?token=abc123'],
  ['BLOB_URL', 'https://acct.blob.core.windows.net/c/f?sv=2022&sig=AbC%2Bdef'],
  ['CALLBACK', 'https://x.example.com/cb?api_key=zzz&x=1'],
  // Connection strings (DSNs) with a password.
  ['CONNECTION_STRING', 'Server=db;Database=app;User Id=sa;Password=Pa55word;'],
  ['PG_CONN', 'host=db user=app password=hunter2 dbname=app'],
  // Values shaped like keys under innocent names.
  ['HARMLESS_1', 'sk-proj-abcdefghijklmnopqrstuv'],
  ['HARMLESS_2', 'AKIAABCDEFGHIJKLMNOP'],
  ['HARMLESS_3', 'xoxb-1234567890-abcdef'],
  ['HARMLESS_4', 'glpat-abcdefghijklmnopqrst'],
  ['HARMLESS_5', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789'],
  ['HARMLESS_6', 'sk_live_51HabcdefGHIJKLmnopqrstuv'],
  ['HARMLESS_7', 'npm_abcdefghijklmnopqrstuvwxyz0123456789'],
  ['HARMLESS_8', 'ASIAABCDEFGHIJKLMNOP'],
  ['HARMLESS_9', 'ya29.a0AfH6SMBxyzabcdefghijklmnop'],
  ['HARMLESS_10', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dGhpc2lzYXNpZ25hdHVyZQ'],
  ['CURL_HEADER', 'Authorization: Bearer sk-ant-api03-abcdefghijklmnopqrstuv'],
  ['OPAQUE', 'q8Zr2LmX9vT4kP7wN1cY5bH3jD6fG0sA'],
  ['OPAQUE_B64', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'],
  // The CLI's MCP inputs (attack: a command running `env` printed the password into its output and the journal).
  ['TASK_PLANNER_MCP_INPUT_DB', 'correct-horse-battery'],
  ['TASK_PLANNER_MCP_INPUT_X', 'x'],
  ['task_planner_mcp_input_db', 'plain words'],
  // Found by an outside attack (each reached `env` run by a plan, and the journal).
  ['MYSQL_PWD', 'hunter2!secret'],
  ['DB_PASS', 'Tr0ub4dor&3-horse'],
  ['SMTP_PASS', 'correct horse battery'],
  ['PGPASSFILE', '/home/u/.pgpass'],
  ['BUNDLE_GEMS__CONTRIBSYS__COM', 'myuser:s3cr3tpassw0rd'],
  ['OTEL_EXPORTER_OTLP_HEADERS', 'authorization=Bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0'],
  ['SOME_SETTING', `AUTHORIZATION: basic ${Buffer.from('x-access-token:ghs_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789').toString('base64')}`],
  ['STORAGE_CONNECTION_STRING', 'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=Zm9vYmFy==;EndpointSuffix=core.windows.net'],
  ['SERVICEBUS_CONNECTION', 'Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=Zm9vYmFy='],
  ['SLACK_WEBHOOK_URL', 'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX'],
  ['NOTIFY', 'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX'],
  ['TLS_CERT_AND_KEY', '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----'],
  ['SIGNING', '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----'],
  ['SONAR_LOGIN', '0123456789abcdef0123456789abcdef01234567'],
  ['KAGGLE_CONFIG', '{"username":"me","key":"0123456789abcdef0123456789abcdef"}'],
  ['EXTRA_ARGS', '--header "Bearer abcdefgh12345678"'],
  ['PASS', 'x'],
  ['PRIVATE_KEY_PATH', '/home/u/k.pem'],
  ['LOGIN', 'me'],
  ['HEADERS', 'x'],
  ['EXTRA_HEADER', 'x-foo: 1'],
  ['AUTH_LINE', 'authorization = basic abc'],
  ['AUTH_TIGHT', 'authorization:basic dXNlcg'],
  ['WIDE_BEARER', 'Bearer  abcdefgh12'],
  ['JSON_APIKEY', '{"apikey":"v"}'],
  ['JSON_SPACED', '{"token" : "v"}'],
  ['JSON_AFTER', '{"secret": "v"}'],
  // Ways to ask the editor for the user's git credentials.
  ['GIT_ASKPASS', '/home/u/.vscode-server/bin/askpass.sh'],
  ['SSH_ASKPASS', '/usr/bin/ssh-askpass'],
  ['VSCODE_GIT_ASKPASS_MAIN', '/home/u/.vscode-server/askpass-main.js'],
  ['VSCODE_GIT_IPC_HANDLE', '/run/user/1000/vscode-git-abc.sock'],
  // An outside attacker's finds (2026-12-01): each reached a command and the run's journal.
  ['DB_PW', 'x'],
  ['MYSQL_ROOT_PW', 'x'],
  ['SMTP_CREDS', 'mailer:MailPass2024'],
  ['VAULT_ROOT', 'hvs.CAESIJlWh0a9QvLX0123456789abcdefgh'],
  ['MNEMONIC', 'abandon ability able about above absent absorb abstract absurd abuse access accident'],
  ['WALLET_SEED_PHRASE', 'x'],
  ['ADMIN_PIN', '1234'],
  ['DATABASE_URL', 'postgres://app@db/x?sslpassword=hunter2'],
  // An outside attacker's finds (2026-12-02): each reached printenv run by a plan, the journal and an MCP server's environment.
  ['SSHPASS', 'hunter2-sshpass'],
  ['DBPASS', 'hunter2-dbpass'],
  ['SMTPPASS', 'hunter2-smtp'],
  ['MASTERKEY', 'hunter2-master'],
  ['PASSCODE', 'hunter2-passcode'],
  ['ADMIN_PASSWD_HASHED', 'x'],
  ['DB_CONN', 'mysql -uroot -phunter2-cli'],
  ['OTP_SEED', 'JBSWY3DPEHPK3PXP'],
  ['INNOCENT_B32', 'JBSWY3DPEHPK3PXP'],
  ['INNOCENT_PASSWORD', 'Tr0ub4dor&3'],
  // The same kinds, named or shaped a little differently.
  ['GPG_PASSPHRASE', 'x'],
  ['APIKEY', 'x'],
  ['PRIVATEKEY', 'x'],
  ['SIGNINGKEY_PATH', '/k'],
  ['ENCRYPTION_KEYS', 'x'],
  ['TOTP_SECRET_B', 'x'],
  ['OTP', '123456'],
  ['SIM_PIN2', '1234'],
  ['WALLET_SEED', 'abandon ability able'],
  ['SEED', 'abandon ability able about'],
  ['OAUTH_CLIENT', 'x'],
  ['AUTHORIZATION', 'x'],
  ['X_CREDENTIALS', 'x'],
  ['BROWSER_COOKIES', 'x'],
  ['USER_SESSION', 'x'],
  ['MYSQL_CMD', 'mysqldump -h db -psecret app'],
  ['MARIADB', '/usr/bin/mariadb --user=app --password=s3cret! app'],
  // An outside attacker's finds (2026-12-03): git's http.extraHeader given these reached git run under an allow rule. Named
  // plainly, so the value alone decides.
  ['SETTING_A', 'PRIVATE-TOKEN: glpat-abcdefghij0123456789'],
  ['SETTING_B', 'X-Api-Key: 0123456789'],
  ['SETTING_C', 'X-ApiKey: 0123456789'],
  ['SETTING_D', 'Authorization: ApiKey abc'],
  ['SETTING_E', 'Authorization: Digest username="u", response="x"'],
  ['SETTING_F', 'Authorization: Custom  abc'],
  ['SETTING_G', 'Cookie: a'],
  ['SETTING_H', 'Service-Auth: abc'],
  ['SETTING_I', 'X-Service-Key: a'],
  ['SETTING_J', 'Accept: */*\nX-Secret: abc'],
  ['SETTING_K', 'PRIVATE-TOKEN:x'],
  ['SETTING_L', 'PRIVATE-TOKEN : x'],
  ['SETTING_M', '  X-Api-Key: 1'],
  ['CLI_LOGIN', 'tool --password hunter2 --host db'],
  ['OPENSSL_ARGS', 'enc -aes256 -passin pass:hunter2'],
  ['SSH_CMD', 'sshpass -p hunter2 ssh host'],
  ['LOWER_B32', 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'],
  ['HEX_KEY', '4c1f7a9e2b8d3c6f0a5e9d2b7c4f1a8e3d6b9c2f5a8e1d4b7c0f3a6e9d2c5b8f'],
  ['WALLET', '0x4c1f7a9e2b8d3c6f0a5e9d2b7c4f1a8e3d6b9c2f5a8e1d4b7c0f3a6e9d2c5b8f'],
  ['PW_SPECIAL', 'P@ssw0rd!2024'],
  ['PW_BRACKETS', 'x9{Ab}c7[Q]'],
  ['URL_SPECIAL', 'postgres://app:p#ss/w?rd@db.internal/app'],
  ['URL_AT', 'redis://:p@ss@localhost:6379'],
];

/** One test per row: each kept variable reaches a command unchanged, each removed one not at all. */
function itFilters(keptRows: [name: string, value: string][], removedRows: [name: string, value: string][]): void {
  for (const [name, value] of keptRows) {
    it(`keeps ${name}=${value}`, () => {
      assert.deepEqual(withoutSecrets({ [name]: value }), { [name]: value });
    });
  }
  for (const [name, value] of removedRows) {
    it(`removes ${name}=${value}`, () => {
      assert.deepEqual(withoutSecrets({ [name]: value }), {});
    });
  }
}

describe('withoutSecrets', () => {
  itFilters(kept, removed);

  it('filters a whole environment at once, leaving unset variables out', () => {
    const result = withoutSecrets({ ...Object.fromEntries(kept), UNSET: undefined });
    assert.deepEqual(Object.keys(result).sort(), kept.map(([name]) => name).sort());
  });

  describe('where each rule stops', () => {
    const a = (count: number): string => 'a'.repeat(count);
    // Each service's key format at its shortest, inside a longer text (so only the key rule can apply)…
    const shortestKeys = [
      `sk-${a(16)}`, `rk_test_${a(16)}`, `ghs_${a(20)}`, `github_pat_${a(20)}`, `glpat-${a(16)}`, `xoxp-${a(10)}`, `xapp-${a(10)}`, `AKIA${'A'.repeat(16)}`,
      `AIza${a(30)}`, `ya29.${a(20)}`, `hf_${a(20)}`, `hvs.${a(20)}`, `hvb.${a(20)}`, `npm_${a(30)}`, `pypi-${a(30)}`, `SG.${a(16)}.${a(16)}`,
      `eyJ${a(10)}.${a(10)}.`,
    ];
    // …and one character short of it, or glued to a word: not a key.
    const nearKeys = [
      `sk-${a(15)}`, `rk_test_${a(15)}`, `ghs_${a(19)}`, `github_pat_${a(19)}`, `glpat-${a(15)}`, `xoxp-${a(9)}`, `xapp-${a(9)}`, `AKIA${'A'.repeat(15)}`,
      `AIza${a(29)}`, `ya29.${a(19)}`, `hf_${a(19)}`, `hvs.${a(19)}`, `npm_${a(29)}`, `pypi-${a(29)}`, `SG.${a(16)}.${a(15)}`, `eyJ${a(10)}.${a(9)}`, `task-${a(16)}`,
    ];
    const token = 'q8Zr2LmX9vT4kP7wN1cY5bH3jD6fG0sA';
    const keptAtTheEdge: [name: string, value: string][] = [
      ...nearKeys.map((key): [string, string] => ['CMD', `use ${key} now`]),
      // Cloud and vendor prefixes count only at the start of a name; _DSN only at the end.
      ...['LAWS_DIR', 'MY_AZURE_REGION', 'USE_GCP_REGION', 'MY_GOOGLE_APPLICATION_NAME', 'X_OPENAI_MODEL', 'X_ANTHROPIC_MODEL', 'MY_GITHUB_USER', 'HIGH_SCORE', 'MY_GITLAB_HOST', 'HIGHF_MODE', 'USE_HUGGINGFACE_MIRROR', 'DSN_FORMAT'].map(
        (name): [string, string] => [name, 'on'],
      ),
      // An opaque token is the whole value, not part of it; paths and one-case or digit-free text are not keys.
      ['NOTE', `x ${token}`], ['NOTE', `${token} x`], ['DIR', `/${token}`], ['HIDDEN', `.${token}`],
      ['LOWER', 'abcdefghij0123456789klmnopqrst'], ['UPPER', 'ABCDEFGHIJ0123456789KLMNOPQRST'], ['LETTERS', 'AbCdEfGhIjKlMnOpQrStUvWxYz'],
      ['LOW_ENTROPY', 'aA1aA1aA1aA1aA1aA1aA1aA1'],
    ];
    const removedAtTheEdge: [name: string, value: string][] = [
      ...shortestKeys.map((key): [string, string] => ['CMD', `use ${key} now`]),
      ['API_KEY_FILE', '/run/k'], ['PRIVATEKEY_PATH', '/run/k'], ['DB_PASSWD', 'x'], ['DSN', 'x'],
      ['REMOTE', `https://${token}@git.example.com/acme/app.git`],
      ['PADDED', `  ${token}  `],
      // Exactly 4 bits per character: 16 symbols, each twice.
      ['FOUR_BITS', 'aA1bB2cC3dD4eE5faA1bB2cC3dD4eE5f'],
      ['LIBPQ', 'password=hunter2 host=db'], ['SPACED', 'host=db password = hunter2'],
      ['CALLBACK', 'https://x.example.com/cb?apikey=zzz'],
    ];
    itFilters(keptAtTheEdge, removedAtTheEdge);
  });
});

describe('withoutSecrets: where the PASS/KEY/PIN/OTP/SEED names and the value shapes stop', () => {
  const hex64 = '4c1f7a9e2b8d3c6f0a5e9d2b7c4f1a8e3d6b9c2f5a8e1d4b7c0f3a6e9d2c5b8f';
  const token = 'q8Zr2LmX9vT4kP7wN1cY5bH3jD6fG0sA';
  describe('names', () => {
    itFilters(
      [
        // Git's own GIT_CONFIG_KEY_<n> names a setting at any index: its value decides.
        ['GIT_CONFIG_KEY_12', 'core.autocrlf'],
        // A seed that is a number is a random generator's, blanks around it or not.
        ['SEED', ' 42 '],
      ],
      [
        // A word of the name: the whole name, or its first part.
        ['PW', 'x'], ['PW_ROOT', 'x'], ['CREDS', 'x'], ['CREDS_FILE', '/run/c'], ['PIN', '1234'], ['PIN_ADMIN', '0000'],
        ['PINCODE', '1234'], ['SIM_PIN12', '1234'], ['TOTP', '123456'], ['HOTP', '123456'],
        // A seed phrase written together or with a dash (a .env file's `seed-phrase`).
        ['WALLET_SEEDPHRASE', 'abandon ability able'], ['seed-phrase', 'abandon ability able'],
        // A seed that only starts or ends with digits is no number.
        ['NODE_SEED', '4c1f7a9e'], ['NODE_SEED', 'a9e41234'],
        // Only git's exact names are exempt from KEY: not one that has more before or after.
        ['MY_GIT_CONFIG_KEY_1', 'core.editor'], ['GIT_CONFIG_KEY_0_FILE', '/run/secrets/key'],
      ],
    );
  });

  describe('values, under names that say nothing', () => {
    itFilters(
      [
        // A password has lower case, upper case, a digit and a symbol, in one word of 8 to 64 characters.
        ['TICKET', 'issue#4711'], ['TICKET', 'JIRA#4711!'], ['DUO', 'Tom&Jerry'], ['WORD', 'Ab1!xyz'], ['WORD', `Ab1!${'x'.repeat(61)}`],
        ['COMMIT_MESSAGE', 'Fix(#123): handle spaces in Parser[Windows]'],
        // A base32 or hex secret is the whole value, mixing letters and digits with 3 bits per character at least.
        ['NOTE', 'x JBSWY3DPEHPK3PXP'], ['NOTE', 'JBSWY3DPEHPK3PXP x'], ['NOTE', `x ${hex64}`], ['NOTE', `${hex64} x`],
        ['PI', '3141592653589793238462643383279502884197169399375105820974944592'],
        ['LOG_CATEGORY', 'VERBOSEDIAGNOSTICS'],
        ['PATTERN', '0123abc'.repeat(10)],
        // No password on the command line: asked for at a prompt, skipped, read from a file, or none after sshpass -p.
        ['DB_CLI', 'mysql -u root --password'], ['DB_CLI', 'mysql --skip-password -h db app'],
        ['SSH_WRAPPER', 'sshpass -f /home/u/.sshpw ssh host'], ['SSH_WRAPPER', 'sshpass -p'],
        // `-pthread` where no user is named and no MySQL, MariaDB or sshpass runs (only a word starting like one counts).
        ['BUILD', 'cc -pthread -o build-utils main.c'], ['LDLIBS', '-pthread -lmysqlclient'],
      ],
      [
        // Passwords at the length bounds and with an `@` that makes no e-mail address.
        ['WORD', 'Ab1!wxyz'], ['WORD', `Ab1!${'x'.repeat(60)}`], ['WORD', 'Tr0ub4dor&3'], ['WORD', 'P@ss.Word!2024'], ['WORD', 'S3cret@me@Example.org'],
        // Base32 from 16 characters, hex from 64 with or without 0x, at exactly 3 bits per character too.
        ['SETTING', 'JBSWY3DPEHPK3PXP'], ['SETTING', hex64], ['SETTING', '0123abcd'.repeat(8)],
        // Authorization headers and JSON members however spaced.
        ['GIT_EXTRA', 'authorization = basic abc'], ['GIT_EXTRA', 'authorization:basic dXNlcg'], ['KAGGLE', '{"apikey":"v"}'],
        // A URL whose scheme ends in a digit (`s3://`), with a password or a token as its user.
        ['BACKUP_TARGET', 's3://minio:minio123@backup.internal/bucket'], ['BACKUP_TARGET', `s3://${token}@backup.internal/bucket`],
        // A password URL among other words.
        ['CLONE', 'git clone https://ann:hunter2@git.example.com/app.git'],
        // A user given as --user, --user=, --username= with -p<password>, whatever the program.
        ['DB_CLI', 'dbtool --user app -ps3cret'], ['DB_CLI', 'dbtool --user=app -ps3cret'], ['DB_CLI', 'dbtool --username=app -ps3cret'],
      ],
    );
  });
});

describe('withoutSecrets: long values in linear time (ReDoS)', () => {
  it('keeps a URL-like value with a long run of colons and no user info (25 s at 50,000 before), and still removes a password URL', () => {
    const colons = `a://${':'.repeat(200_000)}/`;
    assert.deepEqual(withoutSecrets({ V: colons, W: 'redis://:pw@host' }), { V: colons });
  });

  it('reads many URL starts, each a host and port before a path, up to an @ in linear time', () => {
    const many = `${'a://x:1/'.repeat(50_000)}@`;
    const started = Date.now();
    assert.deepEqual(withoutSecrets({ V: many }), { V: many });
    assert.ok(Date.now() - started < 2_000, `${Date.now() - started} ms`);
  });

  it('reads a long word of URL starts with user info but no @ in linear time (quadratic when read past its last @)', () => {
    const many = 'a://x:y'.repeat(50_000);
    const started = Date.now();
    assert.deepEqual(withoutSecrets({ V: many }), { V: many });
    assert.ok(Date.now() - started < 2_000, `${Date.now() - started} ms`);
  });
});

const safeEntries = {
  GIT_CONFIG_KEY_0: 'safe.bareRepository',
  GIT_CONFIG_VALUE_0: 'explicit',
  GIT_CONFIG_KEY_1: 'core.fsmonitor',
  GIT_CONFIG_VALUE_1: 'false',
  GIT_CONFIG_KEY_2: 'diff.noprefix',
  GIT_CONFIG_VALUE_2: 'false',
  GIT_CONFIG_KEY_3: 'diff.mnemonicPrefix',
  GIT_CONFIG_VALUE_3: 'false',
  GIT_CONFIG_KEY_4: 'diff.srcPrefix',
  GIT_CONFIG_VALUE_4: 'a/',
  GIT_CONFIG_KEY_5: 'diff.dstPrefix',
  GIT_CONFIG_VALUE_5: 'b/',
};

describe('withoutSecrets: git configuration through the environment', () => {
  it('passes a whole set of GIT_CONFIG entries on when none holds a credential', () => {
    const env = { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'core.autocrlf', GIT_CONFIG_VALUE_0: 'input', PATH: '/bin' };
    assert.deepEqual(withoutSecrets(env), env);
    const eleven = { ...env, GIT_CONFIG_COUNT: '11', GIT_CONFIG_KEY_10: 'core.fsmonitor', GIT_CONFIG_VALUE_10: 'false' };
    assert.deepEqual(withoutSecrets(eleven), eleven, 'an entry numbered 10 or more too');
  });

  it('attack: drops every GIT_CONFIG entry when one value is an Authorization header (a count naming a missing entry stops git)', () => {
    const header = `AUTHORIZATION: basic ${Buffer.from('x-access-token:ghs_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789').toString('base64')}`;
    const env = {
      GIT_CONFIG_COUNT: '11',
      GIT_CONFIG_KEY_0: 'core.autocrlf',
      GIT_CONFIG_VALUE_0: 'input',
      GIT_CONFIG_KEY_10: 'http.https://github.com/.extraheader',
      GIT_CONFIG_VALUE_10: header,
      PATH: '/bin',
      // Not git's: kept.
      MY_GIT_CONFIG_COUNT: '3',
      GIT_CONFIG_COUNTER: '4',
    };
    assert.deepEqual(withoutSecrets(env), { PATH: '/bin', MY_GIT_CONFIG_COUNT: '3', GIT_CONFIG_COUNTER: '4' });
  });

  it("attack: drops every GIT_CONFIG entry when one key is an http extra header, whatever its value's shape", () => {
    for (const key of ['http.extraHeader', 'http.https://gitlab.example.com/.extraheader', 'HTTP.EXTRAHEADER']) {
      const env = { GIT_CONFIG_COUNT: '2', GIT_CONFIG_KEY_0: 'core.autocrlf', GIT_CONFIG_VALUE_0: 'input', GIT_CONFIG_KEY_1: key, GIT_CONFIG_VALUE_1: 'a plain value', PATH: '/bin' };
      assert.deepEqual(withoutSecrets(env), { PATH: '/bin' }, key);
    }
    const spaced = { GIT_CONFIG_COUNT: '12', GIT_CONFIG_KEY_11: ' http.extraHeader ', GIT_CONFIG_VALUE_11: 'a plain value', PATH: '/bin' };
    assert.deepEqual(withoutSecrets(spaced), { PATH: '/bin' }, 'a key with spaces around it, numbered past 9');
    for (const other of [
      { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'http.sslVerify', GIT_CONFIG_VALUE_0: 'true' },
      { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'core.http.extraheader', GIT_CONFIG_VALUE_0: 'x' },
      { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'http.extraheaders', GIT_CONFIG_VALUE_0: 'x' },
    ]) {
      assert.deepEqual(withoutSecrets(other), other, JSON.stringify(other));
    }
    // Named like git's but not git's: left out by their names, and git's own entries kept.
    const lookalikes = { MY_GIT_CONFIG_KEY_1: 'http.extraHeader', GIT_CONFIG_KEY_1_NAME: 'http.extraHeader', GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'core.autocrlf', GIT_CONFIG_VALUE_0: 'input' };
    assert.deepEqual(withoutSecrets(lookalikes), { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'core.autocrlf', GIT_CONFIG_VALUE_0: 'input' });
  });

  it('attack: drops every GIT_CONFIG entry when the value of one, at any number, holds a credential under another key (a proxy with a password)', () => {
    const env = { GIT_CONFIG_COUNT: '12', GIT_CONFIG_KEY_0: 'core.autocrlf', GIT_CONFIG_VALUE_0: 'input', GIT_CONFIG_KEY_11: 'http.proxy', GIT_CONFIG_VALUE_11: 'http://u:s3cret@proxy:3128', PATH: '/bin' };
    assert.deepEqual(withoutSecrets(env), { PATH: '/bin' });
  });
});

describe('withSafeGitConfig', () => {
  it("tells git, through its environment configuration, to take no folder for a repository by itself, to run no file system monitor and to name a patch's files a/ and b/", () => {
    for (const program of ['git', '/usr/bin/git', 'C:\\Program Files\\Git\\cmd\\git.exe', 'GIT']) {
      assert.deepEqual(withSafeGitConfig(program, { PATH: '/bin' }), { PATH: '/bin', GIT_CONFIG_COUNT: '6', ...safeEntries }, program);
    }
  });

  it("keeps the user's own GIT_CONFIG_COUNT entries and comes after them, so it wins over them too", () => {
    const user = { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'core.fsmonitor', GIT_CONFIG_VALUE_0: 'true' };
    assert.deepEqual(withSafeGitConfig('git', user), {
      ...user,
      GIT_CONFIG_COUNT: '7',
      GIT_CONFIG_KEY_1: 'safe.bareRepository',
      GIT_CONFIG_VALUE_1: 'explicit',
      GIT_CONFIG_KEY_2: 'core.fsmonitor',
      GIT_CONFIG_VALUE_2: 'false',
      GIT_CONFIG_KEY_3: 'diff.noprefix',
      GIT_CONFIG_VALUE_3: 'false',
      GIT_CONFIG_KEY_4: 'diff.mnemonicPrefix',
      GIT_CONFIG_VALUE_4: 'false',
      GIT_CONFIG_KEY_5: 'diff.srcPrefix',
      GIT_CONFIG_VALUE_5: 'a/',
      GIT_CONFIG_KEY_6: 'diff.dstPrefix',
      GIT_CONFIG_VALUE_6: 'b/',
    });
    assert.equal(withSafeGitConfig('git', { GIT_CONFIG_COUNT: '' }).GIT_CONFIG_COUNT, '6', 'an empty count is none, as git reads it');
    assert.equal(withSafeGitConfig('git', { GIT_CONFIG_COUNT: ' 02 ' }).GIT_CONFIG_KEY_2, 'safe.bareRepository');
  });

  it('leaves a count that is no number as it is (git refuses to run with it), and does not change the given object', () => {
    // Git reads the count as a decimal number to its end: not 1e3 or 0x10, though JavaScript's Number would.
    for (const count of ['many', '1k', '-1', '99999999999999999999', '1e3', '0x10']) {
      const bogus = { GIT_CONFIG_COUNT: count };
      assert.equal(withSafeGitConfig('git', bogus), bogus, count);
    }
    const given = { PATH: '/bin' };
    withSafeGitConfig('git', given);
    assert.deepEqual(given, { PATH: '/bin' });
  });

  it("leaves other programs' environment alone", () => {
    const env = { PATH: '/bin' };
    for (const program of ['npm', 'gitk', 'git-lfs', 'legit', '/opt/git/bin/make']) assert.equal(withSafeGitConfig(program, env), env, program);
  });
});
