import { programName } from '../core/tools/commandAllowRules';

// Names that mark a variable as a credential: API keys, tokens, passwords, cloud and CI
// secrets, anything called `…_KEY`/`…_KEYS`/`…_KEY_ID` or `…_DSN` (DSNs carry credentials),
// and the CLI's MCP inputs (`TASK_PLANNER_MCP_INPUT_<ID>`: passwords, whatever they look like).
const secretName =
  /(api[_-]?key|token|secret|passw(or)?d|passphrase|credential|private[_-]?key|auth|session|cookie|signature|(^|_)keys?(_id)?$|(^|_)dsn$|^aws_|^azure_|^gcp_|^google_application|^openai|^anthropic|^github_|^gh_|^gitlab_|^hf_|^huggingface|^task_planner_mcp_input_)/i;

// Key formats of well-known services, found anywhere in a value (a header, a command line…).
const knownKey =
  /(?<![A-Za-z0-9])(sk-[A-Za-z0-9_-]{16,}|[sr]k_(live|test)_[A-Za-z0-9]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{16,}|xox[abeprs]-[A-Za-z0-9-]{10,}|xapp-[A-Za-z0-9-]{10,}|(AKIA|ASIA)[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,}|ya29\.[0-9A-Za-z_-]{20,}|hf_[A-Za-z0-9]{20,}|npm_[A-Za-z0-9]{30,}|pypi-[A-Za-z0-9_-]{30,}|SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*)/;

// A URL whose user info has a password (`scheme://user:pass@host`, `redis://:pass@host`).
// The scheme is matched from its last letter (`[A-Za-z][0-9+.-]*`, which finds the same URLs) and the user info up
// to its first colon, so no part can be matched two ways: a long value costs linear time.
const urlWithPassword = /[A-Za-z][0-9+.-]*:\/\/[^\s/?#@:]*:[^\s/?#@]*@/;
// A URL whose user info (no password) is itself a token (`https://<token>@github.com/…`).
const urlUser = /[A-Za-z][0-9+.-]*:\/\/([^\s/?#@:]+)@/;
// A URL with a credential in its query (`?token=…`, `&sig=…` of a signed URL).
const urlQueryCredential = /[?&](access_token|token|api[_-]?key|key|password|passwd|pwd|secret|sig|signature|auth|x-amz-signature|x-goog-signature)=[^&\s]/i;
// A connection string with a password (`Password=…;`, libpq's `password=…`).
const connectionPassword = /(^|[;\s])(password|pwd)\s*=\s*[^;\s]/i;
// A single opaque token: the shape of generated keys (base64, base62, base64url).
const opaqueToken = /^[A-Za-z0-9+/=_.-]{24,}$/;

/**
 * A copy of `env` without anything that looks like a credential, for processes started on
 * the model's behalf: variables named like one (`*_TOKEN`, `*_KEY`, `*_DSN`, `*PASSWORD*`,
 * cloud and CI prefixes…), and values holding one whatever the name: URLs with a password
 * or a token in their user info or query, connection strings with a password, keys of
 * known services, and opaque high-entropy tokens; and every `TASK_PLANNER_MCP_INPUT_*` (the
 * CLI's MCP inputs). Everything else (PATH, HOME, locale, plain URLs, …) is kept.
 */
export function withoutSecrets(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || secretName.test(name) || holdsSecret(value)) continue;
    kept[name] = value;
  }
  return kept;
}

// What every git run is told, above any repository's configuration: a folder is a repository only through a `.git` (or
// `--git-dir`), so files a step wrote (`HEAD`, `config`, `objects/`, `refs/`) make none; and no file system monitor, the
// program a repository's `core.fsmonitor` names and `git status` would run.
const gitSettings: readonly (readonly [key: string, value: string])[] = [
  ['safe.bareRepository', 'explicit'],
  ['core.fsmonitor', 'false'],
];

/**
 * `env` for a command whose program is `program`: for git (by `programName`: `git`,
 * `/usr/bin/git`, `git.exe`) a copy whose `GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_<n>`/
 * `GIT_CONFIG_VALUE_<n>` also set `safe.bareRepository=explicit` and `core.fsmonitor=false`.
 * Git reads these after every configuration file (system, global, the repository's own), so a
 * repository in the workspace cannot undo them. The user's own entries are kept, ours come after
 * them; a `GIT_CONFIG_COUNT` that is no number is left as it is (git then refuses to run).
 * Any other program's `env` is returned as it is.
 */
export function withSafeGitConfig(program: string, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (programName(program) !== 'git') return env;
  const given = env.GIT_CONFIG_COUNT?.trim() ?? '';
  if (given !== '' && !/^\+?\d+$/.test(given)) return env;
  const count = given === '' ? 0 : Number(given);
  if (!Number.isSafeInteger(count)) return env;
  const safe: NodeJS.ProcessEnv = { ...env, GIT_CONFIG_COUNT: String(count + gitSettings.length) };
  gitSettings.forEach(([key, value], index) => {
    safe[`GIT_CONFIG_KEY_${count + index}`] = key;
    safe[`GIT_CONFIG_VALUE_${count + index}`] = value;
  });
  return safe;
}

/** Whether `value` carries a credential whatever its variable is called. */
function holdsSecret(value: string): boolean {
  const trimmed = value.trim();
  if (knownKey.test(trimmed) || urlWithPassword.test(trimmed) || urlQueryCredential.test(trimmed) || connectionPassword.test(trimmed)) return true;
  const user = urlUser.exec(trimmed)?.[1];
  return (user !== undefined && looksGenerated(user)) || looksGenerated(trimmed);
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
