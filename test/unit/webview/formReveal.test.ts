import assert from 'node:assert/strict';
import { revealScroll } from '../../../webview/formReveal';

describe("revealScroll: a step's edit form shows whole when it opens (a newcomer's trial: it opened under the sticky footer)", () => {
  // A 600 px viewport whose last 50 px the footer with Start covers.
  const view = { top: 0, bottom: 550 };

  it('scrolls down just enough that a form reaching under the footer ends above it', () => {
    assert.equal(revealScroll({ top: 400, bottom: 700 }, view), 700 - 542);
    assert.equal(revealScroll({ top: 400, bottom: 560 }, view), 18, 'a form ending just under the footer is hidden by it');
  });

  it('leaves a form that shows whole where it is, and scrolls up to one above the top', () => {
    assert.equal(revealScroll({ top: 100, bottom: 500 }, view), 0);
    assert.equal(revealScroll({ top: -120, bottom: 200 }, view), -128);
  });

  it('shows a form taller than the room from its top', () => {
    assert.equal(revealScroll({ top: 300, bottom: 1_200 }, view), 292);
  });
});
