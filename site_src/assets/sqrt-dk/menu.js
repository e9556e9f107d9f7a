//# allFunctionsCalledOnLoad
// Every actions menu (templates/menu.html.j2), on every page: its button shows or hides the list
// of actions in the page's flow (a disclosure: Tab moves through the actions, which stay open until
// the button is pressed again), and Escape inside the menu closes it and puts focus back on the button.

function toggle(button, open) {
  button.setAttribute("aria-expanded", String(open));
  document.getElementById(button.getAttribute("aria-controls")).hidden = !open;
}

document.addEventListener("click", (e) => {
  const button = e.target.closest("[data-menu] > button[aria-controls]");
  if (button) toggle(button, button.getAttribute("aria-expanded") !== "true");
});

document.addEventListener("keydown", (e) => {
  const menu = e.key === "Escape" && e.target.closest("[data-menu]");
  const button = menu && menu.querySelector(":scope > button[aria-expanded='true']");
  if (!button) return;
  toggle(button, false);
  button.focus();
});
