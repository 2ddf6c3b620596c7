// Screenshots of play.html for the docs (make screenshots; not a test): the lobby, a game between
// two people with clocks and a chat, the spectator's view and the spectator looking back at an
// earlier position, each at a desktop size (1280x800) and a phone size (390x844, a touch screen),
// and a player's Resign waiting for its second click, into docs/screenshots/*.png.
// A server on a free port with a fresh database; the players act through the pages' own fetch
// (their cookies, their origin), then each page is shown as its viewer sees it.
//   node screenshots.mjs [--bin PATH] [--chromium PATH] [--out DIR]
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
const outDir = opt('--out') || path.join(repo, 'docs', 'screenshots');
fs.mkdirSync(outDir, { recursive: true });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'condraughts-shots-'));

const DESKTOP = { viewport: { width: 1280, height: 800 } };
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true };

/* The server, and its URL once it prints it. */
function serve() {
  const proc = spawn(bin, ['serve', '--port', '0', '--data', path.join(tmp, 'games'), '--db',
    path.join(tmp, 'play.db'), '--web', path.join(repo, 'web')], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let said = '';
    const look = (chunk) => {
      said += chunk;
      const m = /serving (http:\/\/[^\s]+\/)/.exec(said);
      if (m) resolve({ proc, url: m[1] });
    };
    proc.stdout.on('data', look);
    proc.stderr.on('data', look);
    proc.on('exit', (code) => reject(new Error(`the server stopped (${code}): ${said}`)));
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

async function shot(p, name) {
  await p.waitForTimeout(300); /* the clocks tick, the fonts settle */
  const file = path.join(outDir, name + '.png');
  await p.screenshot({ path: file });
  process.stdout.write(`${file} ${fs.statSync(file).size} bytes\n`);
}

const { proc, url } = await serve();
const browser = await chromium.launch({ executablePath: chromePath, headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--hide-scrollbars'] });
try {
  const open = async (kind, at) => {
    const ctx = await browser.newContext(kind);
    const p = await ctx.newPage();
    await p.goto(url + (at || 'play.html'));
    await p.waitForSelector('#app[data-ready="1"]');
    return p;
  };
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
