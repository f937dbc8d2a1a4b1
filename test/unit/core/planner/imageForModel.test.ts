import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LlmContentPart } from '../../../../src/core/llm/llmTypes';
import { imageForModel } from '../../../../src/core/planner/imageForModel';
import { planRequest } from '../../../../src/core/planner/planRequest';
import { builtinTools } from '../../../../src/core/tools/builtinTools';
import { createToolRegistry } from '../../../../src/core/tools/createToolRegistry';
import { createNodeWorkspace } from '../../../../src/node/nodeWorkspace';
import { ManualClock } from '../../../fakes/manualClock';
import { scriptedLlm } from '../../../fakes/scriptedLlm';

const signal = new AbortController().signal;
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 1, 2, 3]);
const modelPlan = JSON.stringify({ objective: 'x', steps: [{ id: 'S1', title: 'Look', kind: 'agent', agent: 'a', input: 'look', dependsOn: [] }] });

/** Every image part's URL and every text of a request's messages, as one text. */
function sent(content: string | LlmContentPart[] | undefined): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((part) => (part.type === 'text' ? part.text : `[image ${part.url}]`)).join('\n');
}

describe('imageForModel: the images a request sends to the planning model', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'plan-image-'));
    mkdirSync(join(root, 'img'));
    writeFileSync(join(root, 'img', 'shot.png'), png);
    writeFileSync(join(root, '.env'), 'DB_PASSWORD=hunter2');
    writeFileSync(join(root, 'id_rsa.png'), png);
    writeFileSync(join(root, 'notes.png'), 'DB_PASSWORD=hunter2 in a text file named .png');
    symlinkSync('../.env', join(root, 'img', 'logo.png'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  // Found while attacking planning (2026): the editor inlined an attached "logo.png" by its extension alone, so a committed
  // link to .env sent DB_PASSWORD to the planner as "image/png" data.
  it('attack: an attached "image" that links to .env, is named as a key, or is text is not sent to the planner; a real one is', async () => {
    const workspace = createNodeWorkspace(root);
    const llm = scriptedLlm([modelPlan]);
    const refs = ['img/logo.png', 'id_rsa.png', 'notes.png', 'img/shot.png'];
    await planRequest('Redesign the header', {
      llm,
      tools: createToolRegistry(builtinTools()),
      signal,
      clock: new ManualClock(0),
      workspace,
      attachments: refs.map((ref) => ({ kind: 'image' as const, ref })),
      attachmentForModel: (attachment) => imageForModel(attachment, workspace, signal),
    });
    const prompt = (llm.requests[0]?.messages ?? []).map((message) => sent(message.content)).join('\n');
    const images = [...prompt.matchAll(/\[image data:[^;]+;base64,([^\]]*)\]/g)].map((match) => Buffer.from(match[1] ?? '', 'base64'));
    assert.ok(!images.some((bytes) => bytes.toString().includes('hunter2')), 'no kept file reaches the model as an image');
    assert.deepEqual(images, [png], 'only the real image is sent');
    for (const ref of ['img/logo.png', 'id_rsa.png', 'notes.png']) assert.ok(prompt.includes(`image: ${ref}`), `${ref} is named only`);
  });

  it('leaves links, data URLs and images without a workspace as they are', async () => {
    const link = { kind: 'image' as const, ref: 'https://example.com/a.png' };
    assert.deepEqual(await imageForModel(link, createNodeWorkspace(root), signal), link);
    assert.deepEqual(await imageForModel({ kind: 'image', ref: 'img/shot.png' }, undefined, signal), { kind: 'image', ref: 'img/shot.png' });
    const big = await imageForModel({ kind: 'image', ref: 'img/shot.png' }, createNodeWorkspace(root), signal, 4);
    assert.equal(big.ref, 'img/shot.png', 'over the byte limit it goes by name');
  });
});
