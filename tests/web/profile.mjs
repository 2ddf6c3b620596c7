// Browser test of the players' pages (profile.html, leaderboard.html, web/players.js) and their
// links from play.html: Pia and Quin (accounts) and Rob (a browser without one) finish three
// international games through the API from their own pages (their cookies, their origin); then,
// in headless Chromium, a finished game's names lead to the players' profiles (an account's by
// its name, Rob's by his browser's public id), a profile shows the counts, the ratings and the
// games (newest first: result, opponent linked to its profile, replay link) as the API gives them,
// the rating graph draws the API's points, the leaderboard ranks the accounts and links them,
// the lobby links a player to its own games, a profile's Older and Newer links page by place, a live game's names (one holding markup) link to
// the profiles from the lobby and the game's page, an unknown player shows the server's error, a
// phone-sized page does not scroll sideways, and no page logs a JavaScript or
// Content-Security-Policy error.
//   node profile.mjs [--bin PATH] [--chromium PATH] [--shots DIR]
// --shots DIR: also the pictures profile-desktop.png, profile-phone.png and
// leaderboard-desktop.png into DIR (make screenshots: docs/screenshots).
// Prints "profile-web: N passed, M failed".
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DESKTOP, PHONE, assert, call, eq, launch, opt, open as openPage, serve, tally } from './harness.mjs';

const shots = opt('--shots');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'condraughts-profile-web-'));
const { step, fail, finish } = tally('profile-web');
let server = null, browser = null;

async function main() {
  const started = await serve(tmp);
  server = started.proc;
  const url = started.url;
  browser = await launch(['--hide-scrollbars']);
  const errors = [];
  const watch = (p, who) => {
    p.on('pageerror', (e) => errors.push(`${who}: ${e.message}`));
    p.on('console', (m) => {
      if (m.type() === 'error' && !/status of 404/.test(m.text())) errors.push(`${who}: ${m.text()}`);
    });
    return p;
  };
  const open = (kind, at, who) => openPage(browser, url, kind, at, (p) => watch(p, who));
  const pia = await open(DESKTOP, 'play.html', 'Pia'), quin = await open(DESKTOP, 'play.html', 'Quin');
  const rob = await open(DESKTOP, 'play.html', 'Rob');
  await call(pia, 'POST', 'api/account/register', { name: 'Pia', password: 'pia password' });
  await call(quin, 'POST', 'api/account/register', { name: 'Quin', password: 'quin password' });
  /* game: WHITE against BLACK, 32-28 18-23, then `end` ('draw', or the page that resigns) */
  const game = async (white, black, end) => {
    const g = await call(white, 'POST', 'api/play', { variant: 'international', colour: 'white', name: 'Rob' });
    await call(black, 'POST', `api/play/${g.id}/join`, { name: 'Rob' });
    await call(white, 'POST', `api/play/${g.id}/move`, { move: '32-28' });
    await call(black, 'POST', `api/play/${g.id}/move`, { move: '18-23' });
    if (end === 'draw') {
      await call(white, 'POST', `api/play/${g.id}/draw`, { action: 'offer' });
      await call(black, 'POST', `api/play/${g.id}/draw`, { action: 'accept' });
    } else {
      await call(end, 'POST', `api/play/${g.id}/resign`, {});
    }
    return g.id;
  };
  await game(pia, quin, pia); /* Quin wins */
  const B = await game(rob, pia, 'draw');
  const C = await game(quin, rob, quin); /* Rob wins */
  const seats = await call(pia, 'GET', `api/players?game=${B}`);
  const rid = seats.white.id;

  await step('a finished game: each name leads to its player\'s profile', async () => {
    await pia.goto(url + 'play.html#' + B);
    await pia.waitForSelector('#top .name a');
    eq(await pia.getAttribute('#bottom .name a', 'href'), 'profile.html?name=Pia', 'Pia (bottom)');
    eq(await pia.getAttribute('#top .name a', 'href'), 'profile.html?id=' + rid, 'Rob (top)');
    eq(await pia.textContent('#top .name a'), 'Rob', 'the link\'s text');
    assert(/^[0-9a-f]{16}$/.test(rid), 'a browser\'s id: ' + rid);
  });

  await step('a browser\'s profile: its name, counts and games as the API gives them', async () => {
    await pia.click('#top .name a');
    await pia.waitForSelector('#app[data-ready="1"]');
    eq(new URL(pia.url()).search, '?id=' + rid, 'the address');
    const api = await call(pia, 'GET', 'api/players/~' + rid);
    eq(await pia.textContent('#title'), 'Rob', 'title');
    eq(await pia.textContent('#totals'), '2 games: 1 won, 1 drawn, 0 lost', 'totals');
    eq([api.games, api.wins, api.draws, api.losses], [2, 1, 1, 0], 'the API\'s counts');
    const rows = await pia.$$eval('#games tbody tr', (trs) => trs.map((tr) =>
      [...tr.cells].slice(1).map((td) => td.textContent).concat([...tr.querySelectorAll('a')].map((a) => a.getAttribute('href')))));
    eq(rows, [
      ['Win (resignation)', 'Quin', 'International', 'Black', `${api.list[0].rating} +${api.list[0].rating_change}`,
        'Replay', 'profile.html?name=Quin', 'play.html#' + C],
      ['Draw (agreement)', 'Pia', 'International', 'White', `${api.list[1].rating} ${api.list[1].rating_change >= 0 ? '+' : '−'}${Math.abs(api.list[1].rating_change)}`,
        'Replay', 'profile.html?name=Pia', 'play.html#' + B],
    ], 'the games, newest first');
    await pia.waitForSelector('#graph polyline');
    eq(await pia.getAttribute('#graph', 'data-points'), '2', 'the rating graph\'s points');
    eq((await pia.getAttribute('#graph polyline', 'points')).split(' ').length, 2, 'the line\'s points');
    const graph = await call(pia, 'GET', `api/players/~${rid}/ratings?variant=international`);
    assert((await pia.textContent('#graph-text')).startsWith(
      `International: 2 rated games, from ${graph.points[0][1]} to ${graph.points[1][1]} (`), 'the graph\'s text: ' + await pia.textContent('#graph-text'));
    const rec = await pia.$$eval('#records tbody tr', (trs) => trs.map((tr) => [...tr.cells].slice(0, 6).map((td) => td.textContent)));
    const r = api.records[0];
    eq(rec, [['International', `${r.rating}${r.provisional ? '?' : ''}`, '2', '1', '1', '0']], 'the record');
  });

  await step('the opponent\'s link opens the account\'s profile, the replay link the game', async () => {
    await pia.click('#games tbody tr:first-child a[href^="profile"]');
    await pia.waitForSelector('#app[data-ready="1"]');
    eq(await pia.textContent('#title'), 'Quin', 'title');
    eq(await pia.textContent('#totals'), '2 games: 1 won, 0 drawn, 1 lost', 'totals');
    eq(await pia.textContent('#who-note'), 'An account.', 'note');
    await pia.click('#games tbody tr:first-child a[href^="play.html"]');
    await pia.waitForFunction((id) => window.condraughtsPlay && window.condraughtsPlay.game &&
      window.condraughtsPlay.game.id === id, C);
    eq(await pia.evaluate(() => [window.condraughtsPlay.game.state, window.condraughtsPlay.game.ply]), ['over', 2], 'the game');
  });

  await step('the leaderboard lists no provisional rating: after two games each, none', async () => {
    const p = await open(DESKTOP, 'leaderboard.html?variant=international', 'leaderboard');
    eq((await call(p, 'GET', 'api/leaderboard/international')).total, 0, 'the API\'s total');
    assert(await p.isVisible('#ranks-none'), 'the page says it is empty');
  });

  await step('the leaderboard ranks the established accounts by rating and links them', async () => {
    /* Pia's and Quin's ratings made established (deviation 80) and fresh, in the database */
    execFileSync('sqlite3', [path.join(tmp, 'play.db'), `UPDATE ratings SET rd = 80, at = ${Date.now()} ` +
      "WHERE player IN ('@Pia', '@Quin') AND variant = 'international'"]);
    const p = await open(DESKTOP, 'leaderboard.html?variant=international', 'leaderboard');
    const api = await call(p, 'GET', 'api/leaderboard/international');
    eq(api.list.map((e) => [e.rd, e.provisional]), [[80, false], [80, false]], 'their deviations');
    eq(api.list.map((e) => e.name), ['Quin', 'Pia'], 'the API\'s order');
    const rows = await p.$$eval('#ranks tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent)));
    eq(rows, api.list.map((e) => [String(e.rank), e.name, `${e.rating}${e.provisional ? '?' : ''}`, String(e.games)]), 'rows');
    eq(await p.inputValue('#variant'), 'international', 'the variant chosen');
    if (shots) await p.screenshot({ path: path.join(shots, 'leaderboard-desktop.png') });
    await p.click('#ranks tbody tr:last-child a');
    await p.waitForSelector('#app[data-ready="1"]');
    eq(await p.textContent('#title'), 'Pia', 'Pia\'s profile');
    eq(await p.textContent('#totals'), '2 games: 0 won, 1 drawn, 1 lost', 'totals');
    await p.goto(url + 'leaderboard.html?variant=russian');
    await p.waitForSelector('#app[data-ready="1"]');
    assert(await p.isVisible('#ranks-none'), 'an empty leaderboard says so');
  });

  await step('the lobby links a player to its own games', async () => {
    await rob.goto(url + 'play.html');
    await rob.waitForSelector('#my-profile', { state: 'visible' });
    eq(await rob.getAttribute('#my-profile', 'href'), 'profile.html?id=' + rid, 'Rob\'s');
    await pia.goto(url + 'play.html');
    await pia.waitForSelector('#acct-in', { state: 'visible' });
    eq(await pia.getAttribute('#acct-name', 'href'), 'profile.html?name=Pia', 'Pia\'s');
    assert(await pia.isHidden('#my-profile'), 'an account\'s link is its name');
  });

  await step('a live game: the lobby and the game\'s page link both names to the profiles, names shown as typed', async () => {
    const odd = '<i>Rob</i> & "co"'; /* markup in a name stays text */
    const g = await call(pia, 'POST', 'api/play', { variant: 'international', colour: 'white', open: true });
    await call(rob, 'POST', `api/play/${g.id}/join`, { name: odd });
    await call(pia, 'POST', `api/play/${g.id}/move`, { move: '32-28' });
    const api = await call(rob, 'GET', `api/play/${g.id}`);
    eq([api.white.profile, api.black.profile], [{ name: 'Pia', account: true, id: null },
      { name: odd, account: false, id: rid }], 'the seats\' profiles in the API');
    const p = await open(DESKTOP, 'play.html', 'watcher');
    const links = `#live-list tr:has(a[href="#${g.id}"]) td:nth-child(3) a`;
    await p.waitForSelector(links);
    eq(await p.$$eval(links, (as) => as.map((a) => [a.getAttribute('href'), a.textContent, a.children.length])),
      [['profile.html?name=Pia', 'Pia', 0], ['profile.html?id=' + rid, odd, 0]], 'the lobby\'s links');
    await p.click(`#live-list a[href="#${g.id}"]`);
    await p.waitForSelector('#top .name a');
    eq([await p.getAttribute('#bottom .name a', 'href'), await p.getAttribute('#top .name a', 'href'),
      await p.textContent('#top .name a'), await p.$$eval('#top .name a *', (e) => e.length)],
    ['profile.html?name=Pia', 'profile.html?id=' + rid, odd, 0], 'the game\'s links (a spectator\'s view)');
    await p.click('#top .name a');
    await p.waitForSelector('#app[data-ready="1"]');
    eq(new URL(p.url()).search, '?id=' + rid, 'Rob\'s profile opened');
  });

  await step('a profile pages its games by place: Older and Newer links from the API\'s places', async () => {
    const api = await call(pia, 'GET', 'api/players/Pia');
    eq([api.list.length, api.newer, api.older], [2, null, null], 'two games, one page');
    const place = (g) => g.ended + '.' + g.id;
    const p = await open(DESKTOP, 'profile.html?name=Pia&before=' + place(api.list[0]), 'paging');
    const ids = () => p.$$eval('#games tbody tr a[href^="play.html"]', (as) => as.map((a) => a.getAttribute('href')));
    eq(await ids(), ['play.html#' + api.list[1].id], 'the games older than the newest');
    assert(await p.isHidden('#next'), 'nothing older');
    eq(await p.getAttribute('#prev', 'href'), '?name=Pia&after=' + encodeURIComponent(place(api.list[1])), 'Newer');
    await Promise.all([p.waitForURL(/after=/), p.click('#prev')]);
    await p.waitForSelector('#app[data-ready="1"]');
    eq(await ids(), ['play.html#' + api.list[0].id], 'the game newer than that');
    assert(await p.isHidden('#prev'), 'nothing newer');
    eq(await p.getAttribute('#next', 'href'), '?name=Pia&before=' + encodeURIComponent(place(api.list[0])), 'Older');
  });

  await step('an unknown player: the server\'s error on the page', async () => {
    const p = await open(DESKTOP, 'profile.html?name=Nobody', 'unknown');
    eq(await p.textContent('#error-text'), 'no such player: \'Nobody\'', 'error');
    assert(await p.isHidden('#profile'), 'no profile shown');
  });

  await step('on a phone a profile does not scroll sideways', async () => {
    const p = await open(PHONE, 'profile.html?id=' + rid, 'phone');
    eq(await p.textContent('#totals'), '2 games: 1 won, 1 drawn, 0 lost', 'totals');
    const w = await p.evaluate(() => document.documentElement.scrollWidth);
    assert(w <= 390, 'page width ' + w);
    if (shots) {
      await p.screenshot({ path: path.join(shots, 'profile-phone.png') });
      const d = await open(DESKTOP, 'profile.html?id=' + rid, 'desktop');
      await d.screenshot({ path: path.join(shots, 'profile-desktop.png') });
    }
  });

  await step('no JavaScript or Content-Security-Policy errors on any page', async () => {
    assert(errors.length === 0, errors.join('; '));
  });
}

try {
  await main();
} catch (e) {
  fail('setup: ' + (e && e.message || e));
}
await finish(browser, server, tmp);
