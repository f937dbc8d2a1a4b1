import { caseFold, isPlainAscii } from './caseFold';
import { windowsName } from './windowsName';

/**
 * Files of a workspace that hold credentials by their name: what a tool reads goes to the model, so tools do not read
 * them (`read_file` refuses them, `search_text` leaves them out). By the file's own name, in any letter case:
 * environment files (`.env`, `.env.local`, `.env.production`…, `.env-prod`, `prod.env`, direnv's `.envrc`, Cloudflare's
 * `.dev.vars`, but not `.env.example`, `.env.sample`, `.env.template`, `.env.dist`), the credential files of package
 * managers and tools (`.npmrc`, `.yarnrc`, `.yarnrc.yml`, `.pypirc`, `.netrc`, `.git-credentials`, `.dockercfg`, `.pgpass`,
 * `.my.cnf`, `.s3cfg`, `.boto`, `.vault-token`, `.terraformrc`, `.htpasswd`, `credentials`, `credentials.json`,
 * `credentials.toml`), private keys (`id_rsa`, `id_ed25519`…, and their copies such as `id_rsa.bak`, not their `.pub`;
 * `*.pem`, `*.key`, `*.p8`, `*.ppk`, `*.p12`, `*.pfx`, `*.jks`, `*.keystore`, `*.keytab`, `*.kdbx`), Terraform's state
 * (also its timestamped backups) and variables files, which hold the secrets they were given, and a `kubeconfig`. A backup
 * copy of any of these (`~`, `.bak`, `_old`, `-backup`, `.orig`, `.save`, `.swp`…) holds the same, and so does a copy named as a
 * file manager, a browser or a download names one (`.env copy`, `.env copy 2`, `.npmrc - Copy`, `.env (1)`, `.env (copy)`,
 * `credentials (1).json`, `.npmrc.1`). By
 * place: everything in a `.ssh` or `.gnupg` folder but public keys, `.docker/config.json`, `.kube/config`, the GitHub
 * CLI's `gh/hosts.yml`, and the `config` of a bare or mirror clone (`mirror.git/config`), which holds a remote's token as
 * `.git/config` does.
 */
const credentialName = new RegExp(
  '^(' +
    [
      String.raw`\.env([._-](?!(example|sample|template|dist)$)[^/]+)?`,
      String.raw`\.npmrc|\.yarnrc(\.yml)?|\.pypirc|[._]netrc|\.git-credentials|\.dockercfg|\.pgpass|\.my\.cnf|\.s3cfg|\.boto|\.vault-token`,
      String.raw`\.terraformrc|terraform\.rc|\.htpasswd|\.dev\.vars|credentials(\.json|\.toml)?|\.envrc`,
      String.raw`id_(rsa|dsa|ecdsa|ed25519)(_sk)?(\.(?!pub$)[^/]+)?`,
      String.raw`.+\.(pem|key|p8|ppk|p12|pfx|jks|keystore|keytab|kdbx)|.+\.env|.+\.tfstate(\.\d+)?(\.backup)?|.+\.tfvars(\.json)?|kubeconfig`,
    ].join('|') +
    ')$',
  'i',
);

/**
 * What a copy's name adds to the name it copies: a backup's suffix (`.env.bak`, `.env~`, `.npmrc_bak`, `id_rsa-old`,
 * `credentials-backup.json`), a download's number (wget's `.npmrc.1`), or the mark a file manager or a browser puts at
 * the end of the name or before its extensions (macOS `.env copy 2` and `.env 2`, Windows `.npmrc - Copy (2)`, GNOME
 * `.env (copy)`, a download's `credentials (1).json`), never inside a word (`kube (1)config` is no copy of `kubeconfig`).
 */
const copySuffixes = [
  /(?:~|\.\d+)$/,
  /[._-](?:bak|backup|old|orig|save|swp|tmp|copy)(?=(?:\.[^./ ]+)?$)/i,
  // `.env copy 2` is cut twice: its number, then its mark.
  /(?: copy| - copy| \((?:\d+|copy|another copy|\d+(?:st|nd|rd|th) copy)\)| \d+)(?=(?:\.[^./ ]+)*$)/i,
];

/** What every mark of `copySuffixes` holds: a name without any is no copy (most names; search_text judges every listed one). */
// Stryker disable next-line Regex: a mark taken for more names changes only speed; one missed fails the property test.
const copyMark = /~$|\.\d+$|[._-](?:bak|backup|old|orig|save|swp|tmp|copy)| /i;

/** The name `name` without the marks of a copy at its end, as often as they are there (`.env.bak~`, `.env copy.bak`). */
function withoutBackupSuffixes(name: string): string {
  // Stryker disable next-line ConditionalExpression,BooleanLiteral: cutting every name changes only speed.
  if (!copyMark.test(name)) return name;
  let kept = name;
  for (let shorter = cutOnce(kept); shorter !== kept; shorter = cutOnce(kept)) kept = shorter;
  return kept;
}

function cutOnce(name: string): string {
  return copySuffixes.reduce((text, suffix) => text.replace(suffix, ''), name);
}

/** Places whose files hold credentials, as the ends of a path in lower case: a folder (`.ssh/`) or a file in one. */
const credentialPlaces = ['.ssh/', '.gnupg/', '.docker/config.json', '.kube/config', 'gh/hosts.yml'];

/** The `config` of a bare or mirror clone (`git clone --bare` names its folder `<name>.git`), in lower case. */
const bareCloneConfig = /\/[^/]+\.git\/config$/;

/** Whether every name of `relative` is plain ASCII ending in neither a dot nor a space: `windowsName` keeps it, `caseFold` lowers it. */
function plainNames(relative: string): boolean {
  // Stryker disable next-line ConditionalExpression,BlockStatement,Regex: fewer paths taken for plain change only speed; others fail the tests.
  return isPlainAscii(relative) && !/[. ](?:\/|$)/.test(relative);
}

/**
 * The workspace-relative `relative` as `isCredentialFile` judges it: each name as Windows opens it (without its trailing
 * dots and spaces: `.env.` and `.ssh /id_rsa` open `.env` and `.ssh/id_rsa` there) folded as a case-insensitive disk folds
 * it (`credentialſ` and `deploy.\u212Aey` open `credentials` and `deploy.key` there), and the file's name without the marks
 * of a copy an editor or a person left beside it, which holds the same (`.env~`, `.npmrc.bak`, `.kube/config.old`).
 */
export function credentialKey(relative: string): string {
  // Stryker disable next-line ConditionalExpression: folding name by name always changes only speed.
  const folded = plainNames(relative) ? relative.toLowerCase() : relative.split('/').map((segment) => caseFold(windowsName(segment))).join('/');
  // A copy's marks never hold a slash: they are cut from the name alone.
  const slash = folded.lastIndexOf('/');
  return `${folded.slice(0, slash + 1)}${withoutBackupSuffixes(folded.slice(slash + 1))}`;
}

/** `true` when the workspace-relative `relative` (`/`-separated) names a file that holds credentials by its name or place. */
export function isCredentialFile(relative: string): boolean {
  const kept = credentialKey(relative);
  const name = kept.slice(kept.lastIndexOf('/') + 1);
  if (credentialName.test(name)) return true;
  const path = `/${kept}`;
  if (bareCloneConfig.test(path)) return true;
  return credentialPlaces.some((place) => {
    if (!place.endsWith('/')) return path.endsWith(`/${place}`);
    return path.includes(`/${place}`) && !name.endsWith('.pub');
  });
}

const privateKeyBlock = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|PuTTY-User-Key-File-\d+:/;

/**
 * `true` when `text` holds a private key whatever its file's name (a PEM or OpenSSH block, a PGP secret key, a PuTTY key):
 * a cloud service account's `service-account.json`, a key pasted into a config. Tools read no such file for a model.
 */
export function holdsPrivateKey(text: string): boolean {
  return privateKeyBlock.test(text);
}

// A key's block from its first line to its last, or to the end of the text when its last line is not there (output cut short); what
// comes between may be anything (a search's `file:` before each line, a JSON string's `\n`).
const privateKeySpan = new RegExp(
  [
    String.raw`-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|$)`,
    String.raw`PuTTY-User-Key-File-\d+:[\s\S]*?(?:Private-MAC: *[0-9a-fA-F]+|$)`,
  ].join('|'),
  'g',
);

const privateKeyEnd = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;

/** What stands in a text for a private key `withoutPrivateKeys` took out. */
export const withheldPrivateKey = '[a private key: kept from the model]';

/**
 * `text` with every private key `holdsPrivateKey` finds replaced by `withheldPrivateKey`, from its first line to its last (to the
 * end of `text` when that is missing, from the start of `text` when only its last is there), and the rest as it was: a
 * command's output reaches the model as a file a tool reads does (`cat config/dev.yaml`, `rg '' .` over a `server.key`).
 */
export function withoutPrivateKeys(text: string): string {
  const kept = holdsPrivateKey(text) ? text.replace(privateKeySpan, withheldPrivateKey) : text;
  // A key's last line with no first line left before it: the middle of long output was dropped from inside the key, and
  // everything before its last line goes.
  let orphanEnd: RegExpExecArray | null = null;
  for (const found of kept.matchAll(privateKeyEnd)) orphanEnd = found;
  return orphanEnd === null ? kept : `${withheldPrivateKey}${kept.slice(orphanEnd.index + orphanEnd[0].length)}`;
}

/** Why a tool does not give a model a file that `holdsPrivateKey`, in the words of `withheldReason`. */
export const privateKeyReason = 'it holds a private key, and tools do not read it: what a tool reads goes to the model';
