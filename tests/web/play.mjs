// Browser test of play.html (games between people): two players and a spectator, each in their
// own browser context (own cookies), play a game with a real-time clock through the page: an
// account is registered and its password changed (a wrong current one refused), the lobby lists
// the challenge, the invitation link seats the second player, moves by clicking
// reach the other pages (the time from one page's click to the other page's board is measured),
// chat messages reach both other pages as text (markup in them shows as typed, no script runs),
// a reload keeps the seat and the clocks, a draw offer is declined, a takeback is accepted, the
// server is killed with SIGKILL (every page says it is reconnecting, its clocks stop) and restarted
// on its port (every page reconnects by itself, then finds the game, seats and clocks as they
// were, each page saying the downtime given back to the clocks), the game ends by resignation
// (ratings change), and a rematch starts with colours swapped.
// The lobby's time-control presets fill the clock fields; resign and abort take a second click on
// a confirm bar (Cancel leaves the game as it was); a live game's move list and arrow keys look
// back without disturbing play, and the finished game is stepped through position by position.
//   node play.mjs [--bin PATH] [--chromium PATH]     Prints "play-web: N passed, M failed".
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { assert, here, launch, log, serve, tally } from './harness.mjs';

const outDir = path.join(here, 'out');
fs.mkdirSync(outDir, { recursive: true });
const TIMEOUT = 15000;

let server = null, browser = null, serverOut = '';
// Requests a page sent and has no answer to (name -> Map of request -> [text, start ms]), and the
// server's output: printed with the first failure, so that a stall says where it was.
const pending = new Map();
let diagnosed = false;
function diagnose() {
  if (diagnosed) return;
  diagnosed = true;
  const now = Date.now();
  for (const [name, reqs] of pending) {
    for (const [text, t0] of reqs.values()) log(`     ${name}: no answer yet to ${text} after ${now - t0} ms`);
  }
  log('     server output (last 2000 bytes): ' + JSON.stringify(serverOut.slice(-2000)));
}
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'condraughts-play-web-'));
const latencies = [];
const { step, fail, finish } = tally('play-web', diagnose);

/* The server on port (0: a free one): its URL. */
async function startServer(port = 0) {
  const started = await serve(tmp, { port, onOutput: (d) => { serverOut = (serverOut + d).slice(-8000); } });
  server = started.proc;
  return started.url;
}

const ply = (p) => p.evaluate(() => Number(document.getElementById('app').dataset.ply));
const waitPly = (p, n) => p.waitForFunction((k) => Number(document.getElementById('app').dataset.ply) === k
  && window.condraughtsPlay.game && window.condraughtsPlay.game.ply === k, n, { timeout: TIMEOUT });
const gameOf = (p) => p.evaluate(() => window.condraughtsPlay.game);

// Click a move on page p and measure until every page in `others` shows the new ply.
async function clickMove(p, from, to, others) {
  const g = await gameOf(p);
  const target = g.ply + 1;
  for (const o of others) {
    await o.evaluate((k) => {
      window.__seenAt = 0;
      const app = document.getElementById('app');
      const mo = new MutationObserver(() => {
        if (Number(app.dataset.ply) === k && !window.__seenAt) window.__seenAt = performance.timeOrigin + performance.now();
      });
      mo.observe(app, { attributes: true, attributeFilter: ['data-ply'] });
    }, target);
  }
  await p.click(`#board [data-sq="${from}"]`);
  await p.evaluate(() => {
    window.__clickAt = 0;
    document.getElementById('board').addEventListener('click', () => {
      window.__clickAt = performance.timeOrigin + performance.now();
    }, { once: true, capture: true });
  });
  await p.click(`#board [data-sq="${to}"]`);
  await waitPly(p, target);
  const t0 = await p.evaluate(() => window.__clickAt);
  for (const o of others) {
    await waitPly(o, target);
    const seen = await o.evaluate(() => window.__seenAt);
    latencies.push(seen - t0);
  }
}

async function main() {
  let base = await startServer();
  log(`testing ${base}play.html`);
  browser = await launch(['--disable-quic', '--disable-background-networking', '--disable-component-update',
    '--disable-sync']);
  const errors = [], dialogs = [];
  const page = async (name, w, h) => {
    const ctx = await browser.newContext({ viewport: { width: w || 1100, height: h || 860 } });
    ctx.setDefaultTimeout(TIMEOUT);
    const p = await ctx.newPage();
    const reqs = new Map();
    pending.set(name, reqs);
    p.on('request', (r) => { if (r.resourceType() !== 'eventsource') reqs.set(r, [`${r.method()} ${r.url()}`, Date.now()]); });
    p.on('requestfinished', (r) => reqs.delete(r));
    p.on('requestfailed', (r) => reqs.delete(r));
    p.on('pageerror', (e) => errors.push(e.message));
    p.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss().catch(() => {}); });
    return p;
  };
  const chatOf = (p) => p.$$eval('#chat-list li', (lis) => lis.map((li) => li.textContent));
  const ann = await page('Ann'), bob = await page('Bob'), eve = await page('Eve', 390, 844);
  let id = null;

  await step('lobby: Ann registers an account, changes its password; creates a 5+3 international game as White', async () => {
    await ann.goto(base + 'play.html');
    await ann.waitForSelector('#app[data-ready="1"]');
    await ann.fill('#acct-user', 'Ann');
    await ann.fill('#acct-pass', 'a long enough password');
    await ann.click('#btn-register');
    await ann.waitForSelector('#acct-in', { state: 'visible' });
    assert(await ann.inputValue('#c-name') === 'Ann', 'the name is not the account\'s');
    await ann.click('#btn-pw-show');
    await ann.fill('#pw-old', 'not the password');
    await ann.fill('#pw-new', 'a newer long password');
    await ann.click('#btn-pw');
    await ann.waitForSelector('#error', { state: 'visible' });
    assert(await ann.textContent('#error-text') === 'wrong password', 'error ' + await ann.textContent('#error-text'));
    // the message stays until the player's next action: the lobby's refresh every 2 s left it
    // alone (it used to hide it, and once hid it before this step could see it)
    await ann.waitForTimeout(2500);
    assert(await ann.isVisible('#error'), 'the error was hidden by the lobby\'s refresh');
    await ann.fill('#pw-old', 'a long enough password');
    await ann.fill('#pw-new', 'a newer long password');
    await ann.click('#btn-pw');
    await ann.waitForSelector('#pw-done', { state: 'visible' });
    assert(await ann.isHidden('#error') && await ann.isHidden('#pw-change'), 'the change did not go through');
    await ann.selectOption('#c-variant', 'international');
    await ann.selectOption('#c-colour', 'white');
    // the presets fill the clock's fields and mark the one they match
    const fields = async () => [await ann.inputValue('#c-clock'), await ann.inputValue('#c-base'),
      await ann.inputValue('#c-inc'), await ann.inputValue('#c-days'),
      await ann.$$eval('#c-presets button.on', (bs) => bs.map((b) => b.dataset.preset).join())].join(' ');
    for (const [preset, want] of [['1+0', 'realtime 1 0 2 1+0'], ['15+10', 'realtime 15 10 2 15+10'],
      ['correspondence', 'correspondence 15 10 2 correspondence'], ['3+2', 'realtime 3 2 2 3+2']]) {
      await ann.click(`#c-presets [data-preset="${preset}"]`);
      const f = await fields();
      assert(f === want, `preset ${preset}: ${f}`);
    }
    assert(await ann.isVisible('#c-rt') && await ann.isHidden('#c-corr'), 'the real-time fields are not shown');
    await ann.fill('#c-inc', '4');
    assert(await ann.locator('#c-presets button.on').count() === 0, 'a preset is marked for 3+4');
    await ann.click('#c-presets [data-preset="5+3"]');
    await ann.click('#btn-create');
    await ann.waitForFunction(() => document.getElementById('app').dataset.state === 'waiting');
    id = (await gameOf(ann)).id;
    assert(await ann.isVisible('#invite'), 'no invitation link shown');
    assert((await ann.inputValue('#invite-link')).endsWith('#' + id + '/join'), 'invitation link');
    assert((await ann.getAttribute('#app', 'data-you')) === 'white', 'Ann is not white');
    const clock = (await gameOf(ann)).clock;
    assert(JSON.stringify(clock) === '{"type":"realtime","base":300,"increment":3}', 'clock ' + JSON.stringify(clock));
    await ann.screenshot({ path: path.join(outDir, 'play-01-waiting.png') });
  });

  await step('the spectator\'s lobby lists the challenge', async () => {
    await eve.goto(base + 'play.html');
    await eve.waitForSelector(`#open-list button[data-id="${id}"]`);
    await eve.screenshot({ path: path.join(outDir, 'play-02-lobby-phone.png'), fullPage: true });
  });

  await step('the invitation link seats Bob as Black; the spectator watches', async () => {
    await bob.goto(base + 'play.html#' + id + '/join');
    await bob.waitForFunction(() => document.getElementById('app').dataset.you === 'black');
    assert(!bob.url().endsWith('/join'), 'the join link stays in the address bar');
    await eve.goto(base + 'play.html#' + id);
    await eve.waitForFunction(() => document.getElementById('app').dataset.state === 'ongoing');
    assert((await eve.getAttribute('#app', 'data-you')) === '', 'the spectator holds a seat');
    assert(await eve.isHidden('#btn-resign'), 'the spectator sees Resign');
    await ann.waitForFunction(() => document.getElementById('app').dataset.state === 'ongoing');
  });

  await step('moves by clicking reach the other player and the spectator; clocks run', async () => {
    await clickMove(ann, 32, 28, [bob, eve]);
    await clickMove(bob, 19, 23, [ann, eve]);
    await clickMove(ann, 28, 19, [bob, eve]);
    await clickMove(bob, 14, 23, [ann, eve]);
    const g = await gameOf(eve);
    assert(JSON.stringify(g.history) === '["32-28","19-23","28x19","14x23"]', 'history ' + JSON.stringify(g.history));
    assert(g.running === 'white', 'white\'s clock does not run: ' + g.running);
    const c1 = await ann.textContent('#bottom .clock');
    await ann.waitForTimeout(1200);
    const c2 = await ann.textContent('#bottom .clock');
    assert(c1 !== c2 && /^\d+:\d\d$/.test(c2), `clock ${c1} -> ${c2}`);
    assert(await ann.isVisible('#bottom .clock.running'), 'no running clock shown');
    await eve.click('#board [data-sq="33"]'); // a spectator's click does nothing
    assert(await eve.locator('#board g.sel').count() === 0, 'a spectator selected a piece');
    await ann.screenshot({ path: path.join(outDir, 'play-03-game.png') });
    await eve.screenshot({ path: path.join(outDir, 'play-04-spectator-phone.png'), fullPage: true });
  });

  await step('chat: Ann\'s message reaches Bob and the spectator as text; no script runs', async () => {
    const evil = '<script>alert(1)</script><img src=x onerror="alert(2)">';
    await ann.fill('#chat-text', evil);
    await ann.press('#chat-text', 'Enter');
    for (const p of [ann, bob, eve]) {
      await p.waitForFunction(() => document.querySelectorAll('#chat-list li').length === 1);
      const text = await p.textContent('#chat-list li .text');
      assert(text === evil, 'shown as ' + text);
      assert(await p.locator('#chat-list script, #chat-list img').count() === 0, 'markup made elements');
    }
    assert((await chatOf(eve))[0] === 'Ann: ' + evil, 'spectator sees ' + (await chatOf(eve))[0]);
    assert(await ann.inputValue('#chat-text') === '', 'the input is not cleared');
    assert(await eve.isHidden('#chat-form'), 'the spectator may write');
    await bob.fill('#chat-text', 'gl hf');
    await bob.click('#btn-chat');
    for (const p of [ann, eve]) {
      await p.waitForFunction(() => document.querySelectorAll('#chat-list li').length === 2);
      const c = await chatOf(p);
      assert(/: gl hf$/.test(c[1]), 'Bob\'s message shows as ' + c[1]);
    }
    assert(dialogs.length === 0, 'a dialog opened: ' + dialogs.join('; '));
  });

  await step('a reload mid-game keeps the seat, the moves and the clocks', async () => {
    const before = await gameOf(bob);
    await bob.reload();
    await bob.waitForFunction(() => window.condraughtsPlay.game && window.condraughtsPlay.game.ply === 4);
    const g = await gameOf(bob);
    assert(g.you === 'black', 'seat after reload ' + g.you);
    assert(Math.abs(g.black.ms - before.black.ms) < 50, `black's clock ${before.black.ms} -> ${g.black.ms}`);
    assert(g.white.ms < before.white.ms, 'white\'s clock stopped');
    await clickMove(ann, 33, 28, [bob, eve]);
  });

  await step('a draw offer is declined', async () => {
    await ann.click('#btn-draw');
    await bob.waitForSelector('#offer[data-kind="draw"]', { state: 'visible' });
    await bob.click('#btn-decline');
    await ann.waitForFunction(() => window.condraughtsPlay.game.draw_offer === null && window.condraughtsPlay.game.ply === 5);
    assert(await bob.isHidden('#offer'), 'the offer is still shown');
    assert((await gameOf(eve)).state === 'ongoing', 'the game ended');
  });

  await step('a takeback is asked and accepted; everyone sees the move gone', async () => {
    await ann.click('#btn-takeback');
    await bob.waitForSelector('#offer[data-kind="takeback"]', { state: 'visible' });
    await bob.click('#btn-accept');
    await waitPly(ann, 4);
    await waitPly(eve, 4);
    assert((await gameOf(eve)).side === 'white', 'white should be to move again');
    await clickMove(ann, 34, 29, [bob, eve]);
  });

  // a piece of the board on page p: 'w', 'b', 'W', 'B' or '' (an empty square)
  const pieceOn = (p, sq) => p.$eval(`#board [data-sq="${sq}"]`, (g) => {
    const pc = g.querySelector('.piece');
    if (!pc) return '';
    const c = pc.classList.contains('black') ? 'b' : 'w';
    return pc.classList.contains('king') ? c.toUpperCase() : c;
  });
  const viewOf = (p) => p.getAttribute('#app', 'data-view');
  // a move of the side to move whose two end squares no other move shares (a click on each makes it)
  const plainMove = async (p) => {
    const g = await gameOf(p);
    const m = g.moves.find((x) => g.moves.filter((y) => y.from === x.from && y.to === x.to).length === 1);
    return [m.from, m.to];
  };

  await step('looking back in a live game: the spectator and the player to move step back; play goes on undisturbed', async () => {
    // history 32-28 19-23 28x19 14x23 34-29: black to move
    await eve.click('#status'); // the page has the focus, not an input
    await eve.keyboard.press('ArrowLeft');
    await eve.waitForFunction(() => document.getElementById('app').dataset.view === '4');
    assert(await pieceOn(eve, 34) === 'w' && await pieceOn(eve, 29) === '', 'ply 4 shows 34-29 played');
    assert(await eve.isVisible('#replay') && await eve.isVisible('#movelist .mv.cur[data-ply="4"]'), 'no sign of looking back');
    await bob.click('#status');
    await bob.keyboard.press('Home');
    await bob.waitForFunction(() => document.getElementById('app').dataset.view === '0');
    assert(await pieceOn(bob, 32) === 'w' && await pieceOn(bob, 19) === 'b' && await pieceOn(bob, 23) === '',
      'Home does not show the starting position');
    assert(await bob.locator('#board g.movable').count() === 0, 'pieces movable while looking back');
    await bob.click('#board [data-sq="18"]');
    assert(await bob.locator('#board g.sel').count() === 0, 'a piece selected while looking back');
    await bob.click('#btn-next');
    await bob.waitForFunction(() => document.getElementById('app').dataset.view === '1');
    assert(await pieceOn(bob, 32) === '' && await pieceOn(bob, 28) === 'w', 'the next button does not show 32-28');
    await bob.click('#btn-live');
    await bob.waitForFunction(() => document.getElementById('app').dataset.view === '');
    assert(await bob.locator('#board g.movable').count() > 0, 'no movable pieces back in the game');
    const [f1, t1] = await plainMove(bob);
    await clickMove(bob, f1, t1, [ann, eve]);
    const [f2, t2] = await plainMove(ann);
    await clickMove(ann, f2, t2, [bob, eve]);
    assert(await viewOf(eve) === '4', 'the spectator\'s look back was disturbed: ' + await viewOf(eve));
    assert(await pieceOn(eve, 34) === 'w' && await pieceOn(eve, 29) === '', 'the spectator\'s board moved on');
    assert(await eve.isHidden('#board g.movable'), 'the spectator can move');
    await eve.keyboard.press('End');
    await eve.waitForFunction(() => document.getElementById('app').dataset.view === '');
    const g = await gameOf(eve);
    for (let sq = 1; sq <= 50; sq++) {
      assert(await pieceOn(eve, sq) === g.board[sq - 1], `square ${sq} after End: ${await pieceOn(eve, sq)} for ${g.board[sq - 1]}`);
    }
    assert(await eve.isHidden('#replay'), 'the look-back bar stays');
  });

  await step('the server is killed with SIGKILL mid-game: every page says it is reconnecting and its clocks stop; ' +
    'restarted on its port, every page reconnects by itself and shows the game as it was', async () => {
    const before = await gameOf(eve);
    const dead = new Promise((r) => server.once('exit', r));
    server.kill('SIGKILL');
    await dead;
    for (const p of [ann, bob, eve]) await p.waitForSelector('#reconnecting', { state: 'visible', timeout: 10000 });
    const stopped = await eve.textContent('.clock.running');
    await eve.waitForTimeout(1500);
    assert(await eve.textContent('.clock.running') === stopped, `the running clock should stop: ${stopped}`);
    base = await startServer(new URL(base).port);
    for (const p of [ann, bob, eve]) await p.waitForSelector('#reconnecting', { state: 'hidden', timeout: 15000 });
    const again = await eve.textContent('.clock.running');
    await eve.waitForTimeout(1200);
    assert(await eve.textContent('.clock.running') !== again, `the clock should count down again: ${again}`);
    for (const [p, you] of [[ann, 'white'], [bob, 'black'], [eve, '']]) {
      await p.goto(base + 'play.html#' + id);
      await p.waitForFunction(() => window.condraughtsPlay.game);
      const g = await gameOf(p);
      assert((g.you || '') === you, `seat after the restart: ${g.you} for ${you || 'the spectator'}`);
      assert(JSON.stringify(g.history) === JSON.stringify(before.history), 'history ' + JSON.stringify(g.history));
      assert(g.fen === before.fen && g.state === 'ongoing', 'position ' + g.fen);
      assert(g.white.ms === before.white.ms, `white's clock (not running) ${before.white.ms} -> ${g.white.ms}`);
      assert(g.black.ms <= before.black.ms && g.running === 'black', 'black\'s clock should run on');
      const c = await chatOf(p);
      assert(c.length === 2 && c[1].endsWith(': gl hf'), 'chat after the restart: ' + c.join(' | '));
      const down = Math.max(1, Math.round(g.outage_ms / 1000));
      assert(g.outage_ms > 0 && await p.isVisible('#outage') && await p.textContent('#outage') ===
        `The server was down for ${down} s during this game: that time was given back to the clocks.`,
      `the downtime given back is not shown: ${g.outage_ms} ms, '${await p.textContent('#outage')}'`);
    }
  });

  await step('Resign asks first: Cancel leaves the game on; the second click resigns', async () => {
    await bob.click('#btn-resign');
    await bob.waitForSelector('#confirm[data-kind="resign"]', { state: 'visible' });
    assert(await bob.textContent('#confirm-text') === 'Resign this game?', 'confirm text ' + await bob.textContent('#confirm-text'));
    await bob.click('#btn-confirm-no');
    assert(await bob.isHidden('#confirm'), 'Cancel leaves the bar');
    await bob.waitForTimeout(300);
    assert((await gameOf(ann)).state === 'ongoing', 'the game ended on Cancel');
    await bob.click('#btn-resign');
    await bob.click('#btn-confirm-yes');
  });

  await step('Bob resigned: White wins on every page, the rating changes are shown', async () => {
    for (const p of [ann, bob, eve]) {
      await p.waitForFunction(() => document.getElementById('app').dataset.state === 'over');
      const s = await p.textContent('#status');
      assert(s === 'White wins (resignation)', 'status ' + s);
    }
    await ann.waitForFunction(() => /\+\d+/.test(document.querySelector('#bottom .name').textContent));
    const names = await eve.textContent('#top') + ' / ' + await eve.textContent('#bottom');
    assert(/1500\? −\d+/.test(names) && /1500\? \+\d+/.test(names), 'ratings shown: ' + names);
    const pdn = await (await ann.request.get(base + `api/play/${id}/pdn`)).text();
    assert(/\[White "Ann"\]/.test(pdn) && /2-0/.test(pdn), 'PDN ' + pdn.slice(0, 200));
    await eve.screenshot({ path: path.join(outDir, 'play-05-over-phone.png'), fullPage: true });
  });

  await step('the finished game is replayed: a click on a move, the arrow keys, Home and End', async () => {
    await eve.click('#movelist .mv[data-ply="2"]');
    await eve.waitForFunction(() => document.getElementById('app').dataset.view === '2');
    const at = async (sqs) => (await Promise.all(sqs.map((q) => pieceOn(eve, q)))).join(',');
    assert(await at([32, 28, 19, 23]) === ',w,,b', 'after 32-28 19-23: ' + await at([32, 28, 19, 23]));
    assert(/After move 2 of \d+: 19-23/.test(await eve.textContent('#replay-text')), await eve.textContent('#replay-text'));
    await eve.keyboard.press('ArrowRight');
    await eve.waitForFunction(() => document.getElementById('app').dataset.view === '3');
    assert(await at([28, 23, 19]) === ',,w', 'after 28x19: ' + await at([28, 23, 19]));
    assert(await eve.locator('#board g.last').count() === 2, 'the move\'s squares are not marked');
    await eve.keyboard.press('ArrowRight');
    await eve.waitForFunction(() => document.getElementById('app').dataset.view === '4');
    assert(await at([14, 19, 23]) === ',,b', 'after 14x23: ' + await at([14, 19, 23]));
    await eve.keyboard.press('ArrowLeft');
    await eve.waitForFunction(() => document.getElementById('app').dataset.view === '3');
    await eve.keyboard.press('Home');
    await eve.waitForFunction(() => document.getElementById('app').dataset.view === '0');
    assert(await at([32, 19, 14]) === 'w,b,b', 'Home: ' + await at([32, 19, 14]));
    assert(await eve.isDisabled('#btn-prev') && await eve.isDisabled('#btn-first'), 'back buttons at the start');
    await eve.keyboard.press('ArrowLeft');
    assert(await viewOf(eve) === '0', 'stepped before the start');
    await eve.screenshot({ path: path.join(outDir, 'play-06-replay-phone.png'), fullPage: true });
    await eve.keyboard.press('End');
    await eve.waitForFunction(() => document.getElementById('app').dataset.view === '');
    assert(await eve.isDisabled('#btn-next') && await eve.isHidden('#replay'), 'End is not the final position');
    // every position the server gives is one move from the last: the count of pieces never grows
    const pos = await (await eve.request.get(base + `api/play/${id}/positions`)).json();
    const g = await gameOf(eve);
    assert(pos.ply === g.ply && pos.positions.length === g.ply + 1, 'positions ' + pos.positions.length);
    assert(pos.positions[g.ply].board === g.board.map((x) => x || '.').join(''), 'the last position is not the game\'s');
    for (let i = 1; i <= g.ply; i++) {
      const n = (b) => b.replace(/\./g, '').length;
      assert(n(pos.positions[i].board) <= n(pos.positions[i - 1].board), `ply ${i} adds pieces`);
      assert(pos.positions[i].last.length === 2, `ply ${i} has no move squares`);
    }
  });

  await step('rematch: offered, accepted, both pages move to the new game with colours swapped', async () => {
    await bob.click('#btn-rematch');
    await ann.waitForFunction(() => window.condraughtsPlay.game.rematch_offer === 'black');
    await ann.click('#btn-rematch');
    for (const [p, you] of [[ann, 'black'], [bob, 'white']]) {
      await p.waitForFunction((y) => {
        const g = window.condraughtsPlay.game;
        return g && g.state === 'ongoing' && g.you === y && g.ply === 0;
      }, you);
    }
    const r = await gameOf(ann);
    assert(r.id !== id, 'same game');
  });

  await step('Abort asks first: Cancel keeps the rematch, the second click aborts it', async () => {
    await ann.waitForSelector('#btn-abort', { state: 'visible' });
    await ann.click('#btn-abort');
    await ann.waitForSelector('#confirm[data-kind="abort"]', { state: 'visible' });
    assert(await ann.textContent('#btn-confirm-yes') === 'Yes, abort', 'button ' + await ann.textContent('#btn-confirm-yes'));
    await ann.click('#btn-confirm-no');
    await ann.waitForTimeout(300);
    assert((await gameOf(bob)).state === 'ongoing' && await ann.isHidden('#confirm'), 'Cancel aborted the game');
    await ann.click('#btn-abort');
    await ann.click('#btn-confirm-yes');
    for (const p of [ann, bob]) {
      await p.waitForFunction(() => window.condraughtsPlay.game.state === 'over');
      assert(await p.textContent('#status') === 'Game aborted', 'status ' + await p.textContent('#status'));
    }
    assert(await ann.isHidden('#confirm'), 'the confirm bar stays after the game');
  });

  await step('no JavaScript errors and no dialogs on any page', async () => {
    assert(errors.length === 0, errors.join('; '));
    assert(dialogs.length === 0, dialogs.join('; '));
  });

  await step('a move reaches the other browsers within 100 ms on loopback (median)', async () => {
    const s = latencies.slice().sort((a, b) => a - b);
    const med = s[Math.floor(s.length / 2)];
    log(`move latency page to page: median ${med.toFixed(0)} ms, max ${s[s.length - 1].toFixed(0)} ms (${s.length} moves)`);
    assert(med < 100, `median ${med} ms`);
  });
}

try {
  await main();
} catch (e) {
  fail('setup: ' + (e && e.message || e));
}
await finish(browser, server, tmp);
