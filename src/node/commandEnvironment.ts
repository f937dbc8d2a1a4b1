// Names that mark a variable as a credential: API keys, tokens, passwords, cloud and CI secrets.
const secretName = /(api[_-]?key|apikey|token|secret|passw(or)?d|passphrase|credential|private[_-]?key|auth|session|cookie|signature|^aws_|^azure_|^gcp_|^google_application|^npm_config__?auth|^openai|^anthropic|^github_|^gh_|^gitlab_|^hf_|^huggingface)/i;
// Values that look like a credential whatever the variable is called.
const secretValue = /^(sk-[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{16,}|xox[abprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,}|hf_[A-Za-z0-9]{20,}|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\..*)$/;

/**
 * A copy of `env` without anything that looks like a credential (by name or by value),
 * for processes started on the model's behalf. Everything else (PATH, HOME, locale, …) is kept.
 */
export function withoutSecrets(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || secretName.test(name) || secretValue.test(value.trim())) continue;
    kept[name] = value;
  }
  return kept;
}
