import assert from 'node:assert/strict';
import { withoutSecrets } from '../../../src/node/commandEnvironment';

// Attacks on docs/security.md §4.2 "Never: inherit a variable that looks like a credential … by value: … a known key
// format, a long … secret". Each value sits under a name that says nothing (`FOO`, `X`), as a CI system's or a user's
// shell may hold it, and reached every command and MCP server before the fix: keys of one letter case (base36, hex after
// a prefix) pass `looksGenerated`, which wants upper case, lower case and digits, and their formats were not known.
const keptOf = (values: Record<string, string>): string[] => Object.keys(withoutSecrets(values));

describe('attack: credentials of one letter case, or in formats not known, that withoutSecrets kept', () => {
  it('attack: New Relic, Netlify, GitLab pipeline-trigger and runner, Pulumi, Sentry, Mailgun, Mailchimp, RubyGems, Supabase tokens', () => {
    assert.deepEqual(
      keptOf({
        X: 'NRAK-7ABWJXQXMTTTLNXZSAAG987FYOE',
        FOO: 'nfp_ztesx9dvlevjxywc6kqo2g3duy5iwazpzguu',
        TRIGGER: 'glptt-cc21bfa447733e242d1c517628bfdba633a0c5d5',
        RUNNER: 'glrt-jgbca98fh26x5afuad47',
        PUL: 'pul-5ae4de34dd823e8a5d09195151a68396c851dc7c',
        SENTRY: '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',
        MG: 'key-3d9aaa0f74837fa150354afaaecb6392',
        MC: '3d9aaa0f74837fa150354afaaecb6392-us12',
        GEMS: 'rubygems_72c52f1959a6a388eb20b000f61052de74462510fa44cb6e',
        SB: 'sbp_73b008e599eae363c0792da00266d82147fa598b',
      }),
      [],
    );
  });

  it('attack: a token of one letter case in no known format: base36 after a prefix, lower or upper case alone', () => {
    assert.deepEqual(
      keptOf({
        DP: 'dp.st.prd.ddj1uxqfz8rwcxt6eiwwswe8txg4hh24yi1mw6rc',
        OLD: 'ogqauzyrw8yurpjpn5r04lblcp0rliuma4zof08j5ma',
        UP: '5I7JF4RXKUT6366EM9PECX1XTIRE8TR9',
      }),
      [],
    );
  });

  it('attack: a PGP secret key block, a PuTTY key, a Docker config with an auth member, a service account JSON', () => {
    assert.deepEqual(
      keptOf({
        PGP: '-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBGXj\n-----END PGP PRIVATE KEY BLOCK-----',
        PPK: 'PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPrivate-Lines: 1\nAAAA',
        CFG: '{"auths":{"ghcr.io":{"auth":"dXNlcjpodW50ZXIy"}}}',
        SA: '{"type":"service_account","client_email":"a@b.iam.gserviceaccount.com","private_key":"x"}',
      }),
      [],
    );
  });

  it('held: the known formats of GitHub, GitLab, Slack, OpenAI, AWS, npm and PEM keys under names that say nothing (a control)', () => {
    assert.deepEqual(
      keptOf({
        A: 'ghp_ABCDEFabcdef0123456789ABCDEFabcdef01',
        B: 'github_pat_11ABCDEFG0123456789_abcdefghijABCDEFGHIJ0123456789',
        C: 'glpat-xxxxxxxxxxxxxxxxxxxx',
        D: 'xoxb-1234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx',
        E: 'sk-proj-abcdefABCDEF0123456789abcdef',
        F: 'AKIAIOSFODNN7EXAMPLE',
        G: 'npm_abcdefABCDEF0123456789abcdefABCDEF',
        H: '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE\n-----END OPENSSH PRIVATE KEY-----',
      }),
      [],
    );
  });

  it('keeps ordinary values: UUIDs (a Codecov token is one, and cannot be told from them), commit ids, digests, ids, paths, locales', () => {
    const plain = {
      INVOCATION_ID: '6f1c2d6e5a3b4c2d9e8f0a1b2c3d4e5f',
      RUN_UUID: '6f1c2d6e-5a3b-4c2d-9e8f-0a1b2c3d4e5f',
      CODECOV_LIKE: '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0',
      COMMIT: 'e6932a01e6932a01b2c3d4e5f60718293a4b5c6d',
      MD5: 'd41d8cd98f00b204e9800998ecf8427e',
      OBJECT_ID: '65a1b2c3d4e5f60718293a4b',
      ULID: '01ARZ3NDEKTSV4RRFFQ69G5FAV',
      BUILD: 'abcdefghij0123456789klmnopqrst',
      SHORT_PREFIXED: 'job-ab12cd34ef56gh78ij90kl12mn',
      POD: 'myapp-7d9f8c6b5-x2x4z',
      PATH: '/usr/local/bin:/usr/bin:/bin',
      HOME: '/home/dev',
      LANG: 'en_US.UTF-8',
      RELEASE: 'v1.2.3',
      NIX_STORE: '/nix/store/9b5kxpzp8g3hwfz8lcqv2fmj7ahk3xbc-hello',
    };
    assert.deepEqual(keptOf(plain), Object.keys(plain));
  });
});

// Each format at its shortest inside a command line (`use <key> now`), where no rule about a whole value applies: removed;
// one character short, or glued to what the format forbids around it: kept.
const hex = (length: number): string => '0123456789abcdef'.repeat(8).slice(0, length);
const base36 = (length: number): string => 'q8zr2lmx9vt4kp7wn1cy5bh3jd6fg0sa'.repeat(4).slice(0, length);
const alnum = (length: number): string => 'q8Zr2LmX9vT4kP7wN1cY5bH3jD6fG0sA'.repeat(4).slice(0, length);
const formats: [shortest: string, short: string][] = [
  ...['glpat', 'gldt', 'glrt', 'glptt', 'glft', 'glcbt', 'gloas', 'glimt', 'glagent', 'glsoat', 'glffct', 'glwt'].map(
    (prefix): [string, string] => [`${prefix}-${alnum(16)}`, `${prefix}-${alnum(15)}`],
  ),
  [`GR1348941${alnum(20)}`, `GR1348941${alnum(19)}`],
  ...['AK', 'II', 'JS', 'RA', 'SP', 'AA'].map((kind): [string, string] => [`NR${kind}-${alnum(19)}`, `NR${kind}-${alnum(18)}`]),
  [`nfp_${alnum(36)}`, `nfp_${alnum(35)}`],
  [`pul-${hex(40)}`, `pul-${hex(39)}`],
  [`sntryu_${alnum(30)}`, `sntryu_${alnum(29)}`],
  [`sntrys_${alnum(30)}`, `sntryx_${alnum(30)}`],
  [`key-${hex(32)}`, `key-${hex(31)}`],
  [`key-${hex(32)}`, `x.key-${hex(32)}`],
  [`key-${hex(32)}`, `key-${hex(33)}`],
  [`${hex(32)}-us1`, `${hex(31)}-us1`],
  [`${hex(32)}-us12`, `${hex(32)}-us12x`],
  [`rubygems_${hex(48)}`, `rubygems_${hex(47)}`],
  [`sbp_${hex(40)}`, `sbp_${hex(39)}`],
  [`dckr_pat_${alnum(20)}`, `dckr_pat_${alnum(19)}`],
  ...['st', 'pt', 'ct', 'sa', 'scim', 'audit'].map((kind): [string, string] => [`dp.${kind}.${base36(30)}`, `dp.${kind}.${base36(29)}`]),
  [`lin_api_${alnum(30)}`, `lin_api_${alnum(29)}`],
  [`glsa_${alnum(32)}_${hex(8)}`, `glsa_${alnum(31)}_${hex(8)}`],
  [`glsa_${alnum(32)}_${hex(8)}`, `glsa_${alnum(32)}_${hex(7)}`],
  [`glc_${alnum(32)}`, `glc_${alnum(31)}`],
  [`fm1_${alnum(20)}`, `fm1_${alnum(19)}`],
  [`fm2_${alnum(20)}`, `fm3_${alnum(20)}`],
  [`${alnum(14)}.atlasv1.${alnum(60)}`, `${alnum(14)}.atlasv1.${alnum(59)}`],
  [`${alnum(14)}.atlasv1.${alnum(60)}`, `-${alnum(13)}.atlasv1.${alnum(60)}`],
  [`PMAK-${hex(24)}-${hex(34)}`, `PMAK-${hex(23)}-${hex(34)}`],
  [`PMAK-${hex(24)}-${hex(34)}`, `PMAK-${hex(24)}-${hex(33)}`],
];

describe('withoutSecrets: each added key format at its edge', () => {
  for (const [shortest, short] of formats) {
    it(`removes "use ${shortest} now" and keeps "use ${short} now"`, () => {
      assert.deepEqual(keptOf({ CMD: `use ${shortest} now` }), []);
      assert.deepEqual(keptOf({ CMD: `use ${short} now` }), ['CMD']);
    });
  }

  it('a token of one letter case counts as the whole value, after one to three prefix words of letters (27 characters) or alone (32)', () => {
    const removed = {
      A: `job-${base36(27)}`,
      B: `ab.cd.ef-${base36(27)}`,
      C: `JOB-${base36(27).toUpperCase()}`,
      D: base36(32),
      E: base36(32).toUpperCase(),
      F: `x-${base36(27)}`,
    };
    assert.deepEqual(keptOf(removed), []);
    const kept = {
      SHORT: `job-${base36(26)}`,
      ALONE_SHORT: base36(31),
      FOUR_WORDS: `ab.cd.ef.gh-${base36(27)}`,
      LONG_WORD: `abcdefghijklm-${base36(27)}`,
      DIGIT_WORD: `v2-${base36(27)}`,
      AFTER: `job-${base36(27)} now`,
      BEFORE: `now job-${base36(27)}`,
      ALONE_AFTER: `${base36(32)} now`,
      ALONE_BEFORE: `now ${base36(32)}`,
      LETTERS: `job-${'abcdefghijklmnopqrstuvwxyzabcdef'}`,
      DIGITS: `job-${'0123456789'.repeat(3)}`,
      HEX: `job-${hex(40)}`,
    };
    assert.deepEqual(keptOf(kept), Object.keys(kept));
  });
});
