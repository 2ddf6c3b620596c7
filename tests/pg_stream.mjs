// tests/pg_stream.mjs -- how long a move made through one server takes to reach a live stream
// (docs/api.md, GET /api/play/ID/events) open on another (tests/pg.sh).
//   node tests/pg_stream.mjs WATCH POST WHITE BLACK MOVE...
// WATCH: the events URL on one server (a spectator's: no cookie); POST: the move URL on another
// (or several, separated by commas: the moves sent to each in turn); WHITE, BLACK: the players'
// "cd_player=..." cookies; MOVE...: "w:32-28" or "b:18-23" ("w:*": the first legal move of the
// stream's last state), sent one after the other, each once the stream has shown the last. Prints one JSON line: {"moves":[{"move","answered_ms","seen_ms","plies"}...]},
// answered_ms from sending the move to its answer, seen_ms from the answer to the stream's state
// holding the move (negative: the stream had it first), plies the history's length then.
// Exits 1 (with the reason) when a move is refused or the stream does not show it within 5 s.
import http from 'node:http';
import https from 'node:https';

const [watch, postList, white, black, ...moves] = process.argv.slice(2);
const posts = postList.split(',');
const lib = (url) => (url.startsWith('https:') ? https : http);
const opts = { rejectUnauthorized: false };

let plies = -1; // the history's length of the stream's last state
let last = null; // the stream's last state
let waiter = null; // resolves when the stream shows `plies` >= waiter.want
let buf = '';
const seenAt = []; // when the stream first showed each length

const req = lib(watch).get(watch, { ...opts, headers: { Accept: 'text/event-stream' } }, (res) => {
    if (res.statusCode !== 200) fail(`stream: ${res.statusCode}`);
    res.setEncoding('utf8');
    res.on('data', (chunk) => {
        buf += chunk;
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
            const event = buf.slice(0, i);
            buf = buf.slice(i + 2);
            const data = event.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5)).join('\n');
            if (!/^event: state/m.test(event) || !data) continue;
            last = JSON.parse(data);
            plies = last.history.length;
            if (seenAt[plies] === undefined) seenAt[plies] = performance.now();
            if (waiter && plies >= waiter.want) {
                const w = waiter;
                waiter = null;
                w.resolve(performance.now());
            }
        }
    });
});
req.on('error', (e) => fail(`stream: ${e.message}`));

function fail(why) {
    console.error(`pg_stream: ${why}`);
    process.exit(1);
}

function shown(want) {
    return new Promise((resolve) => {
        if (plies >= want) return resolve(performance.now());
        waiter = { want, resolve };
        setTimeout(() => fail(`the stream did not show ply ${want} within 5 s (it shows ${plies})`), 5000).unref();
    });
}

function send(post, who, move) {
    const cookie = who === 'w' ? white : black;
    return new Promise((resolve) => {
        const body = JSON.stringify({ move });
        const r = lib(post).request(post, { ...opts, method: 'POST', headers: { Cookie: cookie, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } }, (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (c) => (text += c));
            res.on('end', () => {
                if (res.statusCode !== 200) fail(`move ${move}: ${res.statusCode} ${text}`);
                resolve(JSON.parse(text).history.length);
            });
        });
        r.on('error', (e) => fail(`move ${move}: ${e.message}`));
        r.end(body);
    });
}

const out = [];
await shown(0);
for (const [i, arg] of moves.entries()) {
    const [who, given] = arg.split(':');
    const move = given === '*' ? last.moves[0].text : given;
    const t0 = performance.now();
    const after = await send(posts[i % posts.length], who, move);
    const t1 = performance.now();
    await shown(after);
    const t2 = seenAt[after] ?? performance.now();
    out.push({ move, answered_ms: +(t1 - t0).toFixed(1), seen_ms: +(t2 - t1).toFixed(1), plies: after });
}
console.log(JSON.stringify({ moves: out }));
req.destroy();
process.exit(0);
