/* skyline serve's page (serve/page.c): play, watch and analyse over the server's JSON
   requests; every live update comes from a Server-Sent Events stream (/api/events), never
   from polling. document.body's data-version (the last view drawn) and data-state
   (setup, mine, waiting, over) let tests wait for what they need. */
(function () {
  'use strict';
  var $ = function (id) { return document.getElementById(id); };
  var info = null, cur = null, view = null, stream = null, picked = null, roofSite = null;

  function post(url, data) {
    var body = Object.keys(data).map(function (k) {
      return encodeURIComponent(k) + '=' + encodeURIComponent(data[k]);
    }).join('&');
    return fetch(url, {method: 'POST', body: body,
                       headers: {'Content-Type': 'application/x-www-form-urlencoded'}})
      .then(answer);
  }
  function get(url) { return fetch(url).then(answer); }
  function answer(r) {
    return r.json().then(function (j) {
      if (!r.ok) throw new Error(j.error || ('HTTP ' + r.status));
      return j;
    });
  }
  function showError(e) {
    var el = $('error');
    el.textContent = e ? (e.message || String(e)) : '';
    el.hidden = !e;
  }
  function el(tag, text, cls) {
    var x = document.createElement(tag);
    if (text !== undefined) x.textContent = text;
    if (cls) x.className = cls;
    return x;
  }

  /* ---- tabs ---- */
  document.querySelectorAll('.tabs button').forEach(function (b) {
    b.addEventListener('click', function () {
      document.querySelectorAll('.tabs button').forEach(function (o) {
        o.classList.toggle('on', o === b);
      });
      document.querySelectorAll('section.tab').forEach(function (s) {
        s.hidden = s.id !== 'tab-' + b.getAttribute('data-tab');
      });
      if (b.getAttribute('data-tab') !== 'play') loadFiles();
    });
  });

  /* ---- set-up ---- */
  var BOTS = ['human', 'mcts', 'mcts:iters=5000', 'heuristic', 'greedy', 'random'];
  function seatChoice(s) {
    var sel = el('select');
    sel.id = 'seat' + s;
    BOTS.forEach(function (b) { sel.appendChild(new Option(b, b)); });
    sel.value = s === 0 ? 'human' : 'mcts';
    var lab = el('label', 'P' + (s + 1) + ' ');
    lab.appendChild(sel);
    return lab;
  }
  function fillSeats() {
    var n = +$('players').value, box = $('seats');
    var old = [];
    for (var s = 0; s < 5; s++) if ($('seat' + s)) old[s] = $('seat' + s).value;
    box.textContent = '';
    for (s = 0; s < n; s++) {
      var lab = seatChoice(s);
      if (old[s]) lab.querySelector('select').value = old[s];
      box.appendChild(lab);
    }
  }
  function fillPlayers() {
    var g = info.games[$('game').selectedIndex], sel = $('players');
    sel.textContent = '';
    for (var n = g.min; n <= g.max; n++) sel.appendChild(new Option(String(n), String(n)));
    fillSeats();
  }
  get('/api/games').then(function (j) {
    info = j;
    j.games.forEach(function (g) { $('game').appendChild(new Option(g.name, g.name)); });
    $('game').value = 'connect4';
    fillPlayers();
    document.body.setAttribute('data-state', 'setup');
  }).catch(showError);
  $('game').addEventListener('change', fillPlayers);
  $('players').addEventListener('change', fillSeats);

  $('setup').addEventListener('submit', function (e) {
    e.preventDefault();
    showError(null);
    var d = {game: $('game').value, players: $('players').value};
    for (var s = 0; s < +d.players; s++) d['seat' + s] = $('seat' + s).value;
    if ($('undo').checked) d.undo = 1;
    if ($('hint-on').checked) d.hint = $('hint-bot').value;
    if ($('seed').value) d.seed = $('seed').value;
    post('/api/new', d).then(function (j) {
      var mine = j.seats.filter(function (x) { return x.token; });
      cur = {game: j.game, seat: mine.length ? mine[0].seat : -1,
             token: mine.length ? mine[0].token : ''};
      follow();
    }).catch(showError);
  });

  /* ---- a game ---- */
  function who() {
    var q = 'game=' + cur.game;
    if (cur.seat >= 0) q += '&seat=' + cur.seat + '&token=' + cur.token;
    return q;
  }
  function follow() {
    if (stream) stream.close();
    $('play').hidden = false;
    $('hint').textContent = '';
    stream = new EventSource('/api/events?game=' + cur.game);
    stream.addEventListener('update', refresh);
  }
  function refresh() {
    get('/api/view?' + who()).then(draw).catch(showError);
  }
  function act(url, extra) {
    var d = {game: cur.game, seat: cur.seat, token: cur.token};
    for (var k in extra) d[k] = extra[k];
    return post(url, d).catch(showError);
  }
  function play(text) { showError(null); picked = null; act('/api/move', {move: text}); }

  function draw(v) {
    /* Streams may tell of a version already drawn: drawing it again would drop a pick. */
    if (view && v.game === view.game && v.version <= view.version) return;
    view = v;
    picked = null;
    roofSite = null;
    $('board').innerHTML = v.svg;
    var mine = v.legal && v.legal.length;
    var st = $('status');
    st.classList.toggle('thinking', v.thinking >= 0);
    if (v.over) st.textContent = 'Game over. ' + v.outcome;
    else if (mine) st.textContent = 'Your move (P' + (v.seat + 1) + ')';
    else if (v.thinking >= 0)
      st.textContent = 'P' + (v.thinking + 1) + ' (' + v.seats[v.thinking].spec + ') is thinking';
    else if (v.waiting >= 0) st.textContent = 'Waiting for P' + (v.waiting + 1);
    else st.textContent = 'P' + (v.to_move + 1) + ' to move';
    var list = $('moves');
    list.textContent = '';
    v.moves.forEach(function (m) {
      var li = el('li');
      li.appendChild(el('span', 'P' + (m.p + 1) + ' '));
      li.appendChild(el('code', m.t));
      list.appendChild(li);
    });
    $('undo-btn').hidden = !v.undo || v.over;
    $('hint-btn').hidden = !v.hint || v.over;
    $('quit-btn').hidden = v.over;
    var rec = $('record');
    rec.textContent = '';
    if (v.record) {
      var a = el('a', 'Replay ' + v.record + ' in the viewer');
      a.href = '/view?file=' + encodeURIComponent(v.record);
      a.id = 'record-link';
      rec.appendChild(a);
    }
    showChoices();
    document.body.setAttribute('data-state', v.over ? 'over' : mine ? 'mine' : 'waiting');
    document.body.setAttribute('data-version', v.version);
    document.body.setAttribute('data-play', v.game);
    document.body.setAttribute('data-moves', v.moves.length);
  }

  /* The first step's choices (groups), then the second's (ways) once one is picked. */
  function groups() {
    var seen = {}, out = [];
    (view.legal || []).forEach(function (m) {
      if (!seen[m.g]) { seen[m.g] = []; out.push(m.g); }
      seen[m.g].push(m);
    });
    return {names: out, moves: seen};
  }
  function showChoices() {
    var box = $('choices');
    box.textContent = '';
    markBoard();
    if (!view.legal || !view.legal.length) return;
    var gs = groups();
    if (picked === null) {
      box.appendChild(el('div', gs.names.length + ' choices: click the board or a button', 'step'));
      gs.names.forEach(function (g) {
        var b = el('button', g);
        b.type = 'button';
        b.setAttribute('data-group', g);
        b.addEventListener('click', function () { pick(g); });
        box.appendChild(b);
      });
      return;
    }
    box.appendChild(el('div', picked + (roofSite !== null ? ', roof on site ' + roofSite : '') +
      ', then:', 'step'));
    gs.moves[picked].filter(function (m) {
      return roofSite === null || roofOn(m, roofSite);
    }).forEach(function (m) {
      var b = el('button', m.w || m.t);
      b.type = 'button';
      b.setAttribute('data-move', m.t);
      b.addEventListener('click', function () { play(m.t); });
      box.appendChild(b);
    });
    var back = el('button', '\u2190 back');
    back.type = 'button';
    back.addEventListener('click', function () { picked = null; roofSite = null; showChoices(); });
    box.appendChild(back);
  }
  function pick(g) {
    var ms = groups().moves[g];
    /* A choice with one way and nothing to say of it is played at once; a second click
       on the chosen target plays its only way. */
    if (ms.length === 1 && (!ms[0].w || view.name === 'connect4' || picked === g)) {
      play(ms[0].t);
      return;
    }
    picked = g;
    roofSite = null;
    showChoices();
  }
  function roofOn(m, site) { return new RegExp('roof on site ' + site + '\\b').test(m.w); }

  /* ---- clicks on the picture ---- */
  function svgPoint(svg, e) {
    var p = svg.createSVGPoint();
    p.x = e.clientX; p.y = e.clientY;
    return p.matrixTransform(svg.getScreenCTM().inverse());
  }
  function svgRect(svg, x, y, w, h, cls) {
    var r = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
    r.setAttribute('x', x); r.setAttribute('y', y);
    r.setAttribute('width', w); r.setAttribute('height', h);
    r.setAttribute('fill', 'none');
    r.setAttribute('class', cls);
    r.setAttribute('pointer-events', 'none');
    svg.appendChild(r);
  }
  /* Tower Up: the market cards and the sites are the picture's rectangles, in order. */
  function towerupTargets(svg) {
    var cards = [], sites = [];
    svg.querySelectorAll('rect').forEach(function (r) {
      if (r.getAttribute('rx') === '7') sites.push(r);
      else if (r.getAttribute('width') === '120' && r.getAttribute('height') === '26') cards.push(r);
    });
    return {cards: cards, sites: sites};
  }
  function towerupTarget(t, label) {
    var m = /card (\d+)/.exec(label);
    if (m) return t.cards[+m[1] - 1];
    m = /site (\d+)/.exec(label);
    return m ? t.sites[+m[1]] : null;
  }
  var SQ = 'ABCDEFGHI';
  function markBoard() {
    var svg = $('board').querySelector('svg');
    if (!svg) return;
    /* The marks of the last step go before this step's are drawn. */
    svg.querySelectorAll('.square').forEach(function (r) { r.remove(); });
    svg.querySelectorAll('.pick, .legal, .chosen').forEach(function (r) {
      r.classList.remove('pick', 'legal', 'chosen');
      r.removeAttribute('data-group');
    });
    if (!view.legal || !view.legal.length) return;
    var gs = groups();
    if (view.name === 'towerup') {
      var t = towerupTargets(svg);
      gs.names.forEach(function (g) {
        var r = towerupTarget(t, g);
        if (!r) return;
        r.classList.add('pick');
        r.classList.add(picked === g ? 'chosen' : 'legal');
        r.setAttribute('data-group', g);
      });
      if (picked !== null) gs.moves[picked].forEach(function (m) {
        var roof = /roof on site (\d+)/.exec(m.w);
        if (roof && t.sites[+roof[1]])
          t.sites[+roof[1]].classList.add(+roof[1] === roofSite ? 'chosen' : 'legal');
      });
    } else if (view.name === 'uptown') {
      uptownRack(svg).forEach(function (t) {
        var g = uptownGroup(gs.names, t);
        if (g === null) return;
        t.rect.classList.add('pick');
        t.rect.classList.add(picked === g ? 'chosen' : 'legal');
        t.rect.setAttribute('data-group', g);
      });
      if (picked !== null) gs.moves[picked].forEach(function (m) {
        var sq = m.w.replace(/x$/, '');
        var row = SQ.indexOf(sq[0]), col = +sq.slice(1) - 1;
        if (row >= 0 && col >= 0)
          svgRect(svg, 36 + col * 58 + 2, 64 + row * 58 + 2, 54, 54, 'legal square');
      });
    }
  }
  /* Uptown: the tiles of the player's own rack (the only rack a human's picture shows),
     each a 19 px square with its name after it, in the panel's block of its colour (a
     block 108 px wide per colour the player holds, left to right). */
  function uptownRack(svg) {
    var out = [];
    svg.querySelectorAll('rect').forEach(function (r) {
      if (parseFloat(r.getAttribute('width')) !== 19 || parseFloat(r.getAttribute('height')) !== 19)
        return;
      var name = r.nextElementSibling;
      out.push({rect: r, name: name ? name.textContent : '',
                block: Math.floor((parseFloat(r.getAttribute('x')) - 580) / 108)});
    });
    return out;
  }
  /* The first step (group) of a rack tile's moves: "TILE", or "-TILE" for a discard, with
     "B:" before it when the player holds two colours (B: the colour's block). */
  function uptownGroup(names, t) {
    var found = null;
    names.forEach(function (g) {
      var m = /^(?:(\d):)?-?(.*)$/.exec(g);
      if (m[2] === t.name && (m[1] === undefined || +m[1] === t.block)) found = g;
    });
    return found;
  }
  $('board').addEventListener('click', function (e) {
    var svg = $('board').querySelector('svg');
    if (!svg || !view || !view.legal || !view.legal.length) return;
    var p = svgPoint(svg, e), moves = view.legal;
    function under(el) {
      var b = el.getBoundingClientRect();
      return e.clientX >= b.left && e.clientX <= b.right && e.clientY >= b.top &&
        e.clientY <= b.bottom;
    }
    /* Tower Up, second step of a building move: the site for the roof (then the floor's
       colour, if more than one goes with it). */
    if (view.name === 'towerup' && picked !== null) {
      var roofs = [], site = -1;
      towerupTargets(svg).sites.forEach(function (r, i) {
        if (!under(r)) return;
        groups().moves[picked].forEach(function (m) {
          if (roofOn(m, i)) { roofs.push(m); site = i; }
        });
      });
      if (roofs.length === 1) { play(roofs[0].t); return; }
      if (roofs.length) { roofSite = site; showChoices(); return; }
    }
    /* Tower Up: the card or site under the click, whatever is drawn on top of it. */
    var hit = null;
    svg.querySelectorAll('[data-group]').forEach(function (t) {
      if (under(t)) hit = t.getAttribute('data-group');
    });
    if (hit !== null) {
      pick(hit);
    } else if (view.name === 'connect4') {
      var col = Math.floor((p.x - 106) / 84) + 1;
      moves.forEach(function (m) { if (m.t === String(col)) play(m.t); });
    } else if (view.name === 'uptown') {
      var c = Math.floor((p.x - 36) / 58), r = Math.floor((p.y - 64) / 58);
      if (c < 0 || c > 8 || r < 0 || r > 8) return;
      var sq = SQ[r] + (c + 1);
      var hits = moves.filter(function (m) {
        return (picked === null || m.g === picked) && m.w.replace(/x$/, '') === sq;
      });
      if (hits.length === 1) play(hits[0].t);
      else if (hits.length) showError(new Error('Choose a tile first: ' +
        hits.map(function (m) { return m.g; }).join(', ')));
    }
  });

  $('typed').addEventListener('submit', function (e) {
    e.preventDefault();
    if (cur) play($('move-text').value.trim());
    $('move-text').value = '';
  });
  $('undo-btn').addEventListener('click', function () { act('/api/undo', {}); });
  $('quit-btn').addEventListener('click', function () { act('/api/quit', {}); });
  $('hint-btn').addEventListener('click', function () {
    $('hint').textContent = 'thinking';
    act('/api/hint', {}).then(function (h) {
      if (!h) return;
      var txt = h.bot + ' suggests ' + h.move + (h.describe ? ' (' + h.describe + ')' : '');
      if (h.candidates.length) txt += '; ' + h.candidates.slice(0, 5).map(function (c) {
        return c.move + ' ' + c.visits + ' visits ' + c.mean.toFixed(3);
      }).join(', ');
      $('hint').textContent = txt;
    });
  });

  /* ---- watching a tournament file ---- */
  function loadFiles() {
    get('/api/files').then(function (j) {
      var dl = $('files');
      dl.textContent = '';
      j.files.forEach(function (f) { dl.appendChild(new Option(f.name, f.name)); });
    }).catch(function () {});
  }
  var watchStream = null;
  $('watch-form').addEventListener('submit', function (e) {
    e.preventDefault();
    var name = $('watch-file').value.trim();
    if (watchStream) watchStream.close();
    watchStream = new EventSource('/api/events?watch=' + encodeURIComponent(name));
    watchStream.addEventListener('update', function () {
      get('/api/watch?file=' + encodeURIComponent(name)).then(drawWatch).catch(function (err) {
        $('watch-status').textContent = err.message;
      });
    });
  });
  function fmt(x, d) { return x === null || x === undefined ? '-' : x.toFixed(d); }
  function drawWatch(w) {
    $('watch-status').textContent = w.file + ': ' + w.records + ' games';
    document.body.setAttribute('data-watch-games', w.records);
    var t = $('standings');
    t.textContent = '';
    var head = el('tr');
    ['#', 'bot', 'games', 'Elo', '\u00b1 95%', 'mean result', '\u00b1 95%', 'mean rank']
      .forEach(function (h) { head.appendChild(el('th', h)); });
    t.appendChild(head);
    w.standings.forEach(function (s, i) {
      var tr = el('tr');
      [String(i + 1), s.bot, String(s.games), fmt(s.elo, 0), fmt(s.elo_ci95, 0),
       fmt(s.result, 3), fmt(s.result_ci95, 3), fmt(s.mean_rank, 2)].forEach(function (c, k) {
        tr.appendChild(el('td', c, k === 1 ? 'l' : ''));
      });
      t.appendChild(tr);
    });
    var ol = $('watch-games');
    ol.textContent = '';
    w.games.slice().reverse().forEach(function (g) {
      var li = el('li');
      var a = el('a', 'game ' + g.index);
      a.href = '/view?file=' + encodeURIComponent(w.file) + '#game=' + (g.index - 1);
      li.appendChild(a);
      li.appendChild(el('span', ' ' + (g.seats || []).map(function (s, k) {
        return s + ' (rank ' + g.ranks[k] + ')';
      }).join(', ') + (g.forfeit ? ' forfeit' : '')));
      ol.appendChild(li);
    });
  }

  /* ---- analysis ---- */
  var anStream = null;
  function showTab(name) {
    document.querySelector('.tabs button[data-tab="' + name + '"]').click();
  }
  $('analyse-here').addEventListener('click', function () {
    if (!view || !view.position) return;
    $('position').value = view.position;
    showTab('analyse');
  });
  /* Stepping a record: the ply before or after, analysed at once. */
  [['ply-back', -1], ['ply-on', 1]].forEach(function (b) {
    $(b[0]).addEventListener('click', function () {
      $('an-ply').value = Math.max(0, (parseInt($('an-ply').value, 10) || 0) + b[1]);
      $('position').value = '';
      $('analyse-go').click();
    });
  });
  $('analyse-form').addEventListener('submit', function (e) {
    e.preventDefault();
    var d = {bot: $('an-bot').value};
    if ($('position').value.trim()) d.position = $('position').value.trim();
    else { d.file = $('an-file').value.trim(); d.index = $('an-index').value; d.ply = $('an-ply').value; }
    $('an-status').textContent = '';
    post('/api/analyse', d).then(function (j) {
      if (anStream) anStream.close();
      anStream = new EventSource('/api/events?analysis=' + j.analysis);
      anStream.addEventListener('update', function () {
        get('/api/analysis?id=' + j.analysis).then(drawAnalysis);
      });
    }).catch(function (err) { $('an-status').textContent = err.message; });
  });
  /* The candidates of the search under way (or done), redrawn as it publishes them. */
  var anShown = null;
  function drawAnalysis(a) {
    if (anShown && a.analysis === anShown.analysis && a.version <= anShown.version) return;
    if (!anShown || a.analysis !== anShown.analysis) $('an-board').innerHTML = a.svg;
    anShown = a;
    var st = a.error ? a.error : (a.done ? 'done: ' : 'searching: ') + a.iterations +
      ' iterations' + (a.choice ? ', choice ' + a.choice + (a.describe ? ' (' + a.describe + ')' : '') : '');
    $('an-status').textContent = st;
    $('an-status').classList.toggle('thinking', !a.done);
    $('an-net').textContent = a.net_value ? 'net value: ' + a.net_value.map(function (v, p) {
      return 'P' + (p + 1) + ' ' + v.toFixed(3);
    }).join(', ') : '';
    var t = $('candidates'), net = !!a.net_value;
    t.textContent = '';
    var head = el('tr');
    ['move', 'visits', 'mean'].concat(net ? ['prior'] : [], ['']).forEach(function (h) {
      head.appendChild(el('th', h));
    });
    t.appendChild(head);
    var most = a.candidates.length ? a.candidates[0].visits : 1;
    a.candidates.forEach(function (c) {
      var tr = el('tr');
      tr.appendChild(el('td', c.move, 'l'));
      tr.appendChild(el('td', String(c.visits)));
      tr.appendChild(el('td', c.mean.toFixed(3)));
      if (net) tr.appendChild(el('td', c.prior === undefined ? '-' : c.prior.toFixed(3), 'prior'));
      var td = el('td', undefined, 'barcell'), bar = el('span', undefined, 'bar');
      bar.style.width = Math.round(220 * c.visits / Math.max(1, most)) + 'px';
      td.appendChild(bar);
      tr.appendChild(td);
      t.appendChild(tr);
    });
    document.body.setAttribute('data-analysis', a.done ? 'done' : 'running');
    document.body.setAttribute('data-analysis-id', a.analysis);
    document.body.setAttribute('data-analysis-iterations', a.iterations);
  }
})();
