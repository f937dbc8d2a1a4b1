/**
 * Files of a workspace that hold credentials by their name: what a tool reads goes to the model, so tools do not read
 * them (`read_file` refuses them, `search_text` leaves them out). By the file's own name, in any letter case:
 * environment files (`.env`, `.env.local`, `.env.production`…, `prod.env`, direnv's `.envrc`, but not `.env.example`, `.env.sample`,
 * `.env.template`, `.env.dist`), the credential files of package managers and tools (`.npmrc`, `.pypirc`, `.netrc`,
 * `.git-credentials`, `.dockercfg`, `credentials`, `credentials.json`), private keys (`id_rsa`, `id_ed25519`…, not their
 * `.pub`; `*.pem`, `*.key`, `*.p12`, `*.pfx`, `*.jks`, `*.keystore`), and Terraform's state and variables files, which
 * hold the secrets they were given.
 */
const credentialName =
  /^(\.env(\.(?!(example|sample|template|dist)$)[^/]+)?|\.npmrc|\.pypirc|[._]netrc|\.git-credentials|\.dockercfg|credentials(\.json)?|\.envrc|id_(rsa|dsa|ecdsa|ed25519)(_sk)?|.+\.(pem|key|p12|pfx|jks|keystore)|.+\.env|.+\.tfstate(\.backup)?|.+\.tfvars(\.json)?)$/i;

/** `true` when the workspace-relative `relative` (`/`-separated) names a file that holds credentials by its name. */
export function isCredentialFile(relative: string): boolean {
  const name = relative.slice(relative.lastIndexOf('/') + 1);
  return credentialName.test(name);
}
