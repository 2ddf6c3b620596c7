/* condraughts: play a friend (play.html). The lobby (play.html) and a game (play.html#ID; the
 * invitation link play.html#ID/join takes the open seat). The game's state comes from the server's
 * live stream (/api/play/ID/events, Server-Sent Events): the whole state after every change, so a
 * reload or a dropped connection loses nothing. Actions are POSTs; the server keeps the clocks and
 * this page only counts down between two states. Plain ES2017, no build step. */
'use strict';

(function () {
  const SVGNS = 'http://www.w3.org/2000/svg';
  const CELL = 100;
  const $ = (id) => document.getElementById(id);

  const st = {
    variants: [],
    game: null,       // the last state from the server
    recvAt: 0,        // performance.now() when it came
    id: null,
    es: null,
    lostAt: 0,        // performance.now() when the stream was lost (0: it is there)
    reopen: null,     // the timer that opens a stream the server refused (503) again
    chatShown: 0,     // messages of st.game.chat already in the chat list
    selected: null,
    lobbyTimer: null,
    confirm: null,    // the action waiting for a second click: 'resign', 'abort' or null
    view: null,       // the ply shown when looking back (null: the current position)
    positions: null,  // GET api/play/ID/positions: every position of the game so far
    players: null,    // GET api/players?game=ID: the profiles of a finished game's players
    playersAsked: false,
  };

  const api = window.cdApi; /* api.js */

  function showError(msg) { $('error-text').textContent = msg; $('error').hidden = false; }
  /* A player's action: the last message goes, a failure shows its own. */
  async function guarded(fn) {
    $('error').hidden = true;
    return quiet(fn);
  }
  /* Work the page does by itself (the lobby's refresh): a failure shows, but a message already
   * shown stays until the player's next action. */
  async function quiet(fn) {
    try { await fn(); } catch (e) { showError(e.message); }
  }
  function cap(s) { return s ? s.charAt(0).toUpperCase() + s.slice(1) : s; }
  function other(c) { return c === 'white' ? 'black' : 'white'; }

  /* ---------- the lobby ---------- */

  /* The time-control presets: minutes + seconds a move, or correspondence (2 days a move). */
  const PRESETS = { '1+0': [1, 0], '3+2': [3, 2], '5+3': [5, 3], '10+5': [10, 5], '15+10': [15, 10] };

  function applyPreset(name) {
    if (name === 'correspondence') {
      $('c-clock').value = 'correspondence';
      $('c-days').value = '2';
    } else {
      $('c-clock').value = 'realtime';
      $('c-base').value = String(PRESETS[name][0]);
      $('c-inc').value = String(PRESETS[name][1]);
    }
    showClockFields();
  }

  /* The preset button that matches the form's fields is marked (none after other values). */
  function markPreset() {
    const type = $('c-clock').value;
    for (const b of $('c-presets').querySelectorAll('button')) {
      const p = PRESETS[b.dataset.preset];
      const on = p ? type === 'realtime' && Number($('c-base').value) === p[0] && Number($('c-inc').value) === p[1]
        : type === 'correspondence';
      b.classList.toggle('on', on);
      b.setAttribute('aria-pressed', on ? 'true' : 'false');
    }
  }

  function showClockFields() {
    $('c-rt').hidden = $('c-clock').value !== 'realtime';
    $('c-corr').hidden = $('c-clock').value !== 'correspondence';
    markPreset();
  }

  function clockBody() {
    const type = $('c-clock').value;
    if (type === 'realtime') {
      return { type, base: Math.max(1, Math.round(Number($('c-base').value) * 60)),
        increment: Math.round(Number($('c-inc').value)) };
    }
    if (type === 'correspondence') return { type, days: Math.round(Number($('c-days').value)) };
    return { type };
  }

  /* profile.html's address for a player ({"name", "account", "id"}: GET api/players). */
  function profileHref(who) {
    return who.account ? 'profile.html?name=' + encodeURIComponent(who.name)
      : 'profile.html?id=' + encodeURIComponent(who.id);
  }

  /* A player's name as a link to its profile (who null: plain text); text shown as typed. */
  function nameNode(text, who) {
    if (!who) return document.createTextNode(text);
    const a = document.createElement('a');
    a.href = profileHref(who);
    a.textContent = text;
    return a;
  }

  /* A row of cells (text, or nodes) and a button. */
  function row(tbody, cells, button) {
    const tr = document.createElement('tr');
    for (const c of cells) {
      const td = document.createElement('td');
      if (typeof c === 'string') td.textContent = c;
      else td.append(...c);
      tr.appendChild(td);
    }
    const td = document.createElement('td');
    td.appendChild(button);
    tr.appendChild(td);
    tbody.appendChild(tr);
  }

  async function refreshLobby() {
    const l = await api('GET', 'api/play/lobby');
    const open = $('open-list').tBodies[0], live = $('live-list').tBodies[0];
    open.textContent = '';
    live.textContent = '';
    for (const e of l.open) {
      const b = document.createElement('button');
      b.textContent = 'Accept';
      b.dataset.id = e.id;
      b.className = 'accept';
      b.addEventListener('click', () => { location.hash = e.id + '/join'; });
      row(open, [e.title, e.clock, (e.white || e.black || 'Anonymous') + (e.rating ? ' ' + e.rating : ''),
        'you play ' + e.seat], b);
    }
    for (const e of l.live) {
      const a = document.createElement('a');
      a.href = '#' + e.id;
      a.textContent = 'Watch';
      const p = e.profiles || {};
      row(live, [e.title, e.clock, [nameNode(e.white || '?', p.white), ' – ', nameNode(e.black || '?', p.black)],
        e.ply + ' plies'], a);
    }
    $('open-none').hidden = l.open.length > 0;
    $('live-none').hidden = l.live.length > 0;
  }

  async function createGame() {
    const g = await api('POST', 'api/play', {
      variant: $('c-variant').value, colour: $('c-colour').value, clock: clockBody(),
      name: $('c-name').value.trim(), open: $('c-open').checked,
    });
    location.hash = g.id;
  }

  function showAccount(a) {
    $('acct-in').hidden = !a.name;
    $('acct-out').hidden = !!a.name;
    $('acct-name').textContent = a.name || '';
    $('acct-name').href = a.name ? 'profile.html?name=' + encodeURIComponent(a.name) : '';
    $('my-profile').hidden = true;
    if (!a.name) { /* a browser without an account: its own profile, once it has finished games */
      api('GET', 'api/players/me').then((p) => {
        if (p.player.account || !p.games || $('acct-name').textContent) return; /* none yet, or logged in meanwhile */
        $('my-profile').href = 'profile.html?id=' + encodeURIComponent(p.player.id);
        $('my-profile').hidden = false;
      }, () => {});
    }
    $('c-name').disabled = !!a.name;
    if (a.name) $('c-name').value = a.name;
  }

  async function accountAction(path) {
    const body = path === 'logout' ? {} : { name: $('acct-user').value.trim(), password: $('acct-pass').value };
    $('acct-pass').value = '';
    showAccount(await api('POST', 'api/account/' + path, body));
  }

  async function changePassword() {
    const body = { password: $('pw-old').value, new_password: $('pw-new').value };
    $('pw-old').value = '';
    $('pw-new').value = '';
    showAccount(await api('POST', 'api/account/password', body));
    $('pw-change').hidden = true;
    $('pw-done').hidden = false;
  }

  function showLobby() {
    closeGame();
    $('game').hidden = true;
    $('lobby').hidden = false;
    document.getElementById('app').dataset.state = 'lobby';
    guarded(refreshLobby);
    api('GET', 'api/account').then(showAccount, () => { $('account').hidden = true; });
    st.lobbyTimer = setInterval(() => quiet(refreshLobby), 2000);
  }

  /* ---------- a game ---------- */

  function closeGame() {
    if (st.es) st.es.close();
    st.es = null;
    if (st.reopen) clearTimeout(st.reopen);
    st.reopen = null;
    setLost(false);
    st.game = null;
    st.selected = null;
    st.confirm = null;
    st.view = null;
    st.positions = null;
    st.players = null;
    st.playersAsked = false;
    st.chatShown = 0;
    $('chat-list').textContent = '';
    if (st.lobbyTimer) clearInterval(st.lobbyTimer);
    st.lobbyTimer = null;
  }

  async function showGame(id, join) {
    closeGame();
    st.id = id;
    $('lobby').hidden = true;
    $('game').hidden = false;
    if (join) {
      try {
        update(await api('POST', `api/play/${id}/join`, { name: localStorage.getItem('cd-name') || '' }));
      } catch (e) { showError(e.message); }
      history.replaceState(null, '', '#' + id);
    }
    openStream(id);
    $('pdn-link').href = `api/play/${id}/pdn`;
  }

  /* The game's live stream. When it is lost the page says "Reconnecting" and its clocks stop
   * counting down (the server's clocks run on; its next state shows them); EventSource tries
   * again by itself after a dropped connection, and a refusal (the server at its limit: 503)
   * closes it, so it is opened again after 5 s. */
  function openStream(id) {
    const es = new EventSource(`api/play/${id}/events`);
    st.es = es;
    es.addEventListener('state', (ev) => { setLost(false); update(JSON.parse(ev.data)); });
    es.addEventListener('gone', () => { showError('This game was deleted.'); es.close(); });
    es.onerror = () => {
      if (st.es !== es) return;
      setLost(true);
      if (es.readyState === EventSource.CLOSED) {
        st.reopen = setTimeout(() => { st.reopen = null; if (st.es === es) openStream(id); }, 5000);
      }
    };
  }

  function setLost(lost) {
    if (lost && !st.lostAt) st.lostAt = performance.now();
    if (!lost) st.lostAt = 0;
    $('reconnecting').hidden = !lost;
    document.getElementById('app').dataset.stream = lost ? 'lost' : 'live';
    drawClocks();
  }

  /* Take a state from the server unless a newer one is already shown. */
  function update(g) {
    if (!g || g.id !== st.id) return;
    if (st.game && g.now < st.game.now) return;
    const prevPly = st.game ? st.game.ply : -1;
    st.game = g;
    st.recvAt = performance.now();
    if (g.ply !== prevPly) st.selected = null;
    if (st.view !== null && st.view >= g.ply) st.view = null; /* a takeback went past it */
    const app = document.getElementById('app');
    app.dataset.ply = String(g.ply);
    app.dataset.state = g.state;
    app.dataset.you = g.you || '';
    if (g.rematch && g.you) { location.hash = g.rematch; return; }
    render();
    if (g.state === 'over' && g.end !== 'aborted' && !st.playersAsked) fetchPlayers(g.id);
  }

  /* Who played a finished game (their profiles), asked once a game. */
  function fetchPlayers(id) {
    st.playersAsked = true;
    api('GET', 'api/players?game=' + encodeURIComponent(id)).then((p) => {
      if (p.id !== st.id) return;
      st.players = p;
      if (st.game) render();
    }, () => {}); /* no store, or the game was not recorded: the names stay plain */
  }

  function fmtClock(ms) {
    if (ms === null || ms === undefined) return '';
    if (ms >= 86400000) return Math.floor(ms / 86400000) + 'd ' + Math.floor(ms % 86400000 / 3600000) + 'h';
    const s = Math.max(0, ms) / 1000;
    if (s < 10) return s.toFixed(1);
    const h = Math.floor(s / 3600), m = Math.floor(s % 3600 / 60), sec = Math.floor(s % 60);
    const mm = h ? String(m).padStart(2, '0') : String(m);
    return (h ? h + ':' : '') + mm + ':' + String(sec).padStart(2, '0');
  }

  function drawClocks() {
    const g = st.game;
    if (!g) return;
    const bottom = g.you || 'white';
    for (const [slot, c] of [['bottom', bottom], ['top', other(bottom)]]) {
      const el = $(slot).querySelector('.clock');
      let ms = g[c].ms;
      const running = g.running === c;
      if (running) ms -= (st.lostAt || performance.now()) - st.recvAt;
      el.textContent = fmtClock(ms);
      el.hidden = ms === null;
      el.classList.toggle('running', running);
      el.classList.toggle('low', ms !== null && ms < 10000 && g.clock.type === 'realtime');
      el.dataset.colour = c;
    }
  }

  /* " 1512?" (a provisional rating), then " +12" once the game is rated. */
  function ratingText(p) {
    if (p.rating === null || p.rating === undefined) return '';
    const ch = p.rating_change;
    return ' ' + p.rating + (p.provisional ? '?' : '') +
      (ch === null || ch === undefined ? '' : ' ' + (ch >= 0 ? '+' : '−') + Math.abs(ch));
  }

  function statusText(g) {
    if (g.state === 'waiting') return g.you ? 'Waiting for your opponent' : 'Waiting for a second player';
    if (g.state === 'ongoing') {
      const who = cap(g.side) + ' to move';
      return g.you ? who + (g.you === g.side ? ' (you)' : '') : who;
    }
    if (g.end === 'aborted') return 'Game aborted';
    const why = g.end || g.reason;
    return (g.winner ? cap(g.winner) + ' wins' : 'Draw') + (why ? ' (' + why + ')' : '');
  }

  /* The server's downtime given back to the clocks (outage_ms), as the page says it. */
  function outageText(ms) {
    const s = Math.max(1, Math.round(ms / 1000));
    const span = s < 60 ? s + ' s' : Math.floor(s / 60) + ' min' + (s % 60 ? ' ' + (s % 60) + ' s' : '');
    return 'The server was down for ' + span + ' during this game: that time was given back to the clocks.';
  }

  function render() {
    const g = st.game;
    const you = g.you, opp = you ? other(you) : null;
    const bottom = you || 'white';
    for (const [slot, c] of [['bottom', bottom], ['top', other(bottom)]]) {
      const n = $(slot).querySelector('.name');
      /* each name leads to its player's profile: a finished game's as it was recorded, a live
       * game's as the seat sat down */
      const who = st.players && st.players.id === g.id ? st.players[c] : g[c].profile || null;
      n.textContent = '';
      n.appendChild(nameNode(g[c].name || cap(c), who));
      n.appendChild(document.createTextNode(ratingText(g[c]) + (c === you ? ' (you)' : '') +
        (!g[c].seated ? ' – open seat' : g[c].online || c === you ? '' : ' – away')));
      n.classList.toggle('to-move', g.state === 'ongoing' && g.side === c);
    }
    drawClocks();
    const s = $('status');
    s.textContent = statusText(g);
    s.classList.toggle('over', g.state === 'over');
    $('outage').hidden = !(g.outage_ms > 0);
    $('outage').textContent = g.outage_ms > 0 ? outageText(g.outage_ms) : '';
    $('invite').hidden = !(g.state === 'waiting' && you);
    $('invite-link').value = location.origin + location.pathname + '#' + g.id + '/join';
    const ongoing = g.state === 'ongoing';
    $('btn-join').hidden = !(g.state === 'waiting' && !you);
    $('btn-draw').hidden = !(ongoing && you);
    $('btn-draw').disabled = g.draw_offer === you;
    $('btn-takeback').hidden = !(ongoing && you && g.ply > 0);
    $('btn-takeback').disabled = g.takeback === you;
    $('btn-resign').hidden = !(ongoing && you && g.ply >= 2);
    $('btn-abort').hidden = !(you && (g.state === 'waiting' || (ongoing && g.ply < 2)));
    if (st.confirm && $('btn-' + st.confirm).hidden) st.confirm = null;
    renderConfirm();
    const canRematch = g.state === 'over' && you && g.end !== 'aborted' && !g.rematch && g[opp].seated;
    $('btn-rematch').hidden = !canRematch;
    $('btn-rematch').disabled = g.rematch_offer === you;
    $('btn-rematch').textContent = g.rematch_offer === opp ? 'Accept the rematch'
      : g.rematch_offer === you ? 'Rematch offered' : 'Rematch';
    $('rematch-link').hidden = !g.rematch;
    $('btn-review').hidden = !(g.state === 'over' && g.ply > 0);
    if (g.rematch) $('rematch-link').href = '#' + g.rematch;
    let offer = '';
    if (ongoing && you && g.draw_offer === opp) offer = 'draw';
    else if (ongoing && you && g.takeback === opp) offer = 'takeback';
    $('offer').hidden = !offer;
    $('offer').dataset.kind = offer;
    $('offer-text').textContent = offer === 'draw' ? 'Your opponent offers a draw.'
      : offer === 'takeback' ? 'Your opponent asks to take back a move.' : '';
    const w = g.watching - (you ? 0 : 1);
    $('watchers').textContent = (you ? 'You play ' + you + '.' : 'You are watching.') +
      (w > 0 ? ` ${w} other${w === 1 ? '' : 's'} watching.` : '');
    renderMoves(g);
    renderChat(g);
    renderView();
  }

  /* The players' chat: messages are only ever added, so only the new ones are appended (the
   * list keeps its scroll position otherwise). Every text goes in as textContent, never as HTML. */
  function renderChat(g) {
    const ol = $('chat-list');
    const chat = g.chat || [];
    if (chat.length < st.chatShown) { ol.textContent = ''; st.chatShown = 0; }
    const atEnd = ol.scrollTop + ol.clientHeight >= ol.scrollHeight - 4;
    for (let i = st.chatShown; i < chat.length; i++) {
      const m = chat[i];
      const li = document.createElement('li');
      li.className = 'chat-' + m.from + (m.from === g.you ? ' mine' : '');
      const who = document.createElement('span');
      who.className = 'who';
      who.textContent = (g[m.from].name || cap(m.from)) + ':';
      const text = document.createElement('span');
      text.className = 'text';
      text.textContent = m.text;
      li.append(who, ' ', text);
      ol.appendChild(li);
    }
    if (chat.length !== st.chatShown && (atEnd || st.chatShown === 0)) ol.scrollTop = ol.scrollHeight;
    st.chatShown = chat.length;
    $('chat-form').hidden = !g.you;
    $('chat-note').textContent = g.you ? '' : '(the players\' chat: spectators read it)';
    $('chat').classList.toggle('empty', chat.length === 0);
  }

  async function sendChat() {
    const input = $('chat-text');
    const text = input.value;
    if (!text.trim()) return;
    const g = await api('POST', `api/play/${st.id}/chat`, { text });
    input.value = '';
    update(g);
  }

  /* Resign and abort take a second click, on the bar that the first one opens. */
  const CONFIRMS = {
    resign: ['Resign this game?', 'Yes, resign'],
    abort: ['Abort this game?', 'Yes, abort'],
  };

  function askConfirm(kind) {
    st.confirm = kind;
    renderConfirm();
  }

  function renderConfirm() {
    const k = st.confirm;
    $('confirm').hidden = !k;
    $('confirm').dataset.kind = k || '';
    $('confirm-text').textContent = k ? CONFIRMS[k][0] : '';
    $('btn-confirm-yes').textContent = k ? CONFIRMS[k][1] : '';
  }

  /* ---------- looking back: the move list, the arrow keys ---------- */

  function shownPly() { return st.view === null ? st.game.ply : st.view; }

  /* The positions, fetched again when the game has moves they lack (the ones they have stay
   * true: a game's history only grows at its end or loses moves there). */
  async function loadPositions(upTo) {
    if (st.positions && st.positions.id === st.id && st.positions.positions.length > upTo) return;
    const p = await api('GET', `api/play/${st.id}/positions`);
    if (p.id === st.id) st.positions = p;
  }

  /* Show the position after n plies (the current one: back to following the game). */
  function setView(n) {
    const g = st.game;
    if (!g) return;
    n = Math.max(0, Math.min(g.ply, n));
    st.view = n === g.ply ? null : n;
    st.selected = null;
    $('chooser').hidden = true;
    if (st.view === null) { renderView(); return; }
    guarded(async () => { await loadPositions(n); renderView(); });
  }

  function renderView() {
    const g = st.game;
    if (!g) return;
    document.getElementById('app').dataset.view = st.view === null ? '' : String(st.view);
    $('replay').hidden = st.view === null;
    if (st.view !== null) {
      const n = st.view;
      $('replay-text').textContent = n === 0 ? `The starting position (of ${g.ply} moves)`
        : `After move ${n} of ${g.ply}: ${g.history[n - 1]}` + (g.state === 'ongoing' ? ' (the game goes on)' : '');
      $('btn-live').textContent = g.state === 'ongoing' ? 'Back to the game' : 'To the end';
    }
    const cur = shownPly();
    $('btn-first').disabled = $('btn-prev').disabled = cur === 0;
    $('btn-next').disabled = $('btn-last').disabled = cur === g.ply;
    for (const m of $('movelist').querySelectorAll('.mv[data-ply]')) {
      m.classList.toggle('cur', Number(m.dataset.ply) === cur && st.view !== null);
    }
    renderBoard(g);
  }

  function onKey(ev) {
    if ($('game').hidden || !st.game || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (ev.target.closest && ev.target.closest('input, textarea, select')) return;
    const cur = shownPly();
    const to = { ArrowLeft: cur - 1, ArrowRight: cur + 1, Home: 0, End: st.game.ply }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    setView(to);
  }

  function renderMoves(g) {
    const ol = $('movelist');
    ol.textContent = '';
    for (let i = 0; i < g.history.length; i += 2) {
      const li = document.createElement('li');
      const num = document.createElement('span');
      num.className = 'mvnum';
      num.textContent = (i / 2 + 1) + '.';
      li.appendChild(num);
      for (const k of [i, i + 1]) {
        const m = document.createElement('span');
        m.className = 'mv' + (k === g.history.length - 1 ? ' lastmv' : '');
        m.textContent = g.history[k] || '';
        if (k < g.history.length) {
          m.dataset.ply = String(k + 1);
          m.title = 'Show the position after this move (\u2190 \u2192 Home End step)';
        }
        li.appendChild(m);
      }
      ol.appendChild(li);
    }
    if (st.view === null) ol.scrollTop = ol.scrollHeight;
  }

  function el(name, attrs, parent) {
    const e = document.createElementNS(SVGNS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }

  function myTurn(g) { return st.view === null && g.state === 'ongoing' && g.you && g.you === g.side; }

  function renderBoard(g) {
    const svg = $('board');
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const flip = g.you === 'black';
    const rc = (r, c) => (flip ? [g.height - 1 - r, g.width - 1 - c] : [r, c]);
    svg.setAttribute('viewBox', `0 0 ${g.width * CELL} ${g.height * CELL}`);
    const playable = new Set(g.squares.map((s) => s.row * 1000 + s.col));
    for (let r = 0; r < g.height; r++) {
      for (let c = 0; c < g.width; c++) {
        if (playable.has(r * 1000 + c)) continue;
        const [dr, dc] = rc(r, c);
        el('rect', { x: dc * CELL, y: dr * CELL, width: CELL, height: CELL, class: 'light' }, svg);
      }
    }
    /* looking back: the position after st.view plies (the current one until it has come) */
    const pos = st.view !== null && st.positions && st.positions.id === g.id
      ? st.positions.positions[st.view] : null;
    const board = pos ? Array.from(pos.board, (ch) => (ch === '.' ? '' : ch)) : g.board;
    const mine = !pos && myTurn(g);
    const from = new Set(mine ? g.moves.map((m) => m.from) : []);
    const dests = new Set(mine ? g.moves.filter((m) => m.from === st.selected).map((m) => m.to) : []);
    const last = new Set();
    if (pos) (pos.last || []).forEach((t) => last.add(t));
    else if (g.last_move) g.last_move.hub.split(/[-x]/).slice(0, 2).forEach((t) => last.add(Number(t)));
    const full = g.squares.length === g.width * g.height;
    for (const sq of g.squares) {
      const [dr, dc] = rc(sq.row, sq.col);
      const cls = ['sq'];
      if (last.has(sq.n)) cls.push('last');
      if (st.selected === sq.n) cls.push('sel');
      if (dests.has(sq.n)) cls.push('dest');
      if (from.has(sq.n)) cls.push('movable');
      const grp = el('g', { class: cls.join(' '), 'data-sq': sq.n, transform: `translate(${dc * CELL},${dr * CELL})` }, svg);
      el('rect', { x: 0, y: 0, width: CELL, height: CELL, class: full && (sq.row + sq.col) % 2 === 0 ? 'light' : 'dark' }, grp);
      el('rect', { x: 0, y: 0, width: CELL, height: CELL, class: 'overlay' }, grp);
      el('text', { x: 5, y: 19, class: 'num' }, grp).textContent = sq.n;
      const p = board[sq.n - 1] || '';
      if (p) {
        const black = p === 'b' || p === 'B', king = p === 'W' || p === 'B';
        const pc = el('g', { class: 'piece ' + (black ? 'black' : 'white') + (king ? ' king' : ' man') }, grp);
        el('circle', { cx: 50, cy: 53, r: 38, class: 'shadow' }, pc);
        el('circle', { cx: 50, cy: 50, r: 38, class: 'body' }, pc);
        el('circle', { cx: 50, cy: 50, r: 27, class: 'ring' }, pc);
        if (king) {
          el('path', { d: 'M33,62 L33,44 L42,52 L50,36 L58,52 L67,44 L67,62 Z',
            class: black ? 'crown crown-on-black' : 'crown crown-on-white' }, pc);
        }
      }
      if (dests.has(sq.n) && !p) el('circle', { cx: 50, cy: 50, r: 13, class: 'dot' }, grp);
    }
  }

  async function sendMove(m) {
    $('chooser').hidden = true;
    st.selected = null;
    update(await api('POST', `api/play/${st.id}/move`, { move: m.text }));
  }

  function onBoardClick(ev) {
    const t = ev.target.closest('[data-sq]');
    const g = st.game;
    if (!t || !g || !myTurn(g)) return;
    const sq = Number(t.dataset.sq);
    if (st.selected !== null) {
      const cands = g.moves.filter((m) => m.from === st.selected && m.to === sq);
      if (cands.length === 1) { guarded(() => sendMove(cands[0])); return; }
      if (cands.length > 1) {
        const list = $('chooser-list');
        list.textContent = '';
        for (const m of cands) {
          const b = document.createElement('button');
          b.className = 'choice';
          b.textContent = m.text;
          b.addEventListener('click', () => guarded(() => sendMove(m)));
          list.appendChild(b);
        }
        $('chooser').hidden = false;
        return;
      }
    }
    st.selected = g.moves.some((m) => m.from === sq) ? sq : null;
    $('chooser').hidden = true;
    renderBoard(g);
  }

  function action(path, body) {
    return () => guarded(async () => update(await api('POST', `api/play/${st.id}/${path}`, body || {})));
  }

  /* A finished game on the analysis board: its PDN imported as a board game (both sides
   * played by hand, so the engine never moves there), opened with its review running. */
  function reviewGame() {
    const id = st.id;
    return guarded(async () => {
      const pdn = await api('GET', `api/play/${id}/pdn`);
      const g = await api('POST', 'api/games/import', { pdn, human: 'both' });
      location.href = 'index.html?review=1#' + encodeURIComponent(g.id);
    });
  }

  function onHash() {
    const h = location.hash.replace(/^#/, '');
    const m = /^([0-9a-f]{12})(\/join)?$/.exec(h);
    if (m) showGame(m[1], !!m[2]);
    else showLobby();
  }

  async function init() {
    $('error-close').addEventListener('click', () => { $('error').hidden = true; });
    $('board').addEventListener('click', onBoardClick);
    $('btn-create').addEventListener('click', () => guarded(createGame));
    $('btn-login').addEventListener('click', () => guarded(() => accountAction('login')));
    $('btn-register').addEventListener('click', () => guarded(() => accountAction('register')));
    $('btn-logout').addEventListener('click', () => guarded(() => accountAction('logout')));
    $('btn-pw-show').addEventListener('click', () => {
      $('pw-change').hidden = !$('pw-change').hidden;
      $('pw-done').hidden = true;
    });
    $('btn-pw').addEventListener('click', () => guarded(changePassword));
    $('c-clock').addEventListener('change', showClockFields);
    for (const id of ['c-base', 'c-inc', 'c-days']) $(id).addEventListener('input', markPreset);
    $('c-presets').addEventListener('click', (ev) => {
      const b = ev.target.closest('button[data-preset]');
      if (b) applyPreset(b.dataset.preset);
    });
    markPreset();
    $('c-name').value = localStorage.getItem('cd-name') || '';
    $('c-name').addEventListener('change', () => localStorage.setItem('cd-name', $('c-name').value.trim()));
    $('btn-join').addEventListener('click', () => guarded(async () => {
      await api('POST', `api/play/${st.id}/join`, { name: localStorage.getItem('cd-name') || '' });
      showGame(st.id, false); /* the stream again, now as the seat */
    }));
    $('chat-form').addEventListener('submit', (ev) => { ev.preventDefault(); guarded(sendChat); });
    $('btn-draw').addEventListener('click', action('draw', { action: 'offer' }));
    $('btn-takeback').addEventListener('click', action('takeback', { action: 'ask' }));
    $('btn-resign').addEventListener('click', () => askConfirm('resign'));
    $('btn-abort').addEventListener('click', () => askConfirm('abort'));
    $('btn-confirm-yes').addEventListener('click', () => {
      const k = st.confirm;
      st.confirm = null;
      renderConfirm();
      if (k) action(k)();
    });
    $('btn-confirm-no').addEventListener('click', () => { st.confirm = null; renderConfirm(); });
    $('movelist').addEventListener('click', (ev) => {
      const m = ev.target.closest('.mv[data-ply]');
      if (m) setView(Number(m.dataset.ply));
    });
    $('btn-first').addEventListener('click', () => setView(0));
    $('btn-prev').addEventListener('click', () => setView(shownPly() - 1));
    $('btn-next').addEventListener('click', () => setView(shownPly() + 1));
    $('btn-last').addEventListener('click', () => setView(st.game ? st.game.ply : 0));
    $('btn-live').addEventListener('click', () => setView(st.game ? st.game.ply : 0));
    document.addEventListener('keydown', onKey);
    $('btn-rematch').addEventListener('click', () => {
      const g = st.game;
      action('rematch', { action: g && g.rematch_offer && g.rematch_offer !== g.you ? 'accept' : 'offer' })();
    });
    $('btn-review').addEventListener('click', reviewGame);
    $('btn-accept').addEventListener('click', () => {
      action($('offer').dataset.kind, { action: 'accept' })();
    });
    $('btn-decline').addEventListener('click', () => {
      action($('offer').dataset.kind, { action: 'decline' })();
    });
    setInterval(drawClocks, 100);
    window.addEventListener('hashchange', onHash);
    window.condraughtsPlay = st;
    try {
      st.variants = await api('GET', 'api/variants');
      const sel = $('c-variant');
      for (const v of st.variants) {
        const o = document.createElement('option');
        o.value = v.name;
        o.textContent = v.title;
        sel.appendChild(o);
      }
      sel.value = 'constitutional';
    } catch (e) { showError(e.message); }
    document.getElementById('app').dataset.ready = '1';
    onHash();
  }

  init();
})();
