import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as PlanTaskCommand from '../../../src/vscode/planTaskCommand';
import { requireWithVscode } from '../../fakes/requireWithVscode';

describe('the Plan task command\'s argument (the walkthrough\'s "Plan without a model")', () => {
  const { planTaskArgument } = requireWithVscode<typeof PlanTaskCommand>(require.resolve('../../../src/vscode/planTaskCommand'), {});

  it('plans without a model only when asked exactly so; any other argument plans as the command does', () => {
    assert.deepEqual(planTaskArgument({ withoutModel: true }), { withoutModel: true });
    // A command link elsewhere (another extension's Markdown) can pass anything: none of it reaches planning.
    for (const other of [undefined, null, 'withoutModel', true, { withoutModel: 'true' }, { withoutModel: 1 }, { request: 'rm -rf /', withoutModel: false }, [{ withoutModel: true }]]) {
      assert.deepEqual(planTaskArgument(other), {}, JSON.stringify(other));
    }
  });

  it('the walkthrough\'s link passes that argument, URI-encoded as command links are', () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '../../../package.nls.json'), 'utf8')) as Record<string, string>;
    const link = /\[Plan without a model\]\(command:taskPlanner\.planTask\?([^)]+)\)/.exec(manifest['walkthrough.gettingStarted.setUpModel.description'] ?? '');
    assert.ok(link?.[1], 'the first walkthrough step offers to go without a model');
    assert.deepEqual(planTaskArgument(JSON.parse(decodeURIComponent(link[1]))), { withoutModel: true });
  });
});
