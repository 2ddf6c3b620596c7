// A load benchmark of games between people (not a test): G games played at once by 2G players,
// each holding the game's live stream (/api/play/ID/events) as a browser does, plus S spectators;
// every player answers its turn after 1 to 2 s with a random legal move. Reports the move
// latency (a player's POST to the opponent's stream showing the move) p50/p99, errors, the
// server's resident memory and CPU time, and the moves played. --searches N also keeps N engine
// searches of 8 s running on board games (/api/games/ID/engine), to show they do not hold the
// server's threads. The server runs with --per-ip 0 (every client here is 127.0.0.1).
//   node tests/load/play_bench.mjs [--bin build/condraughts] [--games 40] [--spectators 20]
//                                  [--seconds 30] [--searches 0]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const argv = process.argv.slice(2);
const opt = (n, d) => { const i = argv.indexOf(n); return i >= 0 ? argv[i + 1] : d; };
const bin = opt('--bin', 'build/condraughts');
const GAMES = Number(opt('--games', 40)), SPECT = Number(opt('--spectators', 20));
const SECONDS = Number(opt('--seconds', 30)), SEARCHES = Number(opt('--searches', 0));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'condraughts-play-bench-'));

const server = spawn(bin, ['serve', '--port', '0', '--per-ip', '0', '--data', path.join(tmp, 'games'), '--db',
  path.join(tmp, 'play.db'), '--web', tmp], { stdio: ['ignore', 'pipe', 'inherit'] });
const base = await new Promise((resolve) => {
  let out = '';
  server.stdout.on('data', (d) => {
    out += d;
    const m = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(out);
    if (m) resolve(`http://127.0.0.1:${m[1]}`);
  });
});

let errors = 0, moves = 0, running = true;
const errorKinds = {};
const lat = [];
const pending = new Map(); // `${id}:${ply}` -> time the move was sent

function fail(what) { errors++; errorKinds[what] = (errorKinds[what] || 0) + 1; }

async function call(method, p, body, cookie) {
  const headers = { 'Content-Type': 'application/json' };
  if (cookie) headers.Cookie = cookie;
  const r = await fetch(base + p, { method, headers, body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(20000) }); // a server out of connections: an error, not a hang
  const set = r.headers.get('set-cookie');
  const data = await r.json();
  if (!r.ok) throw new Error(`${r.status} ${data.error}`);
  return { data, cookie: set ? set.split(';')[0] : cookie };
}

// Read a game's stream; call onState with every state.
async function watch(id, cookie, onState) {
  const headers = cookie ? { Cookie: cookie } : {};
  const r = await fetch(`${base}/api/play/${id}/events`, { headers });
  const reader = r.body.getReader();
  const dec = new TextDecoder();
  let buf = '';
  while (running) {
    let chunk;
    try { chunk = await reader.read(); } catch (e) { // the server ends the streams as it stops
      if (running) fail('stream ' + e.message);
      break;
    }
    const { value, done } = chunk;
    if (done) break;
    buf += dec.decode(value, { stream: true });
    let i;
    while ((i = buf.indexOf('\n\n')) >= 0) {
      const ev = buf.slice(0, i);
      buf = buf.slice(i + 2);
      const m = /^event: state\ndata: (.*)$/m.exec(ev);
      if (m) onState(JSON.parse(m[1]));
    }
  }
  reader.cancel().catch(() => {});
}

async function player(id, cookie) {
  let lastPly = -1;
  await watch(id, cookie, (g) => {
    const t = pending.get(`${id}:${g.ply}`);
    if (t !== undefined && g.you === g.side) { // the opponent's move, seen by this player
      lat.push(performance.now() - t);
      pending.delete(`${id}:${g.ply}`);
    }
    if (g.state !== 'ongoing' || g.you !== g.side || g.ply === lastPly || !running) return;
    lastPly = g.ply;
    setTimeout(async () => {
      if (!running) return;
      const m = g.moves[Math.floor(Math.random() * g.moves.length)];
      pending.set(`${id}:${g.ply + 1}`, performance.now());
      try {
        await call('POST', `/api/play/${id}/move`, { move: m.text }, cookie);
        moves++;
      } catch (e) { fail(e.message.split(' ')[0]); }
    }, 1000 + Math.random() * 1000);
  });
}

// An engine search of 8 s after another on a board game of its own, until the end.
async function searcher() {
  const { data } = await call('POST', '/api/games', { variant: 'international', human: 'both' });
  while (running) {
    try { await call('POST', `/api/games/${data.id}/engine`, { movetime: 8 }); searches++; } catch (e) {
      if (running && !/^409/.test(e.message)) fail('search ' + e.message.split(' ')[0]); // 409: over
      break;
    }
  }
}

function cpuSeconds() { // the server's user + system time (/proc counts in USER_HZ: 100 on Linux)
  const f = fs.readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

let searches = 0;
const t0 = performance.now();
const tasks = [];
for (let i = 0; i < SEARCHES; i++) tasks.push(searcher().catch((e) => fail('search setup ' + e.message)));
for (let i = 0; i < GAMES; i++) {
  try {
    const a = await call('POST', '/api/play', { variant: i % 2 ? 'international' : 'russian', colour: 'white',
      clock: { type: 'realtime', base: 600, increment: 5 } });
    const b = await call('POST', `/api/play/${a.data.id}/join`, {});
    tasks.push(player(a.data.id, a.cookie), player(a.data.id, b.cookie));
    if (i < SPECT) tasks.push(watch(a.data.id, null, () => {}));
  } catch (e) { fail('setup ' + e.message); }
}
const cpu0 = cpuSeconds(), t1 = performance.now(), moves0 = moves;
await new Promise((r) => setTimeout(r, SECONDS * 1000));
running = false;
const cpu = cpuSeconds() - cpu0, span = (performance.now() - t1) / 1000;
const rss = fs.readFileSync(`/proc/${server.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1];
server.kill('SIGTERM'); // and wait for it, so that it ends the streams of clients still there
await new Promise((r) => server.on('exit', r));
lat.sort((a, b) => a - b);
const q = (p) => (lat.length ? lat[Math.min(lat.length - 1, Math.floor(p * lat.length))].toFixed(1) : 'n/a');
console.log(`games ${GAMES}, players ${2 * GAMES}, spectators ${Math.min(SPECT, GAMES)}, ` +
  `${((performance.now() - t0) / 1000).toFixed(0)} s: moves ${moves}, latency p50 ${q(0.5)} ms, ` +
  `p99 ${q(0.99)} ms, max ${q(1)} ms, errors ${errors} ${JSON.stringify(errorKinds)}, ` +
  `server RSS ${(rss / 1024).toFixed(1)} MB, server CPU ${(100 * cpu / span).toFixed(0)}% of a core ` +
  `(${((moves - moves0) / span).toFixed(0)} moves/s)` + (SEARCHES ? `, ${searches} searches of 8 s` : ''));
fs.rmSync(tmp, { recursive: true, force: true });
process.exit(0);
