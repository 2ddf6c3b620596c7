// Browser test of a finished game's review: Ann and Bob play 1. 33-28 18-22 2. 28-23 19x28
// 3. 32x23 through the API (28-23 hangs a man: `condraughts pdn annotate --time 0.1` scores it
// about -1.55, '??'), Bob resigns; on play.html the button "Review on the analysis board" imports
// the game and opens index.html with its review, which marks 28-23 and no other move, draws the
// evaluation graph, and steps through the positions with the arrow keys and by clicking a move
// (the boards shown are the game's: a white man on 23 after ply 3, a black one on 28 after 4).
//   node review.mjs [--bin PATH] [--chromium PATH] [--shots DIR]   Prints "review-web: N passed, M failed".
// --shots DIR: also review-desktop.png into DIR (make screenshots: docs/screenshots).
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const argv = process.argv.slice(2);
const opt = (name) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : undefined; };
const bin = opt('--bin') || path.join(repo, 'build', 'condraughts');
const chromePath = opt('--chromium') || process.env.CHROMIUM || '/usr/bin/chromium';
const shots = opt('--shots');
const TIMEOUT = 20000;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'condraughts-review-web-'));
const log = (s) => process.stdout.write(s + '\n');
let passed = 0, failed = 0, server = null, browser = null;
function assert(c, msg) { if (!c) throw new Error(msg); }
async function step(name, fn) {
  try { await fn(); passed++; log(`ok   ${name}`); } catch (e) {
    failed++;
    log(`FAIL ${name}: ${(e && e.message || String(e)).split('\n')[0]}`);
  }
}

function startServer() {
  server = spawn(bin, ['serve', '--port', '0', '--data', path.join(tmp, 'games'), '--db',
    path.join(tmp, 'play.db'), '--web', path.join(repo, 'web')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no port: ' + out)), 15000);
    const onData = (d) => {
      out += d.toString();
      const m = /serving (http:\/\/[^\s]+\/)/.exec(out);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    };
    server.stdout.on('data', onData);
    server.stderr.on('data', onData);
    server.on('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited (${code}): ${out}`)); });
  });
}

/* A request from page p, as its own script would make it. */
async function call(p, method, url, body) {
  const r = await p.evaluate(async ([m, u, b]) => {
    const res = await fetch(u, { method: m, headers: { 'Content-Type': 'application/json' },
      body: b === undefined ? undefined : JSON.stringify(b) });
    return { status: res.status, json: await res.json() };
  }, [method, url, body]);
  if (r.status >= 400) throw new Error(`${method} ${url}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json;
}

const view = (p) => p.evaluate(() => document.getElementById('app').dataset.reviewView);
const square = (p, n) => p.evaluate((k) => window.condraughts.state.viewBoard[k - 1], n);

async function main() {
  const url = await startServer();
  browser = await chromium.launch({ executablePath: chromePath, headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--hide-scrollbars'] });
  const errors = [];
  const open = async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const p = await ctx.newPage();
    p.on('pageerror', (e) => errors.push(e.message));
    p.on('dialog', (d) => { errors.push('dialog: ' + d.message()); d.dismiss(); });
    await p.goto(url + 'play.html');
    await p.waitForSelector('#app[data-ready="1"]');
    return p;
  };
  const ann = await open(), bob = await open();
  const line = ['33-28', '18-22', '28-23', '19x28', '32x23'];
  let id;
  await step('a game is played and resigned', async () => {
    const g = await call(ann, 'POST', 'api/play', { variant: 'international', name: 'Ann<img src=x>',
      colour: 'white', open: true });
    id = g.id;
    await call(bob, 'POST', `api/play/${id}/join`, { name: 'Bob' });
    for (let i = 0; i < line.length; i++) await call(i % 2 ? bob : ann, 'POST', `api/play/${id}/move`, { move: line[i] });
    const over = await call(bob, 'POST', `api/play/${id}/resign`, {});
    assert(over.state === 'over', 'state ' + over.state);
  });

  await step('the finished game offers its review; a click opens the analysis board on it', async () => {
    await ann.goto(url + 'play.html#' + id);
    await ann.waitForSelector('#btn-review', { state: 'visible', timeout: TIMEOUT });
    await Promise.all([ann.waitForURL(/index\.html\?review=1#[0-9a-f]+$/, { timeout: TIMEOUT }), ann.click('#btn-review')]);
    await ann.waitForSelector('#app[data-ready="1"]', { timeout: TIMEOUT });
    const g = await ann.evaluate(() => window.condraughts.state.game);
    assert(g.history.join(' ') === line.join(' '), 'history ' + g.history.join(' '));
    assert(g.human === 'both', 'the engine would play: human ' + g.human);
  });

  await step('the review marks 28-23 and no other move, with scores and the best move', async () => {
    await ann.waitForSelector('#app[data-review="done"]', { timeout: TIMEOUT });
    const rows = await ann.$$eval('#rv-moves li', (ls) => ls.map((l) => ({
      text: l.querySelector('.rv-text').textContent, cls: l.className,
      score: l.querySelector('.rv-score').textContent,
      best: (l.querySelector('.rv-best') || { textContent: '' }).textContent })));
    assert(rows.length === line.length, rows.length + ' rows');
    rows.forEach((r, i) => {
      if (i === 2) {
        assert(/^28-23\?\??$/.test(r.text) && /rv-(blunder|mistake)/.test(r.cls), 'ply 3: ' + JSON.stringify(r));
        assert(/^best \d+-\d+$/.test(r.best) && r.best !== 'best 28-23', 'ply 3 best: ' + r.best);
        assert(parseFloat(r.score) <= -1, 'ply 3 score ' + r.score);
      } else {
        assert(r.text === line[i] && !/rv-(blunder|mistake)/.test(r.cls), `ply ${i + 1}: ${JSON.stringify(r)}`);
      }
      assert(/^([+-]\d+\.\d\d|#[+-]\d+)$/.test(r.score), 'score ' + r.score);
    });
    const summary = await ann.textContent('#rv-summary');
    assert(/^White: average loss \d+\.\d\d men, [01] \?, [01] \?\?\nBlack: average loss \d+\.\d\d men, 0 \?, 0 \?\?$/.test(summary), summary);
    const graph = await ann.$$eval('#rv-graph polyline', (ps) => ps.map((q) => q.getAttribute('points').split(' ').length));
    assert(graph.length === 1 && graph[0] === line.length + 1, 'graph ' + JSON.stringify(graph));
    assert(await ann.$$eval('#rv-graph circle', (c) => c.length) === 1, 'one marked point');
  });

  await step('the arrow keys step through the game, the board follows', async () => {
    assert(await view(ann) === '0', 'the review opens on the start: ' + await view(ann));
    await ann.click('#turn'); /* the focus on the page, off any field */
    for (let i = 0; i < 3; i++) await ann.keyboard.press('ArrowRight');
    assert(await view(ann) === '3', 'view ' + await view(ann));
    assert(await square(ann, 23) === 'w' && await square(ann, 28) === '', 'after 28-23: ' + await square(ann, 23));
    assert(/^Ply 3: White played 28-23\?\??/.test(await ann.textContent('#rv-note')), await ann.textContent('#rv-note'));
    await ann.keyboard.press('ArrowRight');
    assert(await view(ann) === '4' && await square(ann, 28) === 'b' && await square(ann, 23) === '', 'after 19x28');
    await ann.keyboard.press('ArrowLeft');
    await ann.keyboard.press('ArrowLeft');
    assert(await view(ann) === '2' && await square(ann, 28) === 'w', 'back to ply 2');
    await ann.keyboard.press('End');
    assert(await view(ann) === '5' && await square(ann, 23) === 'w' && await square(ann, 28) === '', 'the end');
    const n = await ann.$$eval('#board [data-sq]', (e) => e.length);
    assert(n === 50, n + ' squares drawn');
  });

  await step('a click on a move shows its position', async () => {
    await ann.click('#rv-moves li[data-ply="3"]');
    assert(await view(ann) === '3', 'view ' + await view(ann));
    assert(await ann.$eval('#rv-moves li[data-ply="3"]', (l) => l.classList.contains('rv-current')), 'current row');
    if (shots) await ann.screenshot({ path: path.join(shots, 'review-desktop.png') });
  });

  await step('no JavaScript errors and no dialogs', async () => {
    assert(errors.length === 0, errors.join('; '));
  });
}

try {
  await main();
} catch (e) {
  failed++;
  log('FAIL setup: ' + (e && e.message || e));
}
try { if (browser) await browser.close(); } catch (e) { /* ignore */ }
if (server && server.exitCode === null) server.kill('SIGTERM');
fs.rmSync(tmp, { recursive: true, force: true });
log(`review-web: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
