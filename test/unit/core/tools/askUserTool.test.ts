import assert from 'node:assert/strict';
import { askUserTool } from '../../../../src/core/tools/askUserTool';
import { isDeferredError } from '../../../../src/core/tools/deferral';
import { ScriptedInteraction } from '../../../fakes/scriptedInteraction';
import { makeToolContext, neverAborted } from '../../../fakes/toolContext';

describe('ask_user', () => {
  it('asks the question with its suggestions and returns the answer', async () => {
    const interaction = new ScriptedInteraction({ clarifications: ['PostgreSQL'] });
    const result = await askUserTool.run(makeToolContext({ interaction, stepId: 'S3', stepTitle: 'Pick a DB' }), { question: 'Which database?', suggestions: ['PostgreSQL', 'SQLite'] }, neverAborted);
    assert.deepEqual(result, { answer: 'PostgreSQL' });
    assert.deepEqual(interaction.clarifications(), [{ stepId: 'S3', title: 'Pick a DB', question: 'Which database?', suggestions: ['PostgreSQL', 'SQLite'] }]);
  });

  it('suspends with DeferredError when nobody can answer now', async () => {
    await assert.rejects(
      askUserTool.run(makeToolContext({ interaction: new ScriptedInteraction({ clarifications: ['defer'] }) }), { question: 'Why?' }, neverAborted),
      (error: unknown) => isDeferredError(error) && error.kind === 'clarification',
    );
  });

  it('refuses a blank question', () => {
    assert.equal(askUserTool.inputSchema.safeParse({ question: '   ' }).success, false);
  });
});
