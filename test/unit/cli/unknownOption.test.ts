import assert from 'node:assert/strict';
import { parseArgs } from 'node:util';
import { parseErrorMessage } from '../../../src/cli/unknownOption';

const options = { concurrency: { type: 'string' }, yes: { type: 'boolean' }, workspace: { type: 'string' } } as const;

/** What the CLI says of `args` parsed against `options`. */
function said(args: string[]): string {
  try {
    parseArgs({ args, options, allowPositionals: true });
  } catch (error) {
    return parseErrorMessage(error, Object.keys(options));
  }
  throw new Error(`${args.join(' ')} parsed`);
}

describe('parseErrorMessage: what the command line says of arguments it cannot parse', () => {
  it('names a mistyped option as the option meant, without advice about positional arguments', () => {
    assert.equal(said(['run', 'p.json', '--concurency', '2']), 'Unknown option --concurency. Did you mean --concurrency?');
    assert.equal(said(['--yess']), 'Unknown option --yess. Did you mean --yes?');
    assert.equal(said(['--workspac=/tmp']), 'Unknown option --workspac. Did you mean --workspace?');
  });

  it('an option near none, or text starting with "-", gets how to give such text, and Node\'s unclosed quote is gone', () => {
    const far = said(['--frobnicate']);
    assert.match(far, /^Unknown option '--frobnicate'\.\nA request or answer that starts with "-" followed by a space is text\./);
    assert.doesNotMatch(far, /positional argument/);
    assert.match(said(['plan', '-fix']), /^Unknown option '-f'\.\n/);
  });
});
