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

  it('attack: a password in a DSN or JDBC URL without `://`, a Java property, curl\'s user, a login\'s `-p`, redis-cli\'s `-a`', () => {
    const leaking = {
      DATABASE_URL: 'app:Hunter2pw@tcp(db.internal:3306)/prod',
      GO_DSN_LOCAL: 'app:Hunter2pw@/prod?parseTime=true',
      DSN_FLAG: 'migrate --dsn=app:Hunter2pw@tcp(db:3306)/prod up',
      JDBC_URL: 'jdbc:oracle:thin:scott/Tiger123@db.example.com:1521:orcl',
      ORACLE_CMD: 'sqlplus -s scott/Tiger123@orcl @report.sql',
      MAVEN_OPTS: '-Xmx1g -Dpassword=Hunter2pw',
      JAVA_TOOL_OPTIONS: '-Dspring.datasource.password=Hunter2pw -Dfile.encoding=UTF-8',
      SONAR_OPTS: '-Dsonar.token=abc123',
      GRADLE_ARGS: '-PsigningPassword=Hunter2pw -Dmy.api_key=abc123',
      DEPLOY_CMD: 'curl --user admin:Hunter2pw https://deploy.example.com/hook',
      FETCH_ARGS: '-u admin:Hunter2pw',
      FETCH_ATTACHED: 'curl -uadmin:Hunter2pw --user=ops:Hunter2pw https://x.example',
      PROXY_ARGS: 'curl --proxy-user me:Hunter2pw https://x.example',
      LOGIN_CMD: 'docker login -u me -p Hunter2pw registry.example.com',
      OC_LOGIN: 'oc login https://api.example.com -u me -p Hunter2pw',
      MONGO_SHELL: 'mongosh --username app -p Hunter2pw db.example.com',
      MONGO_DUMP: '/usr/bin/mongodump -u app -p Hunter2pw --out /backup',
      REDIS_CLI: 'redis-cli -h cache -a Hunter2pw',
      SQLCMD: 'sqlcmd -S db -U sa -P Hunter2pw',
      LDAP: 'ldapsearch -x -D cn=admin -w Hunter2pw -b dc=example',
    };
    assert.deepEqual(keptOf(leaking), []);
    // What only looks like them is kept: ports, a user and group, images pinned by digest, paths, npm's scoped packages.
    const plain = {
      DOCKER_RUN_ARGS: '-p 8080:80 -p 127.0.0.1:9090:9090/udp',
      DOCKER_USER: 'docker run -u www-data:staff --rm app',
      RUN_AS: '-u 1000:1000',
      RUN_AS_NAME: '--user app:app',
      RUN_AS_VARS: '-u ${UID}:${GID}',
      SSH_ARGS: 'ssh -p 2222 deploy@host.example.com',
      MKDIR: 'mkdir -p build/out',
      CFLAGS: '-O2 -pthread -DNDEBUG -DVERSION=3',
      PSQL_CMD: 'psql -h db -p 5432 -U app',
      MYSQL_DB: 'mysql -u root -p appdb',
      CURL_USER: 'curl -u admin https://x.example',
      JAVA_OPTS: '-Xmx2g -Dfile.encoding=UTF-8 -Dtoken.ttl=300 -Duser.timezone=UTC',
      BASE_IMAGE: 'node:20@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
      REGISTRY: 'http://localhost:4873/@types/node',
      ACTION: 'actions/checkout@v4',
      JDBC_PLAIN: 'jdbc:oracle:thin:@//db.example.com:1521/orcl',
      GIT_REMOTE: 'git@github.com:org/repo.git',
      PATH: '/usr/local/bin:/usr/bin:/bin',
      LOGIN_SHELL: 'login -f me',
      ALIAS: 'npm:string-width@^4.2.0',
    };
    assert.deepEqual(keptOf(plain), Object.keys(plain));
  });

  // Each rule below with the values it removes and those it keeps, down to what a rule's anchors, flags and optional parts decide.
  // A failure names the values themselves: those of `removed` that were kept, or `kept` without those that were removed.
  const keptValues = (values: readonly string[]): string[] => {
    const env = Object.fromEntries(values.map((value, index) => [`VALUE_${index}`, value]));
    return keptOf(env).map((name) => env[name]!);
  };
  const removedAndKept = (removed: readonly string[], kept: readonly string[]): void => {
    assert.deepEqual(keptValues(removed), []);
    assert.deepEqual(keptValues(kept), kept);
  };

  it('a password after the option of a program that takes one: only after that exact program, as the next word or attached', () => {
    removedAndKept(
      [
        'sshpass -p Hunter2pw ssh deploy@host',
        'mongo --host db -p Hunter2pw',
        'mongosh -pHunter2pw',
        'redis-cli -aHunter2pw ping',
        'sqlcmd -S db -PHunter2pw',
        'ldapsearch -x -wHunter2pw',
      ],
      [
        // the programs without a password: their other options and words
        'mongosh --host db.example.com app',
        'redis-cli -h cache ping',
        'sqlcmd -S db -Q select',
        'ldapsearch -x -b dc=example',
        // programs whose names only begin or end like those: their flags mean something else
        'my-sshpass -p 2222',
        'sshpass-helper -p 2222',
        'run-mongo -p 27017',
        'mongo-express -p 8081',
        'my-redis-cli -a all',
        'redis-cli-wrapper -a all',
        'mssql-bcp -P 4',
        'sqlcmd-lint -P 4',
        'myldapsearch -w 80',
        'ldapsearch-ui -w 80',
        // a message naming `undefined` is no program or flag, and an empty word (two spaces) no program either
        'TypeError: undefined is not a function',
        'cc -O2  -pthread main.c',
      ],
    );
  });

  it('Oracle\'s user/password after its exact tools only, as one word with at most one slash', () => {
    removedAndKept(
      ['sqlplus scott/Tiger123', 'sqlplus -s scott/Tiger123@orcl'],
      ['gimp images/logo.xcf', 'import shots/screen.png', 'rman target / cmdfile backup/daily/full.rman', 'sqlplus -s /nolog @/opt/app/run.sql'],
    );
  });

  it('a user with a password after -u, --user or --proxy-user, not a user and group, nor a container program\'s user', () => {
    removedAndKept(
      [
        'curl --user=ops:Hunter2pw https://x.example',
        'curl -u sysadmin:admin https://x.example',
        'curl -u admin:admin123 https://x.example',
        'boot2docker -u admin:Hunter2pw',
        'dockerize -u admin:Hunter2pw',
      ],
      [
        // a user and group: numbers (the group's need not be the user's), variables, a compose service's user
        '-u 1000:100',
        '-u $UID:$GID',
        'docker-compose exec -u www-data:staff app sh',
        // options that only begin like -u/--user, or hold a `-u` inside a word, or are another letter's
        'curl --user-agent bot:1.0 https://x.example',
        'ghcr.io/acme/app-ui:latest',
        '-Xlog:gc -agentlib:jdwp=transport=dt_socket',
      ],
    );
  });

  it('a Java or Gradle property named for a credential, and an option with prefixes before its password', () => {
    removedAndKept(
      ['-Dmy.apikey=abc123', '-Dmy.api_key=abc123', '-Daws.accessKey=abc123', '-Dapp.private_key=x', '-Dgcp.credential=abc123', 'migrate --db-admin-password=hunter2'],
      // a property named for no credential, and an option (`--p…`) that is no property
      ['-Dfile.encoding=UTF-8 -Dtoken.ttl=300', '-Pversion=1.2.3', 'cli --print-token=false'],
    );
  });

  it('Go\'s MySQL DSN with a password: with a network but no address, quoted; not one whose password is empty', () => {
    removedAndKept(['app:Hunter2pw@tcp/prod', '"app:Hunter2pw@tcp(db:3306)/prod"'], ['root:@tcp(127.0.0.1:3306)/test']);
  });

  it('a connection string whose password comes first, with spaces around its `=`', () => {
    removedAndKept(['Password = Pa55word; Server=db'], ['Server=db; Database=app']);
  });

  it('attack: a quoted assignment of a variable named like a credential; a quoted seed that is a number is kept', () => {
    removedAndKept(
      ['docker run -e "GITHUB_TOKEN=abc123" app', "export 'API_TOKEN=abc123'", 'export WALLET_SEED=9f3kq'],
      // an option is no assignment, even when a part of its name is named like a credential
      ['"RANDOM_SEED=42"', "'LANG=C.UTF-8'", 'RANDOM_SEED=42 make', '--no-auth=true'],
    );
  });
});
