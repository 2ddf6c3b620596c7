/* condraughts: the JSON API call the pages share (index.html, play.html, towers.html; the API is
 * docs/api.md). cdApi(method, path, body) sends body as JSON and resolves to the answer's JSON,
 * or its text when the answer is not JSON; a failure rejects with an Error whose message is the
 * server's "error" and whose .status is the HTTP status. Plain ES2017, no build step. */
'use strict';

/* The pages' forms are read by their scripts, never sent: no form submits the page away (the
 * Content-Security-Policy allows no inline handler, so this is not an onsubmit attribute). */
document.addEventListener('submit', (ev) => ev.preventDefault());

window.cdApi = async function cdApi(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers['Content-Type'] = 'application/json';
    opts.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, opts);
  } catch (e) {
    throw new Error('Cannot reach the server (' + e.message + ')');
  }
  const text = await res.text();
  let data = null;
  const ctype = res.headers.get('Content-Type') || '';
  if (ctype.indexOf('json') >= 0 || /^\s*[[{]/.test(text)) {
    try { data = JSON.parse(text); } catch (e) { data = null; }
  }
  if (!res.ok) {
    const msg = data && data.error ? data.error : (text.trim() || res.statusText);
    const err = new Error(msg);
    err.status = res.status;
    throw err;
  }
  return data !== null ? data : text;
};
