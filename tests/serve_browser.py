#!/usr/bin/env python3
"""skyline serve's page in a real browser (headless chromium through chromium-driver and
python3-selenium), clicked as a person would: a full Connect Four game against mcts from
the default set-up (New game, then a column), a few Tower Up moves (a market card or a
site, then the way) and Uptown moves (a tile, then a square), the saved record replaying
in the viewer, a tournament file that grows while the page watches it, an analysis; no
console error anywhere, and another seat's hidden tiles never in the page. Every wait is
for an event, bounded by tens of seconds.

usage: serve_browser.py SKYLINE SOURCE_DIR WORK_DIR [SHOTS_DIR]
exit 0 pass, 1 fail, 77 browser or driver missing (outside CI; CI=true makes it a failure).
"""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_lib import Server, BOUND  # noqa: E402

skyline, src, work = [os.path.abspath(a) for a in sys.argv[1:4]]
shots = os.path.abspath(sys.argv[4]) if len(sys.argv) > 4 else work
data = os.path.join(work, "data")
missing = 1 if os.environ.get("CI") == "true" else 77
try:
    from selenium import webdriver
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.support.ui import WebDriverWait
    from selenium.common.exceptions import StaleElementReferenceException
except ImportError:
    print("serve_browser.py: python3-selenium missing: skipped")
    sys.exit(missing)
chromium = shutil.which("chromium") or shutil.which("chromium-browser")
driver_bin = shutil.which("chromedriver")
if not chromium or not driver_bin:
    print("serve_browser.py: chromium or chromium-driver missing: skipped")
    sys.exit(missing)

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def browser():
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1400,1100", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update"]:
        opts.add_argument(flag)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = webdriver.ChromeService(executable_path=driver_bin) \
        if hasattr(webdriver, "ChromeService") else \
        webdriver.chrome.service.Service(executable_path=driver_bin)
    return webdriver.Chrome(options=opts, service=service)


def retry(fn):
    """fn(), again if the page redrew the elements it held (a live update came between)."""
    for _ in range(20):
        try:
            return fn()
        except StaleElementReferenceException:
            continue
    return fn()


def attr(d, name):
    return d.find_element(By.TAG_NAME, "body").get_attribute(name)


def wait(d, cond, what):
    try:
        return WebDriverWait(d, BOUND, poll_frequency=0.1).until(lambda d: cond(d))
    except Exception:
        raise RuntimeError("no %s within %d s" % (what, BOUND))


def console_errors(d, where):
    logs = [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
    check(not logs, "console errors %s: %r" % (where, logs))
    check(not attr(d, "data-js-error"), "a script error %s: %r" % (where, attr(d, "data-js-error")))


def page_turn(d):
    """(data-state, data-moves) read together: two reads could straddle a redraw and pair
    one view's state with the next one's move count."""
    s, n = d.execute_script("var b = document.body; return [b.getAttribute('data-state'), "
                            "b.getAttribute('data-moves')];")
    return s, int(n or 0)


def my_turn_or_over(d, moves_before):
    s, n = page_turn(d)
    return s == "over" or (s == "mine" and n > moves_before)


def click_board(d, x, y):
    """Clicks the board picture at (x, y) in the picture's own coordinates (800 wide)."""
    svg = d.find_element(By.CSS_SELECTOR, "#board svg")
    r = svg.rect
    scale = r["width"] / 800.0
    ActionChains(d).move_to_element_with_offset(svg, x * scale - r["width"] / 2,
                                                y * scale - r["height"] / 2).click().perform()


def new_game(d, game, players, seats):
    Select = __import__("selenium.webdriver.support.select", fromlist=["Select"]).Select
    d.find_element(By.CSS_SELECTOR, '.tabs button[data-tab="play"]').click()
    Select(d.find_element(By.ID, "game")).select_by_value(game)
    Select(d.find_element(By.ID, "players")).select_by_value(str(players))
    for s, spec in enumerate(seats):
        Select(d.find_element(By.ID, "seat%d" % s)).select_by_value(spec)
    before = attr(d, "data-play")
    d.find_element(By.ID, "new-game").click()
    # The new game's view, not the last one's (the page shows that until the new one comes).
    wait(d, lambda d: attr(d, "data-play") != before and my_turn_or_over(d, -1), "first turn")


def connect4_game(d):
    """The newcomer's two clicks: New game (connect4, P1 human, P2 mcts), then a column."""
    d.get(server.url)
    wait(d, lambda d: attr(d, "data-state") == "setup", "the set-up")
    check(d.find_element(By.ID, "game").get_attribute("value") == "connect4", "default game")
    check(d.find_element(By.ID, "seat1").get_attribute("value") == "mcts", "default opponent")
    d.find_element(By.ID, "seed").send_keys("3")  # a fixed game; a newcomer leaves it empty
    d.find_element(By.ID, "new-game").click()
    moves = -1
    shot = False
    while True:
        wait(d, lambda d: my_turn_or_over(d, moves), "my turn")
        # Once it is this seat's turn the page keeps that view until it moves.
        state, moves = page_turn(d)
        if state == "over":
            break
        if moves >= 6 and not shot:
            d.save_screenshot(os.path.join(shots, "serve-play.png"))
            shot = True
        cols = retry(lambda: [b.get_attribute("data-group") for b in
                              d.find_elements(By.CSS_SELECTOR, "#choices button[data-group]")])
        col = int(cols[len(cols) // 2])
        click_board(d, 106 + (col - 1) * 84 + 42, 60 + 84 * 3)
    status = d.find_element(By.ID, "status").text
    check(status.startswith("Game over"), "the game ends: %r" % status)
    link = d.find_element(By.ID, "record-link")
    name = link.text.split()[1]
    console_errors(d, "in the Connect Four game")
    link.click()
    wait(d, lambda d: attr(d, "data-ply") is not None, "the viewer")
    plies = d.find_elements(By.CSS_SELECTOR, "[data-ply]")
    check(len(plies) > 6, "the viewer lists the moves")
    console_errors(d, "in the viewer")
    rc = subprocess.run([skyline, "replay", os.path.join(data, name)], capture_output=True)
    check(rc.returncode == 0, "the saved record replays: %s" % rc.stderr)
    return name


roof_clicks = []
take_clicks = []


def take_card(d, card):
    """Tower Up, taking a market card: the card clicked on the picture is marked chosen
    (the others stay outlined), its ways are buttons, and a second click on it takes it
    (its only way) or a way button does."""
    group = card.get_attribute("data-group")
    ActionChains(d).move_to_element(card).click().perform()
    chosen = d.find_elements(By.CSS_SELECTOR, "#board svg rect.chosen[data-group]")
    check([c.get_attribute("data-group") for c in chosen] == [group],
          "Tower Up: the clicked card is marked chosen")
    ways = d.find_elements(By.CSS_SELECTOR, "#choices button[data-move]")
    check(len(ways) >= 1, "Tower Up: the card's ways offered")
    take_clicks.append(group)
    if len(ways) == 1:
        ActionChains(d).move_to_element(chosen[0]).click().perform()
    else:
        ways[0].click()


def towerup_moves(d, count):
    d.find_element(By.ID, "seed").clear()
    d.find_element(By.ID, "seed").send_keys("5")
    new_game(d, "towerup", 2, ["human", "random"])
    for k in range(count):
        moves = int(attr(d, "data-moves"))

        def step():
            targets = d.find_elements(By.CSS_SELECTOR, "#board svg [data-group]")
            check(len(targets) > 0, "Tower Up: legal choices highlighted on the board")
            takes = [t for t in targets if t.get_attribute("data-group").startswith("take")]
            if takes and not take_clicks:
                take_card(d, takes[0])
                return
            builds = [t for t in targets if t.get_attribute("data-group").startswith("build")]
            ActionChains(d).move_to_element((builds or targets)[0]).click().perform()
            ways = d.find_elements(By.CSS_SELECTOR, "#choices button[data-move]")
            if not ways:
                return
            if k == 2:
                d.save_screenshot(os.path.join(shots, "serve-towerup.png"))
            # A building move: its roof's site clicked on the board, then the floor's colour.
            roofs = [int(m.group(1)) for m in
                     (re.search(r"roof on site (\d+)\b", w.text) for w in ways) if m]
            if not roofs:
                ways[0].click()
                return
            site = d.execute_script(
                "return Array.prototype.filter.call(document.querySelectorAll("
                "'#board svg rect'), function (r) { return r.getAttribute('rx') === "
                "'7'; })[arguments[0]];", roofs[0])
            ActionChains(d).move_to_element(site).click().perform()
            roof_clicks.append(roofs[0])
            if roofs.count(roofs[0]) > 1:
                left = d.find_elements(By.CSS_SELECTOR, "#choices button[data-move]")
                check(0 < len(left) < len(ways) and all(
                    "roof on site %d" % roofs[0] in w.text for w in left),
                      "Tower Up: the roof's site keeps only its ways")
                left[0].click()
        retry(step)
        wait(d, lambda d: my_turn_or_over(d, moves), "Tower Up: my next turn")
    check(roof_clicks, "Tower Up: a roof's site clicked on the board")
    check(take_clicks, "Tower Up: a market card taken on the board")
    console_errors(d, "in Tower Up")


def hidden_marks(moves, seat, players, seed):
    """(x, y, fill) of the rectangles that other seats see and seat does not."""
    def lines(as_seat):
        out = os.path.join(work, "as.svg")
        subprocess.run([skyline, "show", "--game", "uptown", "--players", str(players),
                        "--seed", seed, "--moves", " ".join(moves), "--as", str(as_seat),
                        "--svg", out, "--no-list"], check=True, capture_output=True)
        with open(out) as f:
            return set(f.read().splitlines())
    mine = lines(seat)
    marks = set()
    for other in range(players):
        if other != seat:
            for line in lines(other) - mine:
                m = re.search(r'<rect x="([^"]+)" y="([^"]+)".*fill="([^"]+)"', line)
                if m:
                    marks.add(m.groups())
    return marks


def uptown_moves(d, count, players=3):
    """count moves of P1 in an Uptown game (with 2 players a player holds two colours, and
    a tile is named by its colour too: 0:s7, 1:s7)."""
    d.find_element(By.ID, "seed").clear()
    d.find_element(By.ID, "seed").send_keys("7")
    new_game(d, "uptown", players, ["human"] + ["random"] * (players - 1))
    for k in range(count):
        moves = retry(lambda: [e.text for e in d.find_elements(By.CSS_SELECTOR, "#moves code")])
        marks = hidden_marks(moves, 0, players, "7")
        check(marks, "Uptown: other seats have hidden tiles")
        for x, y, fill in marks:
            found = d.execute_script(
                "return document.querySelectorAll(arguments[0]).length",
                '#board rect[x="%s"][y="%s"][fill="%s"]' % (x, y, fill))
            check(not found, "Uptown: another seat's tile at %s,%s is in the page" % (x, y))
        n = int(attr(d, "data-moves"))

        def step():
            # The tiles of the player's rack with a legal move are outlined on the picture,
            # as many as the buttons; one is clicked there, then one of its squares.
            tiles = d.find_elements(By.CSS_SELECTOR, "#board svg rect.legal[data-group]")
            buttons = d.find_elements(By.CSS_SELECTOR, "#choices button[data-group]")
            if buttons:  # else a first try picked the tile already
                check(len(tiles) == len(buttons) and
                      {t.get_attribute("data-group") for t in tiles} ==
                      {b.get_attribute("data-group") for b in buttons},
                      "Uptown: the rack's playable tiles outlined on the picture")
                ActionChains(d).move_to_element(tiles[-1]).click().perform()
            chosen = d.find_elements(By.CSS_SELECTOR, "#board svg rect.chosen[data-group]")
            check(len(chosen) == 1, "Uptown: the clicked tile is marked chosen")
            squares = d.find_elements(By.CSS_SELECTOR, "#board svg rect.legal.square")
            check(len(squares) > 0, "Uptown: the tile's squares highlighted")
            if k == 1 and players == 3:
                d.save_screenshot(os.path.join(shots, "serve-uptown.png"))
            ActionChains(d).move_to_element(squares[0]).click().perform()
        retry(step)
        wait(d, lambda d: my_turn_or_over(d, n), "Uptown: my next turn")
    console_errors(d, "in Uptown")


def watch_file(d):
    t = os.path.join(work, "t.jsonl")
    subprocess.run([skyline, "tournament", "--game", "connect4", "--bot", "random", "--bot",
                    "mcts:iters=5", "--bot", "mcts:iters=40", "--games", "18", "--out", t],
                   check=True, capture_output=True)
    with open(t) as f:
        lines = f.readlines()
    live = os.path.join(data, "live.jsonl")
    with open(live, "w") as f:
        f.writelines(lines[:4])
    d.find_element(By.CSS_SELECTOR, '.tabs button[data-tab="watch"]').click()
    d.find_element(By.ID, "watch-file").send_keys("live.jsonl")
    d.find_element(By.ID, "watch-go").click()
    wait(d, lambda d: attr(d, "data-watch-games") == str(len(lines[:4])), "the first games")
    with open(live, "a") as f:
        f.writelines(lines[4:])
    wait(d, lambda d: attr(d, "data-watch-games") == str(len(lines)), "the file to grow")
    rows = d.find_elements(By.CSS_SELECTOR, "#standings tr")
    check(len(rows) == 4, "standings of three bots")
    d.save_screenshot(os.path.join(shots, "serve-watch.png"))
    console_errors(d, "watching")
    retry(lambda: d.find_element(By.CSS_SELECTOR, "#watch-games a").click())
    wait(d, lambda d: attr(d, "data-ply") is not None, "a watched game in the viewer")
    console_errors(d, "in a watched game's viewer")


def analyse(d, record):
    d.get(server.url)
    d.find_element(By.CSS_SELECTOR, '.tabs button[data-tab="analyse"]').click()
    pos = subprocess.run([skyline, "show", "--game", "connect4", "--moves", "4 4 3",
                          "--notation"], check=True, capture_output=True, text=True).stdout
    d.find_element(By.ID, "position").send_keys(pos.strip())
    d.find_element(By.ID, "analyse-go").click()
    wait(d, lambda d: attr(d, "data-analysis") == "done", "the analysis")
    check(len(d.find_elements(By.CSS_SELECTOR, "#candidates tr")) > 2, "candidates listed")
    # A record stepped to a ply: ply 2, then one on.
    first = attr(d, "data-analysis-id")
    d.find_element(By.ID, "an-file").send_keys(record)
    d.find_element(By.ID, "an-ply").clear()
    d.find_element(By.ID, "an-ply").send_keys("2")
    d.find_element(By.ID, "ply-on").click()
    wait(d, lambda d: attr(d, "data-analysis-id") != first and
         attr(d, "data-analysis") == "done", "the record's analysis")
    check("move 4" in d.find_element(By.ID, "an-board").text, "the record at ply 3")
    # With net=: the net's prior of each candidate and its value of the position.
    bot = d.find_element(By.ID, "an-bot")
    bot.clear()
    bot.send_keys("mcts:net=connect4-w128,iters=2000")
    d.find_element(By.ID, "position").send_keys(pos.strip())
    second = attr(d, "data-analysis-id")
    d.find_element(By.ID, "analyse-go").click()
    wait(d, lambda d: attr(d, "data-analysis-id") != second and
         attr(d, "data-analysis") == "done", "the analysis with a net")
    check(retry(lambda: "prior" in d.find_element(By.ID, "candidates").text and
                len(d.find_elements(By.CSS_SELECTOR, "#candidates td.prior")) == 7 and
                d.find_element(By.ID, "an-net").text.startswith("net value: P1 ")),
          "the net's priors and value shown")
    d.save_screenshot(os.path.join(shots, "serve-analyse-net.png"))
    # The bars grow while the search runs: a long search's candidates, drawn as it goes.
    bot.clear()
    bot.send_keys("mcts:time=600000")
    third = attr(d, "data-analysis-id")
    d.find_element(By.ID, "analyse-go").click()

    def running(d, more_than):
        return (attr(d, "data-analysis-id") != third and
                attr(d, "data-analysis") == "running" and
                int(attr(d, "data-analysis-iterations") or 0) > more_than)
    wait(d, lambda d: running(d, 0), "a running search's candidates")
    seen = int(attr(d, "data-analysis-iterations"))
    wait(d, lambda d: running(d, seen), "the running search's candidates growing")
    check(retry(lambda: len(d.find_elements(By.CSS_SELECTOR, "#candidates span.bar")) == 7),
          "bars for the running search")
    d.save_screenshot(os.path.join(shots, "serve-analyse.png"))
    console_errors(d, "analysing")


os.makedirs(data, exist_ok=True)
server = Server(skyline, data)
drv = None
try:
    drv = browser()
    record = connect4_game(drv)
    drv.get(server.url)
    wait(drv, lambda d: attr(d, "data-state") == "setup", "the set-up")
    towerup_moves(drv, 8)
    uptown_moves(drv, 3)
    uptown_moves(drv, 2, players=2)
    watch_file(drv)
    analyse(drv, record)
except Exception as e:  # a wait that ran out, a missing element
    failures.append(str(e))
    import traceback
    print("FAIL:", str(e).splitlines()[0], file=sys.stderr)
    traceback.print_tb(e.__traceback__, file=sys.stderr)
    if drv:
        try:  # what the page showed, for the log
            print("page: state %s, moves %s, status %r, error %r" % (
                attr(drv, "data-state"), attr(drv, "data-moves"),
                drv.find_element(By.ID, "status").text,
                drv.find_element(By.ID, "error").text), file=sys.stderr)
            print("server stderr: %r" % server.stderr()[-2000:], file=sys.stderr)
        except Exception:
            pass
finally:
    if drv:
        drv.quit()
    check(server.stop() == 0, "the server stops cleanly")
if failures:
    print("serve_browser: %d failures" % len(failures), file=sys.stderr)
    sys.exit(1)
print("serve_browser: all passed")
