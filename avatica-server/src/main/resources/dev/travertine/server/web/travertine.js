"use strict";
// What /play and /dashboard share: requests to the server's HTTP interface (POST /), with the
// user's credentials asked for once, when the server answers 401, and kept for the browser tab.
const Travertine = (() => {
  let auth = sessionStorage.getItem("travertine.auth");

  /** POSTs sql with the given URL parameters; returns the fetch Response (any status but 401). */
  async function request(sql, params) {
    const query = new URLSearchParams(params || {});
    for (;;) {
      const headers = { "Content-Type": "text/plain" };
      if (auth) headers.Authorization = auth;
      const r = await fetch("/?" + query, { method: "POST", body: sql, headers });
      if (r.status === 401) {
        const user = prompt("User name for this server:");
        if (user === null) throw new Error("Code: 516. Authentication needed");
        const password = prompt("Password of " + user + ":") || "";
        auth = "Basic " + btoa(unescape(encodeURIComponent(user + ":" + password)));
        sessionStorage.setItem("travertine.auth", auth);
        continue;
      }
      return r;
    }
  }

  /** Runs sql and returns its answer in ClickHouse's JSONCompact, or throws the server's error text. */
  async function json(sql, params) {
    const r = await request(sql + " FORMAT JSONCompact", params);
    const text = await r.text();
    if (!r.ok) throw new Error(text);
    return JSON.parse(text);
  }

  return { request, json };
})();
