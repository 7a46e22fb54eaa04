"""The texts built into the firmware (issue 40): what the table shows
when English's catalogue (lang/en.txt) is missing or fails its checks
(i18n.py). ASCII only, so framebuf's own font can draw them when no glyph
file loads either; English's words for the menu, the game, the hands'
ends, the score pad and the errors (not the coach's reasons nor the
statistics' page: their keys are shown). One bytes constant, searched as
the catalogue is: about 5 KB of heap, only on a table whose English is
damaged. tests/app/test_lang.py keeps it equal to en.txt's texts.
"""
TEXTS = b"""
lang.name = English
name.you = You
name.player = P{0}
name.cpu = CPU
name.human = Human
level.easy = easy
level.normal = normal
level.hard = hard
value.yes = yes
value.no = no
value.never = never
value.minutes = {0} min
banner.test = TEST MODE
menu.title = okgin - Oklahoma Gin
menu.resume = Resume game
menu.new_2p = New game: 2 players
menu.new_vs = New game vs computer
menu.rules = Rules
menu.custom = Custom
menu.switches = Rule switches
menu.stats = Statistics
menu.lock = Owner lock
menu.language = Language
menu.auto_off = Auto-off
menu.hint = <> choose   OK select
menu.hint_page = <> choose  OK change  hold OK back
menu.switches_title = Rules: one switch each
menu.back = Back
menu.unreadable = Saved game unreadable
preset.seeds = Seeds' rules
preset.oklahoma = Oklahoma, Sx2, 150
preset.hollywood = Hollywood
opt.gin_bonus = Gin bonus
opt.undercut_bonus = Undercut bonus
opt.target = Game to
opt.discard_taken = Discard the card taken
opt.ace_gin_only = Ace upcard: gin only
opt.spades_double = Spade upcard doubles
opt.spade_boxes_double = Doubled hand: boxes x2
opt.box_bonus = Box bonus
opt.gin_extra_boxes = Gin: extra boxes
opt.undercut_extra_boxes = Undercut: extra boxes
opt.game_bonus = Game bonus
opt.shutout_double = Shutout doubles
opt.hollywood = Hollywood (3 games)
turn.head = Hand {0} - {1} {2} - {3} {4} - to {5}
turn.head_short = {1} {2} - {3} {4} - to {5}
turn.head_tiny = {1} {2} - {3} {4}
turn.head_mini = {1} {2} {3} {4}
turn.head_hollywood = Hand {0} - {1} - to {2}
turn.head_hollywood_short = {1} - to {2}
turn.head_hollywood_tiny = {1}
turn.computer = Computer ({0})
turn.holds = Holds {0} cards
turn.waiting = Waiting for {0}
turn.upcard = Take the upcard?
turn.both_passed = Both passed: draw
turn.draw_or_take = Draw, or take {0}
turn.draw_or_take_short = Draw, or take {0}
turn.discard = Discard or knock
turn.confirm_knock = Knock with {0}?
turn.confirm_gin = GIN with {0}?
turn.status = Stock {0} - knock <={1}
turn.status_gin = Stock {0} - gin only
turn.status_short = Stock {0} - <={1}
turn.status_gin_short = Stock {0} - gin
turn.doubled = S upcard: this hand counts x2
turn.doubled_short = S upcard: hand x2
turn.deadwood = Deadwood {0}
turn.after_gin = Discard {0}: GIN!
turn.after_knock = Discard {0}: deadwood {1}, can knock
turn.after_knock_short = {0}: deadwood {1}, can knock
turn.after_knock_tiny = {0}: {1}, can knock
turn.after = Discard {0}: deadwood {1}
turn.keep_taken = {0} just taken: keep it
turn.keep_taken_short = {0} just taken: keep
turn.last = {0}: {1}
turn.last_short = {1}
turn.took = took {0}
turn.took_short = took {0}
turn.drew = drew
turn.passed = passed
turn.discarded = discarded {0}
turn.knocked = knocked
hint.computer = the computer's seat
hint.waiting = hold OK: menu, DRAW: coach
hint.waiting_short = hold OK: menu, DRAW: coach
hint.upcard = TAKE take it   DRAW pass
hint.draw_only = DRAW from the stock
hint.draw = DRAW stock   TAKE pile
hint.confirm = KNOCK/OK confirm   other cancel
hint.confirm_short = KNOCK/OK confirm   other cancel
hint.discard = <> card  OK discard  KNOCK knock
hint.discard_short = <>  OK discard  KNOCK knock
msg.wait = Wait: {0} to play
msg.upcard = TAKE the upcard, or DRAW to pass
msg.draw = DRAW from the stock or TAKE the pile
msg.just_taken = {0} was just taken: not now
msg.cant_knock = Can't knock: deadwood {0} > {1}
msg.discard_now = Now discard: OK, or KNOCK
msg.not_allowed = Not allowed
why.over = The hand is over
why.turn = It is {0}'s turn
why.upcard = First turn: take the upcard {1} or pass
why.both_passed = Both passed the upcard: draw from the stock
why.pass_first = You can pass only on the first turn
why.draw_first = First draw from the stock or take {1}
why.drawn = You have drawn: discard or knock
why.not_held = You do not hold {0}
why.just_taken = {0} was just taken from the pile: keep it this turn
why.ace_gin = Ace upcard: only gin ends this hand ({0} leaves {1})
why.limit = Knocking with {0} leaves {1}, the limit is {2}
why.game_over = The game is over
end.head = Hand {0} over - {1}
end.score = {0} {1} - {2} {3}
end.games = Games {0}
end.row = {0}: deadwood {1}
end.row_knocked = {0} knocked: deadwood {1}
end.row_knocked_you = You knocked: deadwood {1}
end.row_layoff = {0}: deadwood {1} - laid off {2}
end.row_layoff_you = {0}: deadwood {1} - laid off {2}
end.draw = Draw hand: nobody scores
end.draw_x2 = Draw hand: nobody scores (x2)
end.win_you = You win {0} ({1})
end.win = {0} wins {1} ({2})
end.by_knock = knock
end.by_gin = gin
end.by_undercut = undercut
end.doubled = {0} x2
end.boxes = {0}, boxes: {1}
end.game_you = Game over: you win {0}-{1}
end.game = Game over: {0} wins {1}-{2}
end.match_you = You win Hollywood, games {0}-{1}
end.match = {0} wins Hollywood, games {1}-{2}
hint.next_hand = OK next hand
hint.to_pad = OK the score pad
hint.to_menu = OK back to the menu
hint.human_continues = the human player goes on
pad.title_you = You win
pad.title = {0} wins
pad.title_hw_you = You win Hollywood {0}-{1}
pad.title_hw = {0} wins Hollywood {1}-{2}
pad.corner = you-them
pad.net = net {0}
pad.game = Game {0}
pad.points = Points
pad.boxes = Boxes
pad.game_bonus = Game bonus
pad.shutout = Shutout
pad.total = Total
hint.stats = <> page  OK back  KNOCK reset
hint.reset = KNOCK yes, reset   other: no
hint.any = any button: continue
hint.any_short = any button: continue
power.asleep = Sleeping
power.wake = Press any button
power.low = Battery low
power.low_more = Replace the batteries soon. The game is saved after every move.
power.empty = Battery empty
power.empty_more = The game is saved. Replace the batteries or plug in USB, then press any button.
err.title = Something went wrong
err.saved = The game is saved.
err.no_game = No game is loaded.
hint.err_back = OK back to the game
hint.err_menu = OK menu
lock.title = Owner lock lifted
lock.text = Player 1 held OK at power-up. Test mode and Ctrl-C work again; the menu turns the lock back on.
rec.damaged = Saved game damaged
rec.bad_line = The saved game is damaged from line {0}.
rec.kept = Kept as {0}. Start a new game.
rec.not_resumed = Saved game not resumed
rec.unknown_players = Players {0}, {1} are unknown here.
rec.repaired = Saved game repaired
rec.resumed = Resumed at the last good move; the damaged copy is kept as {0}.
panel.title = Panel of {0} not responding
panel.resetting = Resetting the table; the game goes on where it was.
panel.gave_up = A reset did not help: check its cable. Playing on.
menu.review = Coach after a hand
"""


def text(key):
    """The built-in text of ``key``, or None."""
    k = b"\n" + key.encode() + b" = "
    i = TEXTS.find(k)
    if i < 0:
        return None
    i += len(k)
    return TEXTS[i:TEXTS.find(b"\n", i)].decode()
