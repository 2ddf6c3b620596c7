// Browser test of a finished game's review: Ann and Bob play 1. 33-28 18-22 2. 28-23 19x28
// 3. 32x23 through the API (28-23 hangs a man: `condraughts pdn annotate --time 0.1` scores it
// about -1.55, '??'), Bob resigns; on play.html the button "Review on the analysis board" imports
// the game and opens index.html with its review, which marks 28-23 '?' or '??' and no other move
// so (a search of 0.3 s may find another move dubious, '?!': each mark's class and dot are
// checked), draws the evaluation graph, and steps through the positions with the arrow keys and by clicking a move
// (the boards shown are the game's: a white man on 23 after ply 3, a black one on 28 after 4).
//   node review.mjs [--bin PATH] [--chromium PATH] [--shots DIR]   Prints "review-web: N passed, M failed".
// --shots DIR: also review-desktop.png into DIR (make screenshots: docs/screenshots).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { opt, assert, serve, launch, open as openPage, call, tally, DESKTOP } from './harness.mjs';

const shots = opt('--shots');
const TIMEOUT = 20000;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'condraughts-review-web-'));
const { step, fail, finish } = tally('review-web');
let server = null, browser = null;

const view = (p) => p.evaluate(() => document.getElementById('app').dataset.reviewView);
const square = (p, n) => p.evaluate((k) => window.condraughts.state.viewBoard[k - 1], n);

async function main() {
  const started = await serve(tmp);
  server = started.proc;
  const url = started.url;
  browser = await launch(['--hide-scrollbars']);
  const errors = [];
  const open = () => openPage(browser, url, DESKTOP, 'play.html', (p) => {
    p.on('pageerror', (e) => errors.push(e.message));
    p.on('dialog', (d) => { errors.push('dialog: ' + d.message()); d.dismiss(); });
  });
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

  await step('the review marks 28-23 and no other move but \'?!\', with scores and the best move', async () => {
    await ann.waitForSelector('#app[data-review="done"]', { timeout: TIMEOUT });
    const rows = await ann.$$eval('#rv-moves li', (ls) => ls.map((l) => ({
      text: l.querySelector('.rv-text').textContent, cls: l.className,
      score: l.querySelector('.rv-score').textContent,
      best: (l.querySelector('.rv-best') || { textContent: '' }).textContent })));
    assert(rows.length === line.length, rows.length + ' rows');
    const classOf = { '?!': 'rv-dubious', '?': 'rv-mistake', '??': 'rv-blunder' };
    const dubious = { white: 0, black: 0 };
    const dots = [];
    rows.forEach((r, i) => {
      const mark = r.text.slice(line[i].length);
      assert(r.text.startsWith(line[i]) && (mark === '' || classOf[mark]), `ply ${i + 1}: ${JSON.stringify(r)}`);
      const classes = r.cls.split(' ').filter((c) => /^rv-(dubious|mistake|blunder)$/.test(c));
      assert(JSON.stringify(classes) === JSON.stringify(mark ? [classOf[mark]] : []), `ply ${i + 1} classes: ${r.cls}`);
      if (mark) dots.push('rv-dot ' + classOf[mark]);
      if (i === 2) {
        assert(mark === '?' || mark === '??', 'ply 3: ' + JSON.stringify(r));
        assert(/^best \d+-\d+$/.test(r.best) && r.best !== 'best 28-23', 'ply 3 best: ' + r.best);
        assert(parseFloat(r.score) <= -1, 'ply 3 score ' + r.score);
      } else {
        assert(mark === '' || mark === '?!', `ply ${i + 1}: ${JSON.stringify(r)}`);
        if (mark) dubious[i % 2 === 0 ? 'white' : 'black']++;
      }
      assert(/^([+-]\d+\.\d\d|#[+-]\d+)$/.test(r.score), 'score ' + r.score);
    });
    const summary = await ann.textContent('#rv-summary');
    const want = new RegExp(`^White: average loss \\d+\\.\\d\\d men, ${dubious.white} \\?!, [01] \\?, [01] \\?\\?\\n` +
      `Black: average loss \\d+\\.\\d\\d men, ${dubious.black} \\?!, 0 \\?, 0 \\?\\?$`);
    assert(want.test(summary), summary);
    const graph = await ann.$$eval('#rv-graph polyline', (ps) => ps.map((q) => q.getAttribute('points').split(' ').length));
    assert(graph.length === 1 && graph[0] === line.length + 1, 'graph ' + JSON.stringify(graph));
    const circles = await ann.$$eval('#rv-graph circle', (c) => c.map((e) => e.getAttribute('class')));
    assert(JSON.stringify(circles) === JSON.stringify(dots), 'the marked points ' + JSON.stringify(circles));
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
  fail('setup: ' + (e && e.message || e));
}
await finish(browser, server, tmp);
