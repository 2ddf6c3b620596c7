// harness.mjs -- what the browser tests (play.mjs, profile.mjs, review.mjs) and the screenshots
// (screenshots.mjs) share: their command line (--bin, --chromium, and what opt reads), a server on
// a free port with a fresh database in a temporary folder, headless Chromium, a page opened and
// ready, a request made by a page's own script, and the tally of steps passed and failed.
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const here = path.dirname(fileURLToPath(import.meta.url));
export const repo = path.resolve(here, '..', '..');
const argv = process.argv.slice(2);
/* The value after option `name` on the command line (undefined: not given). */
export const opt = (name) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : undefined; };
export const bin = opt('--bin') || path.join(repo, 'build', 'condraughts');
export const chromePath = opt('--chromium') || process.env.CHROMIUM || '/usr/bin/chromium';
export const DESKTOP = { viewport: { width: 1280, height: 800 } };
export const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true };
export const log = (s) => process.stdout.write(s + '\n');
export function assert(c, msg) { if (!c) throw new Error(msg); }
export function eq(got, want, what) {
  assert(JSON.stringify(got) === JSON.stringify(want), `${what}: ${JSON.stringify(got)}, not ${JSON.stringify(want)}`);
}

/* `condraughts serve` on port (0: a free one) with its database and games under the folder tmp,
 * serving web/: resolves to { proc, url } once it prints its URL; rejects when it stops first or
 * has printed none within 15 s (then it is stopped). onOutput: given each piece of its output. */
export function serve(tmp, { port = 0, onOutput } = {}) {
  const proc = spawn(bin, ['serve', '--port', String(port), '--data', path.join(tmp, 'games'), '--db',
    path.join(tmp, 'play.db'), '--web', path.join(repo, 'web')], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let said = '';
    const timer = setTimeout(() => { proc.kill('SIGTERM'); reject(new Error('the server printed no URL: ' + said)); }, 15000);
    const look = (chunk) => {
      said += chunk;
      if (onOutput) onOutput(chunk.toString());
      const m = /serving (http:\/\/[^\s]+\/)/.exec(said);
      if (m) { clearTimeout(timer); resolve({ proc, url: m[1] }); }
    };
    proc.stdout.on('data', look);
    proc.stderr.on('data', look);
    proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`the server stopped (${code}): ${said}`)); });
  });
}

/* Headless Chromium, with the switches in `extra` besides the usual ones. */
export function launch(extra = []) {
  return chromium.launch({ executablePath: chromePath, headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', ...extra] });
}

/* A new page of kind (DESKTOP, PHONE) in a browser context of its own (its own cookies) at
 * url + at (play.html when none), once its script is ready; watch: given the page first. */
export async function open(browser, url, kind, at, watch) {
  const ctx = await browser.newContext(kind);
  const p = await ctx.newPage();
  if (watch) watch(p);
  await p.goto(url + (at || 'play.html'));
  await p.waitForSelector('#app[data-ready="1"]');
  return p;
}

/* A request from page p, as its own script would make it: the answer's JSON (a status of 400 or
 * more throws). */
export async function call(p, method, url, body) {
  const r = await p.evaluate(async ([m, u, b]) => {
    const res = await fetch(u, { method: m, headers: { 'Content-Type': 'application/json' },
      body: b === undefined ? undefined : JSON.stringify(b) });
    return { status: res.status, json: await res.json() };
  }, [method, url, body]);
  if (r.status >= 400) throw new Error(`${method} ${url}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json;
}

/* The tally of test `name`: step(what, fn) runs fn and prints "ok" or "FAIL" with the error's first
 * line (and the selector playwright waited for), calling onFail after a failure; fail(msg) counts
 * a failure outside a step; finish(browser, server, tmp) closes the browser, stops the server if
 * it runs, removes tmp, prints "NAME: N passed, M failed" and exits (1 after a failure). */
export function tally(name, onFail) {
  let passed = 0, failed = 0;
  const step = async (what, fn) => {
    try { await fn(); passed++; log(`ok   ${what}`); } catch (e) {
      failed++;
      const lines = (e && e.message || String(e)).split('\n');
      const waited = lines.find((l) => /waiting for/.test(l));
      log(`FAIL ${what}: ${lines[0]}${waited ? ' (' + waited.trim() + ')' : ''}`);
      if (onFail) onFail();
    }
  };
  const fail = (msg) => { failed++; log('FAIL ' + msg); };
  const finish = async (browser, server, tmp) => {
    try { if (browser) await browser.close(); } catch (e) { /* already gone */ }
    if (server && server.exitCode === null) server.kill('SIGTERM');
    fs.rmSync(tmp, { recursive: true, force: true });
    log(`${name}: ${passed} passed, ${failed} failed`);
    process.exit(failed ? 1 : 0);
  };
  return { step, fail, finish };
}
