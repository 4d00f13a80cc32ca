// What both pages share: JSON calls to /api with the player's cookie, and showing a refusal.
export async function api(path, body) {
  const init = body === undefined ? {} : {method: "POST", headers: {"content-type": "application/json"},
                                          body: JSON.stringify(body)};
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({error: `the server answered ${response.status}`}));
  if (!response.ok) throw Object.assign(new Error(data.error || `status ${response.status}`), {status: response.status});
  return data;
}

export function showError(message) {
  const box = document.getElementById("error");
  box.textContent = message || "";
  box.hidden = !message;
}

export function actionId() {
  if (globalThis.crypto && crypto.randomUUID) return crypto.randomUUID();
  return Array.from({length: 4}, () => Math.random().toString(16).slice(2, 10)).join("-");
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = v; else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  node.append(...children);
  return node;
}

/** A game's AI levels as the options of `select`, normal chosen (the platform's default). */
export function levels(select, game) {
  const offered = game.ai_levels && game.ai_levels.length ? game.ai_levels : ["normal"];
  select.replaceChildren(...offered.map(v => el("option", {value: v, text: v})));
  select.value = offered.includes("normal") ? "normal" : offered[0];
}
