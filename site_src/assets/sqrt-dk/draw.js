// The article's heavy blocks skip their rendering while far off screen as a page starts (figures.css), which is
// when Material restyles the whole page several times. Once the page has loaded and Python has started (or
// failed to), they are drawn for good, one per idle moment, so that from then on a script, a search or a
// screenshot finds every block drawn: a skipped block has no rendered text (its innerText is empty) until it is.
// Drawing them at the load instead put that work back inside the page's start (make bench, README).

const DRAW_MARK = "sqrt-dk:draw";
const idle = (fn) => (window.requestIdleCallback ? requestIdleCallback(fn, { timeout: 1000 }) : setTimeout(fn, 0));

/**
 * Once the page has loaded and ``after`` has settled, end the skipping of the article's blocks, in reading
 * order, one per idle callback.
 * @param {Promise<unknown>} after
 */
export function drawAllSoon(after) {
  const begin = () => after.catch(() => {}).then(start); // a failed start is reported elsewhere
  const start = () => {
    const blocks = [...document.querySelectorAll(".md-content__inner > *")];
    const next = () => {
      let block = blocks.shift();
      while (block && getComputedStyle(block).contentVisibility !== "auto") block = blocks.shift();
      if (!block) return;
      block.style.contentVisibility = "visible";
      performance.mark(DRAW_MARK); // the next frame's work is this drawing's (make bench counts it as ours)
      idle(next);
    };
    idle(next);
  };
  if (document.readyState === "complete") begin();
  else addEventListener("load", begin, { once: true });
}
