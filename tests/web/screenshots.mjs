// Screenshots of play.html for the docs (make screenshots; not a test): the lobby, a game between
// two people with clocks and a chat, the spectator's view and the spectator looking back at an
// earlier position, each at a desktop size (1280x800) and a phone size (390x844, a touch screen),
// and a player's Resign waiting for its second click, into docs/screenshots/*.png.
// A server on a free port with a fresh database; the players act through the pages' own fetch
// (their cookies, their origin), then each page is shown as its viewer sees it.
//   node screenshots.mjs [--bin PATH] [--chromium PATH] [--out DIR]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DESKTOP, PHONE, call, launch, open as openPage, opt, repo, serve } from './harness.mjs';

const outDir = opt('--out') || path.join(repo, 'docs', 'screenshots');
fs.mkdirSync(outDir, { recursive: true });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'condraughts-shots-'));

async function shot(p, name) {
  await p.waitForTimeout(300); /* the clocks tick, the fonts settle */
  const file = path.join(outDir, name + '.png');
  await p.screenshot({ path: file });
  process.stdout.write(`${file} ${fs.statSync(file).size} bytes\n`);
}

const { proc, url } = await serve(tmp);
const browser = await launch(['--hide-scrollbars']);
try {
  const open = (kind, at) => openPage(browser, url, kind, at);
  /* Two challenges waiting in the lobby. */
  const carl = await open(DESKTOP), dora = await open(DESKTOP);
  await call(carl, 'POST', 'api/play', { variant: 'international', name: 'Carl', open: true,
    colour: 'black', clock: { type: 'realtime', base: 180, increment: 2 } });
  await call(dora, 'POST', 'api/play', { variant: 'russian', name: 'Dora', open: true, colour: 'white',
    clock: { type: 'correspondence', days: 3 } });

  /* Ann (White) and Bob (Black): 5+3, a few moves, a few words. */
  const ann = await open(DESKTOP), bob = await open(DESKTOP);
  const g = await call(ann, 'POST', 'api/play', { variant: 'international', name: 'Ann', colour: 'white',
    open: true, clock: { type: 'realtime', base: 300, increment: 3 } });
  await call(bob, 'POST', `api/play/${g.id}/join`, { name: 'Bob' });
  const line = ['32-28', '18-23', '37-32', '12-18', '41-37', '7-12', '34-30', '20-24'];
  for (let i = 0; i < line.length; i++) {
    await call(i % 2 ? bob : ann, 'POST', `api/play/${g.id}/move`, { move: line[i] });
    if (i === 1) await call(ann, 'POST', `api/play/${g.id}/chat`, { text: 'Good luck!' });
    if (i === 2) await call(bob, 'POST', `api/play/${g.id}/chat`, { text: 'You too. 5+3 feels fast today' });
  }
  await call(ann, 'POST', `api/play/${g.id}/chat`, { text: '<b>not bold</b>: chat is shown as text' });

  /* Ann's phone holds her seat (her cookie); Eve only watches. */
  const annPhone = await browser.newContext(PHONE);
  await annPhone.addCookies(await ann.context().cookies());
  await bob.goto(url + 'play.html#' + g.id); /* Bob's page is open: he shows as there */
  const pages = {
    'game-desktop': ann, 'game-phone': await annPhone.newPage(),
    'spectator-desktop': await open(DESKTOP), 'spectator-phone': await open(PHONE),
  };
  for (const [name, p] of Object.entries(pages)) {
    await p.goto(url + 'play.html#' + g.id);
    await p.waitForFunction((n) => window.condraughtsPlay && window.condraughtsPlay.game &&
      window.condraughtsPlay.game.ply === n && document.querySelectorAll('#chat-list li').length === 3,
    line.length);
    await shot(p, name);
  }
  for (const name of ['spectator-desktop', 'spectator-phone']) {
    const p = pages[name];
    await p.click('#movelist .mv[data-ply="3"]');
    await p.waitForFunction(() => document.getElementById('app').dataset.view === '3');
    await shot(p, name.replace('spectator', 'replay'));
  }
  await ann.click('#btn-resign');
  await ann.waitForSelector('#confirm', { state: 'visible' });
  await shot(ann, 'resign-confirm-desktop');
  await ann.click('#btn-confirm-no');
  for (const [name, kind] of [['lobby-desktop', DESKTOP], ['lobby-phone', PHONE]]) {
    const p = await open(kind);
    await p.waitForFunction(() => document.querySelectorAll('#open-list tr').length === 2 &&
      document.querySelectorAll('#live-list tr').length === 1);
    await shot(p, name);
  }
} finally {
  await browser.close();
  proc.kill('SIGTERM');
  fs.rmSync(tmp, { recursive: true, force: true });
}
