/* The replay viewer (viewer/replay.c): each game's pictures are stored once per distinct
   SVG line; a position is a list of runs [first line, count]. The page shows one
   position at a time; buttons, arrow keys, a click on a move or #game=G&ply=K in the URL
   choose which. document.body's data-game and data-ply name what is shown. */
(function () {
  'use strict';
  var sections = Array.prototype.slice.call(document.querySelectorAll('section.game'));
  var games = [];
  var current = 0;

  function Game(sec) {
    var data = JSON.parse(sec.querySelector('script.game-data').textContent);
    this.sec = sec;
    this.lines = data.lines;
    this.plies = data.plies;
    this.last = data.plies.length - 1;
    this.ply = -1;
    this.board = sec.querySelector('.board');
    this.moves = Array.prototype.slice.call(sec.querySelectorAll('[data-ply]'));
    this.extras = Array.prototype.slice.call(sec.querySelectorAll('[data-for]'));
    this.label = sec.querySelector('.plylabel');
    this.jump = sec.querySelector('input.jump');
    var self = this;
    sec.querySelector('.controls').addEventListener('click', function (e) {
      var act = e.target.getAttribute('data-act');
      if (act === 'first') self.go(0);
      else if (act === 'prev') self.go(self.ply - 1);
      else if (act === 'next') self.go(self.ply + 1);
      else if (act === 'last') self.go(self.last);
      else if (act === 'jump') self.go(parseInt(self.jump.value, 10) || 0);
    });
    this.moves.forEach(function (li) {
      li.addEventListener('click', function () { self.go(+li.getAttribute('data-ply')); });
    });
    this.jump.addEventListener('keydown', function (e) {
      if (e.key === 'Enter') self.go(parseInt(self.jump.value, 10) || 0);
      e.stopPropagation();
    });
  }

  Game.prototype.svg = function (k) {
    var out = [], lines = this.lines;
    this.plies[k].forEach(function (run) {
      for (var i = 0; i < run[1]; i++) out.push(lines[run[0] + i]);
    });
    return out.join('\n');
  };

  Game.prototype.go = function (k) {
    k = Math.max(0, Math.min(this.last, k));
    if (k === this.ply) return;
    this.ply = k;
    this.board.innerHTML = this.svg(k);
    this.moves.forEach(function (li) {
      var on = +li.getAttribute('data-ply') === k;
      li.classList.toggle('current', on);
      if (on && li.scrollIntoView) li.scrollIntoView({block: 'nearest'});
    });
    this.extras.forEach(function (el) { el.hidden = +el.getAttribute('data-for') !== k; });
    this.label.textContent = 'ply ' + k + ' / ' + this.last;
    this.jump.value = k;
    document.body.setAttribute('data-ply', k);
  };

  function choose(g, ply) {
    g = Math.max(0, Math.min(games.length - 1, g));
    current = g;
    sections.forEach(function (sec, i) { sec.hidden = i !== g; });
    var picker = document.getElementById('picker');
    if (picker) picker.value = g;
    document.body.setAttribute('data-game', g);
    games[g].ply = -1;
    games[g].go(ply);
  }

  function fromHash() {
    var m = /game=(\d+)/.exec(location.hash), p = /ply=(\d+)/.exec(location.hash);
    choose(m ? +m[1] : current, p ? +p[1] : 0);
  }

  sections.forEach(function (sec) { games.push(new Game(sec)); });
  var picker = document.getElementById('picker');
  if (picker) picker.addEventListener('change', function () { choose(+picker.value, 0); });
  document.addEventListener('keydown', function (e) {
    var g = games[current];
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown') g.go(g.ply + 1);
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') g.go(g.ply - 1);
    else if (e.key === 'Home') g.go(0);
    else if (e.key === 'End') g.go(g.last);
    else return;
    e.preventDefault();
  });
  window.addEventListener('hashchange', fromHash);
  if (games.length) fromHash();
})();
