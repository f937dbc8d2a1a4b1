import { programName } from '../core/tools/commandAllowRules';

// Names that mark a variable as a credential: API keys, tokens, passwords (any name holding PASS: `…PASSWORD`, `…PASSWD`,
// `PASSCODE`, `PASSPHRASE`, `SSHPASS`, `DBPASS`, `PGPASSFILE`; not PASSENGER, PASSIVE, PASSTHROUGH, COMPASS or BYPASS, which
// name no password; `MYSQL_PWD`, `DB_PW`, Jenkins' `DB_PSW`, not the working directory's `PWD`), `…_CREDS`, PINs and one-time-password seeds
// (`ADMIN_PIN`, `OTP_SEED`, `TOTP_KEY`), a wallet's mnemonic or seed phrase, cloud and CI secrets, logins (`SONAR_LOGIN`),
// credentials, authorization (not `GIT_AUTHOR_NAME`: an author is no credential), sessions, cookies,
// webhooks, header sets (`OTEL_EXPORTER_OTLP_HEADERS`),
// Bundler's per-host credentials (`BUNDLE_GEMS__EXAMPLE__COM`), anything with KEY ending a word part (`…_KEY`, `MASTERKEY`,
// `APIKEY`, `PRIVATEKEY_PATH`, `…_KEYS`, `…_KEY_ID`; not `KEYBOARD` or `KEYRING`) or `…_DSN` (DSNs carry credentials), the CLI's
// MCP inputs (`TASK_PLANNER_MCP_INPUT_<ID>`: passwords, whatever they look like), and the ways to ask an editor or agent for
// credentials (`GIT_ASKPASS`, `VSCODE_GIT_IPC_HANDLE`: a command would get the user's git credentials through them).
const secretName =
  /(token|secret|(?<!com|by)pass(?!enger|ive|[_-]?thr(ough|u))|_pwd$|(^|_)pw($|_)|(^|_)psw($|_)|credential|(^|_)creds($|_)|(^|_)pin(\d*|code)($|_)|(^|_)[th]?otp($|_)|mnemonic|seed[_-]?phrase|auth(?!ors?(?![a-z]))|session|cookie|signature|(^|_)login$|webhook|(^|_)headers?$|^bundle_.*__|^vscode_git_|keys?(id)?(?![a-z])|(^|_)dsn$|^aws_|^azure_|^gcp_|^google_application|^openai|^anthropic|^github_|^gh_|^gitlab_|^hf_|^huggingface|^task_planner_mcp_input_)/i;

// A seed as a word of the name (`OTP_SEED`, `WALLET_SEED`): a credential unless it holds a number, as a random generator's seed does (`SEED=42`).
const seedName = /(^|_)seed($|_)/i;

// Key formats of well-known services, found anywhere in a value (a header, a command line…). Also those of one letter case,
// which `looksGenerated` misses (an outside attack): New Relic's `NRAK-…`, Netlify's `nfp_…`, GitLab's other tokens (`glptt-`,
// `glrt-`, `gldt-`… and a runner's `GR1348941…`), Pulumi's `pul-…`, Sentry's `sntryu_…`, Mailgun's `key-…`, Mailchimp's
// `…-us12`, RubyGems', Supabase's, Docker Hub's, Doppler's, Linear's, Grafana's, Fly.io's and Terraform Cloud's.
const knownKey =
  /(?<![A-Za-z0-9])(sk-[A-Za-z0-9_-]{16,}|[sr]k_(live|test)_[A-Za-z0-9]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|gl(pat|dt|rt|ptt|ft|cbt|oas|imt|agent|soat|ffct|wt)-[A-Za-z0-9_-]{16,}|GR1348941[A-Za-z0-9_-]{20,}|NR(AK|II|JS|RA|SP|AA)-[A-Za-z0-9_-]{19,}|nf[a-z]_[A-Za-z0-9]{36,}|pul-[0-9a-f]{40}|sntry[us]_[A-Za-z0-9+/=_-]{30,}|(?<![._-])key-[0-9a-f]{32}(?![0-9a-f])|[0-9a-f]{32}-us\d{1,2}(?![A-Za-z0-9])|rubygems_[0-9a-f]{48}|sbp_[0-9a-f]{40}|dckr_pat_[A-Za-z0-9_-]{20,}|dp\.(st|pt|ct|sa|scim|audit)\.[A-Za-z0-9._-]{30,}|lin_api_[A-Za-z0-9]{30,}|glsa_[A-Za-z0-9]{32}_[0-9a-f]{8}|glc_[A-Za-z0-9+/=]{32,}|fm[12]_[A-Za-z0-9+/=_-]{20,}|[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9=_-]{60,}|PMAK-[0-9a-f]{24}-[0-9a-f]{34}|xox[abeprs]-[A-Za-z0-9-]{10,}|xapp-[A-Za-z0-9-]{10,}|(AKIA|ASIA)[0-9A-Z]{16}|AGE-SECRET-KEY-1[0-9A-Z]{50,}|shp(at|ca|pa|ss)_[0-9a-fA-F]{32}|do[opr]_v1_[0-9a-f]{64}|dapi[0-9a-f]{32}|\d{8,10}:AA[\w-]{30,}|AIza[0-9A-Za-z_-]{30,}|ya29\.[0-9A-Za-z_-]{20,}|hf_[A-Za-z0-9]{20,}|hv[sb]\.[A-Za-z0-9_-]{20,}|npm_[A-Za-z0-9]{30,}|pypi-[A-Za-z0-9_-]{30,}|SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.)/;

// A URL whose user info has a password (`scheme://user:pass@host`, `redis://:pass@host`), also one with special characters
// (`postgres://app:p#ss/w?rd@db/app`, as many clients read it), but not a port followed by a path holding `@`
// (`http://localhost:4873/@types/node`). Matched within one word up to its last `@` (`urlHasPassword`); the scheme from its
// last letter (`[A-Za-z][0-9+.-]*`, which finds the same URLs) and the user info up to its first colon, so no part can be
// matched two ways: a long value costs linear time.
const urlWithPassword = /[A-Za-z][0-9+.-]*:\/\/[^/?#@:]*:(?!\d*[/?#])[^@]*@/;
// A URL whose user info (no password) is itself a token (`https://<token>@github.com/…`).
const urlUser = /[A-Za-z][0-9+.-]*:\/\/([^\s/?#@:]+)@/;
// A URL with a credential in its query (`?token=…`, `&sig=…` of a signed URL), also one whose name ends in one
// (`private_token`, GitLab's; `refresh_token`, `auth-token`, `client_secret`: an outside attack found them kept), a JWT or
// a session id.
const urlQueryCredential =
  /[?&]([\w-]*(token|api[_-]?key|password|passwd|secret|signature)|key|pwd|sslkey|sig|auth|jwt|session(id)?)=[^&\s]/i;
// Secrets in a URL's path rather than its query: Discord and Teams webhooks, and a Telegram bot's token (`/bot<id>:<secret>/`).
const urlPathCredential =
  /discord(?:app)?\.com\/api\/webhooks\/\d+\/[\w-]{8}|\.office\.com\/webhook(?:b2)?\/\S{8}|api\.telegram\.org\/bot\d+:[\w-]{8}/i;
// A connection string with a password (`Password=…;`, libpq's `password=…`).
const connectionPassword = /(^|[;\s])(password|pwd)\s*=\s*[^;\s]/i;
// An Authorization header's value without its name, as a whole value (`Basic ZGVwbG95Omh1bnRlcjI=`): the bearer one is `otherCredential`'s.
const bareAuthorization = /^(basic|digest|negotiate|ntlm)[ \t]+[A-Za-z0-9+/=._~-]{8,}$/i;
// A single opaque token: the shape of generated keys (base64, base62, base64url).
const opaqueToken = /^[A-Za-z0-9+/=_.-]{24,}$/;
// A token of one letter case (base36: `NRAK-…`, an old Netlify token): after at most three short prefix words (`NRAK-`,
// `dp.st.prd.`), which mark it as a token, a random part of at least 27 letters and digits; alone, at least 32 (one case
// holds fewer bits a character, and shorter one-case words are ids and names more often than keys).
const prefixedOneCaseToken = /^(?:[A-Za-z]{1,12}[._-]){1,3}([a-z0-9]{27,}|[A-Z0-9]{27,})$/;
const oneCaseToken = /^([a-z0-9]{32,}|[A-Z0-9]{32,})$/;
// A base32 secret of at least 80 bits (a one-time-password seed, `JBSWY3DPEHPK3PXP`), and a hex one of at least 256 bits (an
// encryption or wallet key); shorter hex values are commit ids, digests and ids (`INVOCATION_ID`), and are kept.
const base32Secret = /^[A-Z2-7]{16,}={0,6}$/;
const hexSecret = /^(0x)?[0-9a-f]{64,}$/i;
// A password with special characters (`Tr0ub4dor&3`): one word of 8 to 64 characters mixing lower case, upper case, digits and a
// symbol that names, versions, paths and lists do not use; not a path or a URL (no `/` or `\`), nor an e-mail address.
const passwordShape = /^[^\s/\\]{8,64}$/;
const passwordSymbol = /[!"#$%&'()*;<>?@[\]^`{|}~]/;
const emailAddress = /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$/;
// An option that gives a password on a command line (`--password=…`, `--password …`, OpenSSL's `-passin pass:…`), a user
// option (`-uroot`, `--user=…`), and the programs that take a password attached to `-p` (`mysql -uroot -phunter2`) or,
// for sshpass, after it.
// Also one with a prefix given its value (`--db-password=…`, `--sasl_password=…`: an outside attack found them kept); a
// prefixed one alone names no password (`mysql --skip-password`), so the next word is not taken for one.
const passwordOption = /^--?((pass|password|passwd|passphrase|passin|passout)(=.|$)|([a-z0-9]+[-_])+(pass|password|passwd|passphrase)=.)/i;
// A word assigning a variable named like a credential (`PGPASSWORD=… psql`, `export API_TOKEN=…`), as a value of another
// variable (a command line kept for later): the name decides, as it does for the variable itself. Also quoted
// (`docker run -e "GITHUB_TOKEN=…"`, `export 'API_TOKEN=…'`: kept before), the value without its closing quote.
const secretAssignment = /^['"]?([A-Za-z_][A-Za-z0-9_]*)=(\S+?)['"]?$/;
const userOption = /^(-u|--user(name)?(=|$))/;
const passwordPrograms = /^(mysql|mariadb|sshpass)/;
// A Java or Gradle property whose name ends in a credential's (`-Dpassword=…`, `-Dspring.datasource.password=…`,
// `-Dsonar.token=…`, `-PsigningPassword=…`): `MAVEN_OPTS`, `JAVA_TOOL_OPTIONS` and `GRADLE_OPTS` carry them.
const credentialProperty = /^-[DP][\w.-]*(pass(word|wd|phrase)|pwd|secret|token|api[_.-]?key|(secret|access|private)[_.-]?key|credentials?)=./i;
// A user with a password for curl and the like: `-u admin:pw`, `--user admin:pw`, `--proxy-user …`, curl's `-U`, or
// attached (`-uadmin:pw`, `--user=admin:pw`).
const userPasswordOption = /^(-[uU]|--(proxy-)?user)$/;
const attachedUserPassword = /^(?:-[uU]|--(?:proxy-)?user=)([^\s:]*:\S+)$/;
// A user and group rather than a user and password: numbers (`1000:1000`), one name twice (`app:app`) or variables (`${UID}:${GID}`).
const userAndGroup = /^(\d+:\d+|([^\s:]+):\2|\$\{?\w+\}?:\$\{?\w+\}?)$/;
// Programs whose `-u`/`--user` takes a user and group, never a password (`docker run -u www-data:staff`, `docker-compose exec -u …`).
const containerPrograms = /^(docker|podman|nerdctl|buildah)(-compose)?$/;
// Programs whose option takes a password as the next word, or attached: sshpass's and MongoDB's shells' and tools' `-p`,
// redis-cli's `-a`, SQL Server's `sqlcmd`/`bcp` `-P`, the LDAP tools' `-w`; a registry's or a platform's `login` takes it
// as `-p` (`docker login -u me -p …`, `oc login`, `cf login`). Elsewhere a `-p` is a port (`-p 8080:80`, `ssh -p 2222`),
// a folder's parents (`mkdir -p`) or a thread library (`-pthread`); MySQL's takes a password attached only (`-phunter2`:
// the next word is a database), and psql's `-p` is its port.
const passwordFlags: readonly (readonly [program: RegExp, flag: string])[] = [
  [/^sshpass$/, '-p'],
  [/^mongo(sh|dump|restore|export|import|stat|top|files)?$/, '-p'],
  [/^redis-cli$/, '-a'],
  [/^(sqlcmd|bcp|osql)$/, '-P'],
  [/^ldap(search|add|modify|delete|whoami|passwd|compare|modrdn|exop)$/, '-w'],
];
// Oracle's tools, which take `user/password@database` as a word (`sqlplus scott/tiger@orcl`), and that word.
const oraclePrograms = /^(sqlplus|sqlldr|expdp|impdp|exp|imp|rman|dgmgrl)$/;
const oracleLogon = /^[A-Za-z_][\w$#]*\/[^\s@/]+(@\S*)?$/;
// An Oracle JDBC URL with a user and password (`jdbc:oracle:thin:scott/tiger@db:1521:orcl`), which has no `://`.
const oracleJdbcPassword = /jdbc:oracle:[a-z0-9]+:[^\s/@:]+\/[^\s@]+@/i;
// Go's MySQL DSN (`app:pw@tcp(db:3306)/prod`, `app:pw@/prod`): no scheme; after the word's last `@`, a network (with its
// address) and a database (one `/`); before it a user without `/` and a password. Not `http://host:4873/@types/node`, an
// image's `node:20@sha256:…` or a JDBC URL without a user (`jdbc:oracle:thin:@//db:1521/orcl`).
const goDsnTail = /@(?:[a-z][a-z0-9]*(?:\([^()\s]*\))?)?\/(?!\/)[^@\s]*$/;
const goDsnUserPassword = /^['"]?[^\s/:@'"]+:(?!\/\/)\S/;
// Credentials in other shapes, anywhere in a value: a private key in PEM (a PGP secret key block and a PuTTY key too),
// Azure's account and shared access keys, an Authorization header's value in any scheme (`authorization=Bearer …` of
// OTLP headers, git's `AUTHORIZATION: basic …`, `Digest …`, `ApiKey …`), a header that carries a key by its name
// (`PRIVATE-TOKEN: …`, `X-Api-Key: …`, `Cookie: …`), a bearer token, a Slack webhook, a JSON object with a key, password
// or auth member (`{"username":…,"key":…}` of Kaggle, `{"auths":{…:{"auth":…}}}` of Docker, a service account's
// `"private_key"`), a `.netrc` line's password and an `.npmrc` line's token or password (`//registry…/:_authToken=…`: an
// outside attack).
const otherCredential =
  /\b(machine[ \t]+\S+|default)[ \t]+login[ \t]+\S+[ \t]+password[ \t]+\S|:_(auth(token)?|password)[ \t]*=[ \t]*\S|-----BEGIN [A-Z ]*PRIVATE KEY( BLOCK)?-----|PuTTY-User-Key-File-\d+:|(AccountKey|SharedAccessKey|SharedAccessSignature)=|authorization\s*[:=]\s*[a-z][\w-]*\s+\S|(^|\n)[ \t]*(cookie|([a-z0-9]+-)*(token|api-?key|secret)|([a-z0-9]+-)+(key|auth))[ \t]*:[ \t]*\S|\bbearer\s+[A-Za-z0-9._~+/-]{8,}|hooks\.slack\.com\/services\/|"(key|api_?key|token|secret|password|auth|private_key|client_secret|refresh_token|access_token)"\s*:\s*"[^"]/i;

/**
 * A copy of `env` without anything that looks like a credential, for processes started on
 * the model's behalf: variables named like one (`*_TOKEN`, `*KEY`, `*_DSN`, `*PASS*`, `*_PIN`,
 * `OTP_*`, `*_SEED` unless a number, `*AUTH*`, `*SESSION*`, `*COOKIE*`, cloud and CI prefixes…),
 * and values holding one whatever the name: URLs with a password (special characters too) or a
 * token in their user info or query, connection strings with a password, command lines giving
 * one (`mysql -uroot -p…`, `--password=…`), keys of known services, private keys, Authorization
 * headers, opaque high-entropy tokens (of one letter case too: `NRAK-…`), long base32 and hex secrets, and one-word passwords
 * mixing letters, digits and symbols; and every
 * `TASK_PLANNER_MCP_INPUT_*` (the CLI's MCP inputs). When one of git's `GIT_CONFIG_VALUE_<n>` is
 * removed, or one `GIT_CONFIG_KEY_<n>` names an http extra header (how git is given a credential),
 * all of git's environment configuration goes with it. Everything else (PATH, HOME, PWD,
 * locale, plain URLs, …) is kept.
 */
export function withoutSecrets(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {};
  let gitConfigCut = false;
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    // An extra header for git's requests is how a credential is given to it (actions/checkout's `AUTHORIZATION: basic …`),
    // whatever shape its value has: none of git's environment configuration is passed on then.
    if (/^GIT_CONFIG_KEY_\d+$/i.test(name) && /^http\..*extraheader$/i.test(value.trim())) gitConfigCut = true;
    if (secretNamed(name, value) || holdsSecret(value)) {
      gitConfigCut ||= gitConfigEntry.test(name);
      continue;
    }
    kept[name] = value;
  }
  // Git reads GIT_CONFIG_KEY_<n>/GIT_CONFIG_VALUE_<n> up to GIT_CONFIG_COUNT and refuses to run when one is missing:
  // one entry held a credential (an extra header), so none of them is passed on.
  if (gitConfigCut) for (const name of Object.keys(kept)) if (gitConfigEntry.test(name)) delete kept[name];
  return kept;
}

/** The variables of git's configuration through the environment. */
const gitConfigEntry = /^GIT_CONFIG_(COUNT|KEY_\d+|VALUE_\d+)$/i;

// What every git run is told, above any repository's configuration: a folder is a repository only through a `.git` (or
// `--git-dir`), so files a step wrote (`HEAD`, `config`, `objects/`, `refs/`) make none; no file system monitor, the
// program a repository's `core.fsmonitor` names and `git status` would run; and a patch names its files as `a/.env b/.env`,
// which is how the lines of a file tools keep from the model are found in it (`withoutKeptFileLines`): a repository's
// `diff.srcPrefix=q` made them `q.env`.
const gitSettings: readonly (readonly [key: string, value: string])[] = [
  ['safe.bareRepository', 'explicit'],
  ['core.fsmonitor', 'false'],
  ['diff.noprefix', 'false'],
  ['diff.mnemonicPrefix', 'false'],
  ['diff.srcPrefix', 'a/'],
  ['diff.dstPrefix', 'b/'],
];

/**
 * `env` for a command whose program is `program`: for git (by `programName`: `git`,
 * `/usr/bin/git`, `git.exe`) a copy whose `GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_<n>`/
 * `GIT_CONFIG_VALUE_<n>` also set `safe.bareRepository=explicit`, `core.fsmonitor=false` and git's own names in a patch
 * (`diff.noprefix=false`, `diff.mnemonicPrefix=false`, `diff.srcPrefix=a/`, `diff.dstPrefix=b/`).
 * Git reads these after every configuration file (system, global, the repository's own), so a
 * repository in the workspace cannot undo them. The user's own entries are kept, ours come after
 * them; a `GIT_CONFIG_COUNT` that is no number is left as it is (git then refuses to run).
 * Any other program's `env` is returned as it is.
 */
export function withSafeGitConfig(program: string, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (programName(program) !== 'git') return env;
  const given = env.GIT_CONFIG_COUNT?.trim() ?? '';
  if (given !== '' && !/^\+?\d+$/.test(given)) return env;
  const count = Number(given); // an empty count is 0, as git reads it
  if (!Number.isSafeInteger(count)) return env;
  const safe: NodeJS.ProcessEnv = { ...env, GIT_CONFIG_COUNT: String(count + gitSettings.length) };
  gitSettings.forEach(([key, value], index) => {
    safe[`GIT_CONFIG_KEY_${count + index}`] = key;
    safe[`GIT_CONFIG_VALUE_${count + index}`] = value;
  });
  return safe;
}

/**
 * Whether the variable `name` is named like a credential: by `secretName`, or a seed (`OTP_SEED`) that is no number. Git's
 * `GIT_CONFIG_KEY_<n>` names a setting, not a key: its value is checked like any other.
 */
function secretNamed(name: string, value: string): boolean {
  if (/^GIT_CONFIG_KEY_\d+$/i.test(name)) return false;
  return secretName.test(name) || (seedName.test(name) && !/^\d+$/.test(value.trim()));
}

/** Whether `value` carries a credential whatever its variable is called. */
function holdsSecret(value: string): boolean {
  const trimmed = value.trim();
  const shapes = [knownKey, urlQueryCredential, urlPathCredential, connectionPassword, otherCredential, bareAuthorization, oracleJdbcPassword];
  if (shapes.some((shape) => shape.test(trimmed)) || urlHasPassword(trimmed) || dsnHasPassword(trimmed)) return true;
  if (givesPassword(trimmed) || assignsSecret(trimmed)) return true;
  const inUrl = urlUser.exec(trimmed);
  if ((inUrl !== null && looksGenerated(inUrl[1]!)) || looksGenerated(trimmed) || looksLikeKey(trimmed) || looksLikePassword(trimmed)) return true;
  if (looksGeneratedOneCase(trimmed)) return true;
  // A key wrapped over lines (`base64 keystore.jks` prints 76 characters a line): each line judged as a token of its own.
  return trimmed.includes('\n') && trimmed.split('\n').some((line) => looksGenerated(line.trim()));
}

/**
 * Whether a word of `value` is a URL with a password (`urlWithPassword`), read only up to the word's last `@` (a word
 * without one is read as empty: no match can end past it, and a long word without `@` costs no quadratic time).
 */
function urlHasPassword(value: string): boolean {
  return value.split(/\s/).some((word) => urlWithPassword.test(word.slice(0, word.lastIndexOf('@') + 1)));
}

/** Whether a word of `value` is Go's MySQL DSN with a password (`goDsnTail`, `goDsnUserPassword`). */
function dsnHasPassword(value: string): boolean {
  return value.split(/\s/).some((word) => {
    const tail = goDsnTail.exec(word);
    return tail !== null && goDsnUserPassword.test(word.slice(0, tail.index));
  });
}

/**
 * Whether the command line `value` gives a password: a password option with its value (`--password=…`, `--password …`,
 * `-passin pass:…`); a Java property named for one (`-Dpassword=…`); a user with a password (`curl -u admin:pw`,
 * `--user=admin:pw`) unless it is a user and group (`1000:1000`, `app:app`) or the line is a container's (`docker run -u`);
 * after a program that takes one through an option, that option's value (`passwordFlags`: `docker login -p …`,
 * `mongosh -p …`, `redis-cli -a …`); Oracle's `user/password@db` after its tools; or `-p` with one attached (`-phunter2`)
 * where the line names a user (`-uroot`) or is MySQL's, MariaDB's or sshpass's. `-pthread`, `-p 8080:80`, `ssh -p 2222`
 * and `mkdir -p` give none.
 */
function givesPassword(value: string): boolean {
  const words = value.split(/\s/); // `value` is trimmed: a word follows an option exactly when one is split off after it
  if (words.some((word, index) => passwordOption.test(word) && (word.includes('=') || words[index + 1] !== undefined))) return true;
  if (words.some((word) => credentialProperty.test(word))) return true;
  if (givesUserPassword(words) || givesPasswordFlag(words)) return true;
  const login = words.some((word) => userOption.test(word) || passwordPrograms.test(programName(word)));
  return login && words.some((word) => /^-p[^-\s]/.test(word));
}

/** Whether `words` give a user with a password (`userPasswordOption`, `attachedUserPassword`), not a container's user and group. */
function givesUserPassword(words: readonly string[]): boolean {
  if (words.some((word) => containerPrograms.test(programName(word)))) return false;
  return words.some((word, index) => {
    const given = userPasswordOption.test(word) ? words[index + 1] : attachedUserPassword.exec(word)?.[1];
    return given !== undefined && /^[^\s:]*:\S/.test(given) && !userAndGroup.test(given);
  });
}

/**
 * Whether `words` give a password through the option of a program before it that takes one (`passwordFlags`, a `login`'s
 * `-p`), as the next word or attached, or Oracle's `user/password@db` after one of its tools.
 */
function givesPasswordFlag(words: readonly string[]): boolean {
  const flags = new Set<string>();
  let oracle = false;
  for (const [index, word] of words.entries()) {
    if (oracle && oracleLogon.test(word)) return true;
    for (const flag of flags) {
      if (word === flag ? words[index + 1] !== undefined : word.startsWith(flag) && word.length > flag.length) return true;
    }
    const name = programName(word);
    const flag = word === 'login' ? '-p' : passwordFlags.find(([program]) => program.test(name))?.[1];
    if (flag !== undefined) flags.add(flag);
    oracle ||= oraclePrograms.test(name);
  }
  return false;
}

/** Whether a word of `value` assigns a variable named like a credential (`secretAssignment`, `secretNamed`). */
function assignsSecret(value: string): boolean {
  return value.split(/\s/).some((word) => {
    const match = secretAssignment.exec(word);
    return match !== null && secretNamed(match[1]!, match[2]!);
  });
}

/**
 * Whether `text` is a base32 secret of at least 16 characters or a hex one of at least 64 (`base32Secret`, `hexSecret`)
 * mixing letters and digits, with at least 3 bits of entropy per character (not a run of one character).
 */
function looksLikeKey(text: string): boolean {
  if (!base32Secret.test(text) && !hexSecret.test(text)) return false;
  return /[A-Za-z]/.test(text) && /[0-9]/.test(text) && entropyBitsPerChar(text) >= 3;
}

/** Whether `text` is one word shaped like a password with special characters (`passwordShape`, `passwordSymbol`), not an e-mail address. */
function looksLikePassword(text: string): boolean {
  if (!passwordShape.test(text) || !passwordSymbol.test(text) || emailAddress.test(text)) return false;
  return /[a-z]/.test(text) && /[A-Z]/.test(text) && /[0-9]/.test(text);
}

/**
 * Whether `text` is one opaque token such as a generated key: at least 24 characters of a
 * key alphabet, not a path, mixing upper case, lower case and digits, with at least 4 bits
 * of entropy per character. Hex digests and UUIDs (one letter case) are not keys.
 */
function looksGenerated(text: string): boolean {
  if (!opaqueToken.test(text) || text.startsWith('/') || text.startsWith('.')) return false;
  if (!/[a-z]/.test(text) || !/[A-Z]/.test(text) || !/[0-9]/.test(text)) return false;
  return entropyBitsPerChar(text) >= 4;
}

/**
 * Whether `text` is a generated token of one letter case (`prefixedOneCaseToken`, `oneCaseToken`): its random part mixes letters and digits with
 * more than 4 bits of entropy per character, which no hex value reaches (16 symbols give at most 4): commit ids, digests,
 * `INVOCATION_ID` and UUIDs are kept. A token made of hex digits alone, or a UUID (Codecov's upload token is one), cannot
 * be told from those by its value: only its name or a known format removes it.
 */
function looksGeneratedOneCase(text: string): boolean {
  const random = (prefixedOneCaseToken.exec(text) ?? oneCaseToken.exec(text))?.[1];
  if (random === undefined || !/[A-Za-z]/.test(random) || !/[0-9]/.test(random)) return false;
  return entropyBitsPerChar(random) > 4;
}

function entropyBitsPerChar(text: string): number {
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}
