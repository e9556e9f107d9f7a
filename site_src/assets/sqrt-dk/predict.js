//# allFunctionsCalledOnLoad
// Predict, then see: a [data-predict] block asks a question just before the figure that answers it.
// The reader picks a [data-choice]; "Show me" asks pycore for the answering state and its verdict,
// the figure draws that state, and once it is drawn the block gets data-outcome="right" or "wrong"
// and pycore's sentence of why. Which choice is right is computed in pycore (predict.py), never here.
import { t } from "./i18n.js";

/** Bind every prediction block on the page to its figure's view (``viewOf(element)``). */
export function bindPredictions(client, viewOf) {
  document.querySelectorAll("[data-predict]:not([data-bound])").forEach((block) => {
    const figure = document.getElementById(block.dataset.for);
    const view = figure && viewOf(figure);
    if (!view) return;
    block.dataset.bound = "true";
    const why = block.querySelector("[data-why]");
    const choices = [...block.querySelectorAll("[data-choice]")];
    let chosen = null;
    let waiting = null; // the predict answer whose state the figure is drawing
    const enable = () => {
      block.querySelectorAll("button").forEach((b) => { b.disabled = false; });
      why.textContent = t("Choose an answer, then press Show me.");
    };
    if (figure.dataset.ready) enable(); else figure.addEventListener("sq:drawn", enable, { once: true });
    choices.forEach((button) => button.addEventListener("click", () => {
      chosen = button.dataset.choice;
      choices.forEach((c) => c.setAttribute("aria-pressed", String(c === button)));
      delete block.dataset.outcome;
    }));
    figure.addEventListener("sq:drawn", (e) => {
      if (!waiting || JSON.stringify(e.detail) !== JSON.stringify(waiting.state)) return;
      const { right } = waiting;
      const words = choices.find((c) => c.dataset.choice === right).textContent;
      if (chosen) block.dataset.outcome = chosen === right ? "right" : "wrong";
      const verdict = !chosen ? t("The answer: “{words}”.", { words }) : chosen === right ? t("Right.")
        : t("Not quite: the answer is “{words}”.", { words });
      why.textContent = `${verdict} ${waiting.why}`;
      waiting = null;
    });
    block.querySelector("[data-show-me]").addEventListener("click", async () => {
      const answer = await client.call({ op: "predict", prompt: block.dataset.predict, state: view.initial, show: JSON.parse(block.dataset.show) });
      if (answer.failed) { why.textContent = t("This question hit a problem: {message}", { message: answer.error }); return; }
      waiting = answer;
      view.showState(answer.state);
    });
  });
}
