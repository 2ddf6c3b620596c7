// Browser tests of the condraughts web page (web/), driven by playwright-core + Debian chromium.
//   node run.mjs                  start ../../build/condraughts serve on a free port and test it
//   node run.mjs --url URL        test a server that is already running
//   node run.mjs --bin PATH       use another condraughts binary
// Prints "web: N passed, M failed" and the two timings; exits 1 on failure.
import { chromium } from 'playwright-core';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const outDir = path.join(here, 'out');
fs.mkdirSync(outDir, { recursive: true });

const argv = process.argv.slice(2);
const opt = (name) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : undefined; };
let baseUrl = opt('--url');
const bin = opt('--bin') || path.join(repo, 'build', 'condraughts');
const chromePath = opt('--chromium') || process.env.CHROMIUM || '/usr/bin/chromium';
const STEP_TIMEOUT = 30000;

let passed = 0, failed = 0;
const timings = {};
const tmpDirs = [];
let server = null, context = null;
let withTables = false; // the server we started has the endgame tables built below

function log(s) { process.stdout.write(s + '\n'); }

async function step(name, fn) {
  try {
    await fn();
    passed++;
    log(`ok   ${name}`);
  } catch (e) {
    failed++;
    log(`FAIL ${name}: ${(e && e.message || String(e)).split('\n')[0]}`);
  }
}
function assert(cond, msg) { if (!cond) throw new Error(msg); }

async function startServer() {
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'condraughts-web-data-'));
  tmpDirs.push(data);
  // a tiny table set (constitutional, up to 2 pieces: well under a second)
  const egtb = path.join(data, 'egtb');
  const built = spawnSync(bin, ['egtb', 'build', '--variant', 'constitutional', '--pieces', '2', '--dir', egtb],
    { encoding: 'utf8', timeout: 60000 });
  if (built.status !== 0) throw new Error('egtb build failed: ' + (built.stderr || built.error));
  withTables = true;
  server = spawn(bin, ['serve', '--port', '0', '--data', data, '--web', path.join(repo, 'web'), '--egtb', egtb],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server printed no port within 15 s: ' + out.trim())), 15000);
    const onData = (d) => {
      out += d.toString();
      const m = /https?:\/\/[^\s/]+(?::\d+)?\/?/.exec(out) || /port\D{0,3}(\d{2,5})/i.exec(out);
      if (m) {
        clearTimeout(timer);
        let url = m[0].startsWith('http') ? m[0] : `http://127.0.0.1:${m[1]}/`;
        url = url.replace('//0.0.0.0', '//127.0.0.1').replace('//[::]', '//127.0.0.1');
        if (!url.endsWith('/')) url += '/';
        resolve(url);
      }
    };
    server.stdout.on('data', onData);
    server.stderr.on('data', onData);
    server.on('exit', (code) => { clearTimeout(timer); reject(new Error(`the server exited (${code}): ${out.trim()}`)); });
  });
}

async function cleanup() {
  try { if (context) await context.close(); } catch (e) { /* ignore */ }
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((r) => { const t = setTimeout(r, 2000); server.on('exit', () => { clearTimeout(t); r(); }); });
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
  }
  for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true });
}

const game = (page) => page.evaluate(() => window.condraughts.state.game);
const idle = (page) => page.waitForFunction(() => document.getElementById('app').dataset.busy === '0', null, { timeout: STEP_TIMEOUT });
const waitPly = (page, n) => page.waitForFunction((k) => {
  const a = document.getElementById('app');
  return a.dataset.busy === '0' && Number(a.dataset.ply) >= k;
}, n, { timeout: STEP_TIMEOUT });
const sq = (n) => `#board [data-sq="${n}"]`;
const shot = (page, name) => page.screenshot({ path: path.join(outDir, name), fullPage: true });

async function clickMove(page, m) {
  await page.click(sq(m.from));
  await page.click(sq(m.to));
  const chooser = await page.isVisible('#chooser');
  if (chooser) {
    const buttons = page.locator('#chooser-list button');
    const n = await buttons.count();
    for (let i = 0; i < n; i++) {
      if ((await buttons.nth(i).textContent()).startsWith(m.text)) { await buttons.nth(i).click(); return; }
    }
    throw new Error('move not in the chooser: ' + m.text);
  }
}

async function main() {
  if (!baseUrl) baseUrl = await startServer();
  if (!baseUrl.endsWith('/')) baseUrl += '/';
  log(`testing ${baseUrl}`);

  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'condraughts-web-chromium-'));
  tmpDirs.push(profile);
  context = await chromium.launchPersistentContext(profile, {
    executablePath: chromePath,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1200, height: 900 },
    acceptDownloads: true,
  });
  context.setDefaultTimeout(STEP_TIMEOUT);
  const page = context.pages()[0] || await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));

  await step('page loads, variants listed, board drawn', async () => {
    const t0 = Date.now();
    await page.goto(baseUrl);
    await page.waitForSelector('#app[data-ready="1"]');
    await page.waitForSelector(sq(50));
    timings.load = Date.now() - t0;
    timings.loadInPage = Number(await page.getAttribute('#app', 'data-ready-ms'));
    const nvar = await page.locator('#variant option').count();
    assert(nvar >= 2, `only ${nvar} variants in the menu`);
    assert(await page.locator('#board g.sq').count() === 50, 'not 50 playable squares');
    assert(await page.isHidden('#error'), 'an error is shown: ' + await page.textContent('#error-text'));
  });

  let firstId = null;
  await step('new international game: 20 + 20 men, URL has the game id', async () => {
    await page.selectOption('#variant', 'international');
    await page.selectOption('#human', 'white');
    await page.click('#btn-new');
    await page.waitForFunction(() => document.getElementById('app').dataset.ply === '0' && window.condraughts.state.game);
    await idle(page);
    assert(await page.locator('#board .piece.white.man').count() === 20, 'white men');
    assert(await page.locator('#board .piece.black.man').count() === 20, 'black men');
    const g = await game(page);
    firstId = g.id;
    assert(page.url().endsWith('#' + g.id), 'URL ' + page.url() + ' lacks #' + g.id);
    await shot(page, '01-start.png');
  });

  await step('click 32 shows destinations 27 and 28; 32-28 is played and the engine answers', async () => {
    await page.click(sq(32));
    const dests = await page.$$eval('#board g.dest', (els) => els.map((e) => +e.dataset.sq).sort((a, b) => a - b));
    assert(JSON.stringify(dests) === '[27,28]', 'destinations ' + JSON.stringify(dests));
    await page.evaluate(() => {
      window.__sawThinking = false;
      const t = document.getElementById('thinking');
      new MutationObserver(() => { if (!t.hidden) window.__sawThinking = true; })
        .observe(t, { attributes: true, attributeFilter: ['hidden'] });
    });
    const t0 = Date.now();
    await page.click(sq(28));
    await waitPly(page, 2);
    timings.reply = Date.now() - t0;
    const g = await game(page);
    assert(g.history[0] === '32-28', 'history ' + JSON.stringify(g.history));
    assert(g.side === 'white', 'white should be to move');
    const list = await page.textContent('#movelist');
    assert(/1\.\s*32-28/.test(list), 'move list: ' + list);
    assert(await page.evaluate(() => window.__sawThinking), 'the thinking indicator was never shown');
    assert(await page.isHidden('#thinking'), 'the thinking indicator is still shown');
    await shot(page, '02-after-engine-reply.png');
  });

  await step('two more moves by clicking (captures included), engine replies each time', async () => {
    for (let k = 0; k < 2; k++) {
      const g = await game(page);
      if (g.status !== 'ongoing') break;
      const m = g.moves.find((x) => x.captures.length > 0) || g.moves[0];
      await clickMove(page, m);
      await waitPly(page, g.history.length + 2);
    }
    const g = await game(page);
    assert(g.history.length >= 4, 'history ' + g.history.length);
  });

  await step('undo takes back your move and the engine reply', async () => {
    const before = (await game(page)).history.length;
    await page.click('#btn-undo');
    await page.waitForFunction((b) => Number(document.getElementById('app').dataset.ply) === b - 2, before);
    await idle(page);
    const g = await game(page);
    assert(g.side === 'white', 'side after undo ' + g.side);
  });

  await step('hint highlights a legal move', async () => {
    await page.click('#btn-hint');
    await page.waitForFunction(() => document.querySelector('#board g.hint') ||
      !document.getElementById('error').hidden, null, { timeout: STEP_TIMEOUT });
    const t = await page.textContent('#hint-text');
    assert(await page.isHidden('#error'), 'error: ' + await page.textContent('#error-text'));
    assert(/Hint:/.test(t), 'hint text ' + t);
    await shot(page, '03-hint.png');
  });

  await step('analysis streams depth/score/PV and stops', async () => {
    await page.fill('#an-time', '2');
    await page.click('#btn-an-start');
    try {
      await page.waitForFunction(() => {
        const d = document.getElementById('an-depth').textContent;
        return d !== '–' && Number(d) >= 1 && document.getElementById('an-pv').textContent.length > 0;
      }, null, { timeout: STEP_TIMEOUT });
    } catch (e) {
      await shot(page, '04-analysis-failed.png');
      throw new Error(`no analysis output: depth "${await page.textContent('#an-depth')}", error "${await page.textContent('#error-text')}"`);
    }
    await shot(page, '04-analysis.png');
    await page.click('#btn-an-stop').catch(() => {}); // may already be finished
    await page.waitForFunction(() => document.getElementById('btn-an-stop').disabled);
  });

  await step('flip turns the board round', async () => {
    const before = await page.locator(sq(1)).boundingBox();
    await page.click('#btn-flip');
    const after = await page.locator(sq(1)).boundingBox();
    assert(after.y > before.y + 100 && after.x > before.x, `square 1 did not move: ${JSON.stringify(before)} -> ${JSON.stringify(after)}`);
    await page.click('#btn-flip');
  });

  await step('reload resumes the game from #id', async () => {
    const before = await game(page);
    await page.reload();
    await page.waitForSelector('#app[data-ready="1"]');
    const g = await game(page);
    assert(g.id === before.id && g.history.length === before.history.length,
      `resumed ${g.id}/${g.history.length}, expected ${before.id}/${before.history.length}`);
    assert(g.id === firstId, 'a different game');
  });

  await step('an illegal FEN shows the API error message', async () => {
    if (!(await page.isVisible('#fen'))) await page.click('#setup summary');
    await page.fill('#fen', 'W:W99:B1');
    await page.click('#btn-fen');
    await page.waitForSelector('#error:not([hidden])');
    const t = (await page.textContent('#error-text')).trim();
    assert(t.length > 3, 'empty error');
    log(`     error shown: ${t}`);
    await shot(page, '05-error.png');
    await page.click('#error-close');
  });

  await step('constitutional king position from FEN: threat overlay shades the kings\' squares', async () => {
    await page.selectOption('#variant', 'constitutional');
    await page.selectOption('#human', 'both');
    await page.fill('#fen', 'W:WK46,33:BK5,12');
    await page.click('#btn-fen');
    await page.waitForFunction(() => { const g = window.condraughts.state.game; return g && g.variant === 'constitutional'; });
    await idle(page);
    assert(await page.locator('#board .piece.king').count() === 2, 'two kings expected');
    assert(await page.isVisible('#threats-toggle'), 'threat toggle hidden');
    assert(await page.locator('#board g.threat').count() === 0, 'shaded before the toggle');
    await page.check('#chk-threats');
    const g = await game(page);
    const expect = new Set();
    for (const k in g.threats || {}) g.threats[k].forEach((s) => expect.add(s));
    const shaded = await page.$$eval('#board g.threat', (els) => els.map((e) => +e.dataset.sq));
    assert(shaded.length > 0, 'no shaded squares');
    assert(shaded.length === expect.size && shaded.every((s) => expect.has(s)),
      `shaded ${JSON.stringify(shaded.sort((a, b) => a - b))} vs threats ${JSON.stringify([...expect].sort((a, b) => a - b))}`);
    log(`     shaded squares: ${shaded.sort((a, b) => a - b).join(' ')}`);
    await shot(page, '06-constitutional-threats.png');
    await page.uncheck('#chk-threats');
    assert(await page.locator('#board g.threat').count() === 0, 'still shaded after unchecking');
  });

  await step('endgame tablebase: "White wins in 3 plies" for W:WK35:BK3, nothing for the start', async () => {
    const egtbOf = async () => ((await page.isVisible('#egtb')) ? (await page.textContent('#egtb')).trim() : '');
    await page.selectOption('#variant', 'constitutional');
    await page.selectOption('#human', 'both');
    if (!(await page.isVisible('#fen'))) await page.click('#setup summary');
    await page.fill('#fen', 'W:WK35:BK3');
    await page.click('#btn-fen');
    await page.waitForFunction(() => { const g = window.condraughts.state.game; return g && g.fen.startsWith('W:WK35'); });
    await idle(page);
    const g = await game(page);
    if (withTables || g.egtb) {
      assert(g.egtb && g.egtb.value === 'win' && g.egtb.plies === 3, 'egtb ' + JSON.stringify(g.egtb));
      const t = await egtbOf();
      assert(t === 'Tablebase: White wins in 3 plies', 'verdict text "' + t + '"');
      log(`     verdict shown: ${t}`);
    } else {
      assert(await page.isHidden('#egtb'), 'a verdict without tables');
    }
    await shot(page, '06b-egtb.png');
    await page.click('#btn-new');
    await page.waitForFunction(() => { const g = window.condraughts.state.game; return g && g.fen === 'W:W31-50:B1-20'; });
    await idle(page);
    assert((await game(page)).egtb === null, 'egtb of the start position is not null');
    assert(await page.isHidden('#egtb'), 'a verdict is shown for the start position: ' + await egtbOf());
  });

  await step('ambiguous capture: chooser appears, clicking a captured piece picks the move', async () => {
    await page.selectOption('#variant', 'international');
    await page.selectOption('#human', 'both');
    if (!(await page.isVisible('#fen'))) await page.click('#setup summary');
    await page.fill('#fen', 'W:WK40:B11,22,28,29,31,32');
    await page.click('#btn-fen');
    await page.waitForFunction(() => { const g = window.condraughts.state.game; return g && g.variant === 'international' && g.fen.includes('K40'); });
    await idle(page);
    const g = await game(page);
    const amb = g.moves.filter((m) => m.from === 40 && m.to === 38);
    assert(amb.length === 2, 'expected two 40x38 captures, got ' + amb.length);
    await page.click(sq(40));
    await page.click(sq(38));
    await page.waitForSelector('#chooser:not([hidden])');
    assert(await page.locator('#chooser-list button').count() === 2, 'chooser buttons');
    assert(await page.locator('#board g.captured').count() >= 4, 'captured squares not marked');
    await shot(page, '07-ambiguous-capture.png');
    await page.click(sq(11));
    await page.waitForFunction(() => window.condraughts.state.game.history.length === 1);
    await idle(page);
    const g2 = await game(page);
    assert(g2.board[10] === '' && g2.board[21] === 'b', 'wrong capture played: ' + g2.history[0] + ' ' + g2.fen);
    assert(await page.isHidden('#chooser'), 'chooser still shown');
  });

  await step('game end: result and reason are shown', async () => {
    await page.selectOption('#variant', 'international');
    await page.selectOption('#human', 'white');
    if (!(await page.isVisible('#fen'))) await page.click('#setup summary');
    await page.fill('#fen', 'W:W28:B23');
    await page.click('#btn-fen');
    await page.waitForFunction(() => { const g = window.condraughts.state.game; return g && g.fen.startsWith('W:W28'); });
    await idle(page);
    await page.click(sq(28));
    await page.click(sq(19));
    await page.waitForSelector('#result:not([hidden])');
    await idle(page);
    const t = await page.textContent('#result');
    assert(/white wins/i.test(t), 'result text ' + t);
    log(`     result shown: ${t}`);
    assert((await game(page)).history.length === 1, 'the engine moved after the end');
    await shot(page, '08-game-over.png');
  });

  await step('English against the engine: its first move is the opening book\'s, shown as such', async () => {
    // the move `condraughts book probe` reads from the shipped book, found from this folder as the
    // server we started finds it (books/ beside the program)
    const probe = spawnSync(bin, ['book', 'probe', '--variant', 'english'], { encoding: 'utf8' });
    const want = probe.stdout.split(' ')[0];
    assert(probe.status === 0 && want, 'book probe: ' + probe.status + ' ' + probe.stderr);
    await page.selectOption('#variant', 'english');
    await page.selectOption('#human', 'white');
    await page.click('#btn-new');
    await page.waitForFunction(() => { const g = window.condraughts.state.game; return g && g.variant === 'english' && g.history.length === 1; });
    await idle(page);
    const g = await game(page);
    assert(g.history[0] === want, `the engine opened ${g.history[0]}, the book says ${want}`);
    assert(g.last_engine && g.last_engine.book === true, 'last_engine ' + JSON.stringify(g.last_engine));
    const t = await page.textContent('#hint-text');
    assert(t.startsWith(`Engine played ${want} · opening book`), 'hint text ' + t);
    log(`     ${t}`);
  });

  await step('PDN import replays the game; export gives it back', async () => {
    await page.selectOption('#human', 'both');
    const pdn = '[Event "web test"]\n[GameType "20"]\n\n1. 32-28 19-23 2. 28x19 14x23 3. 37-32 *\n';
    if (!(await page.isVisible('#pdn'))) await page.click('#pdn-panel summary');
    await page.fill('#pdn', pdn);
    await page.click('#btn-import');
    await page.waitForFunction(() => { const g = window.condraughts.state.game; return g && g.history.length === 5; });
    await idle(page);
    const g = await game(page);
    assert(g.variant === 'international', 'variant ' + g.variant);
    assert(g.history[2] === '28x19', 'history ' + JSON.stringify(g.history));
    const list = (await page.textContent('#movelist')).replace(/\s+/g, ' ');
    assert(/2\. ?28x19 ?14x23/.test(list), 'move list ' + list);
    await page.fill('#pdn', '');
    await page.click('#btn-export');
    await page.waitForFunction(() => document.getElementById('pdn').value.includes('32-28'));
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#btn-download')]);
    assert(/\.pdn$/.test(download.suggestedFilename()), 'download name ' + download.suggestedFilename());
    await shot(page, '09-pdn-import.png');
  });

  await step('phone-sized screen: board fits, no horizontal scrolling', async () => {
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(baseUrl + '#' + firstId);
    await phone.waitForSelector('#app[data-ready="1"]');
    const box = await phone.locator('#board').boundingBox();
    const sw = await phone.evaluate(() => document.documentElement.scrollWidth);
    assert(box.width <= 390 && box.width >= 250, 'board width ' + box.width);
    assert(sw <= 391, 'page scroll width ' + sw);
    await phone.screenshot({ path: path.join(outDir, '10-phone.png'), fullPage: false });
    await phone.close();
  });

  await step('towers.html: new Lasca game, c3-d4 by clicking, the engine replies; fits a phone', async () => {
    const tp = await context.newPage();
    const errs = [];
    tp.on('pageerror', (e) => errs.push(e.message));
    await tp.goto(baseUrl + 'towers.html');
    await tp.waitForSelector('#app[data-ready="1"]');
    await tp.selectOption('#side', 'white');
    const oldId = await tp.evaluate(() => window.towers.state.game && window.towers.state.game.id);
    await tp.click('#btn-new-lasker');
    await tp.waitForFunction((o) => {
      const g = window.towers.state.game;
      return g && g.id !== o && g.game === 'lasker' && document.getElementById('app').dataset.busy === '0';
    }, oldId);
    assert(await tp.locator('#board g.sq').count() === 25, 'not 25 playable squares');
    assert(await tp.locator('#board g.sq[data-stack="w"]').count() === 11, 'not 11 white soldiers');
    assert(await tp.locator('#board g.sq[data-stack="b"]').count() === 11, 'not 11 black soldiers');
    await tp.click('#board [data-sq="c3"]');
    const dests = await tp.$$eval('#board g.dest', (els) => els.map((e) => e.dataset.sq).sort());
    assert(JSON.stringify(dests) === '["b4","d4"]', 'destinations ' + JSON.stringify(dests));
    await tp.click('#board [data-sq="d4"]');
    await tp.waitForFunction(() => {
      const a = document.getElementById('app');
      return a.dataset.busy === '0' && Number(a.dataset.ply) >= 2;
    });
    const g = await tp.evaluate(() => window.towers.state.game);
    assert(g.history[0] === 'c3-d4', 'history ' + JSON.stringify(g.history));
    assert(g.side === 'white' && g.last_engine && g.last_engine.move === g.history[1], 'no engine reply');
    const drawn = await tp.$$eval('#board g.sq', (els) => els.map((e) => e.dataset.sq + '=' + e.dataset.stack).join(','));
    const want = g.board.squares.map((q) => q.square + '=' + q.stack).join(',');
    assert(drawn === want, 'board drawn ' + drawn + ' is not the game ' + want);
    assert(await tp.locator('#board .disc').count() === 22, 'not 22 discs drawn');
    const list = await tp.textContent('#movelist');
    assert(/1\.\s*c3-d4/.test(list), 'move list: ' + list);
    assert(await tp.isHidden('#error'), 'an error is shown: ' + await tp.textContent('#error-text'));
    await tp.screenshot({ path: path.join(outDir, '11-towers.png'), fullPage: true });
    await tp.setViewportSize({ width: 390, height: 844 });
    const box = await tp.locator('#board').boundingBox();
    const sw = await tp.evaluate(() => document.documentElement.scrollWidth);
    assert(box.width <= 390 && box.width >= 250, 'board width on a phone ' + box.width);
    assert(sw <= 391, 'page scroll width on a phone ' + sw);
    await tp.screenshot({ path: path.join(outDir, '12-towers-phone.png'), fullPage: false });
    assert(errs.length === 0, errs.join('; '));
    await tp.close();
  });

  await step('no JavaScript errors on the page', async () => {
    assert(pageErrors.length === 0, pageErrors.join('; '));
  });
}

let code = 0;
try {
  await main();
} catch (e) {
  failed++;
  log('FAIL setup: ' + (e && e.message || e));
}
await cleanup();
log(`web: ${passed} passed, ${failed} failed`);
log(`page load: ${timings.load !== undefined ? timings.load + ' ms' : 'n/a'}` +
  (timings.loadInPage ? ` (navigation start to board ready with a new game: ${timings.loadInPage} ms)` : ''));
log(`click-to-engine-reply (default level): ${timings.reply !== undefined ? timings.reply + ' ms' : 'n/a'}`);
if (failed) code = 1;
process.exit(code);
