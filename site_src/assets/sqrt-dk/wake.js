//# allFunctionsCalledOnLoad
// The pace of hydration: once Python is ready, the figures are woken one per task, in reading order with
// those in view first, so that a page of figures never wakes in one long task; and an answer from
// Python is applied in an animation frame, so its DOM patch and the style and layout it causes come
// once per frame, just before the frame paints.

const FRAME_WAIT_MS = 100; // a page in the background, or a frame scrolled out of its host's view, gets no frames

/** Resolves at the next animation frame (or after FRAME_WAIT_MS where the browser gives none). */
export const nextFrame = () => new Promise((resolve) => {
  requestAnimationFrame(resolve);
  setTimeout(resolve, FRAME_WAIT_MS);
});

/** Run a task of its own, after whatever the browser has queued (input first). */
export const task = (fn) => (globalThis.scheduler && scheduler.postTask ? scheduler.postTask(fn) : setTimeout(fn, 0));

/** Whether the element shows in the viewport now. One inside a closed aside does not, and is not measured:
 * measuring it would make the browser lay out the aside's hidden content. */
function inView(el) {
  if (el.closest("details:not([open])")) return false;
  const box = el.getBoundingClientRect();
  return box.bottom > 0 && box.top < innerHeight && box.height > 0;
}

/**
 * Wake each view with ``wake(view)``, one per task: those whose element is in view first, then the rest,
 * each in document order. A view whose element has left the page by its turn (a page swap) is skipped.
 * @param {{el: HTMLElement}[]} views in document order
 */
export function wakeInOrder(views, wake) {
  const shown = views.filter((view) => inView(view.el));
  const order = [...shown, ...views.filter((view) => !shown.includes(view))];
  const next = () => {
    const view = order.shift();
    if (!view) return;
    if (document.contains(view.el)) wake(view);
    task(next);
  };
  task(next);
}
