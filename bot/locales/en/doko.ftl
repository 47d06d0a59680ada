# doko's English catalog. Every text a person reads. The German catalog
# (../de/doko.ftl) has exactly the same ids and variables (a unit test
# checks). Keys of selectors ($party, $phase, ...) are the code's names.

## Doppelkopf's terms

party = { $party ->
    [re] Re
   *[kontra] Kontra
}
call = { $call ->
    [re] Re
    [kontra] Kontra
    [no90] no 90
    [no60] no 60
    [no30] no 30
   *[schwarz] schwarz
}
solo = { $kind ->
    [diamonds] diamonds solo
    [hearts] hearts solo
    [spades] spades solo
    [clubs] clubs solo
    [queens] queens solo
    [jacks] jacks solo
    [aces] aces solo (fleischlos)
   *[kings] kings solo
}
reservation = { $what ->
    [wedding] wedding (Hochzeit)
    [poverty] poverty (Armut)
   *[throw-in] throw-in (schmeißen)
}
reservation-duty-solo = { $solo } (compulsory)
reservation-wedding-chosen = wedding (Hochzeit), { $kind ->
    [first-foreign] the first trick another player wins
    [first-fail] the first non-trump trick
   *[first-trump] the first trump trick
} finds the partner
reservations = reservations
contract = { $contract ->
    [normal] normal game
    [wedding] wedding (Hochzeit)
    [silent-solo] silent solo
    [black-sow] Schwarze Sau
   *[poverty] poverty (Armut)
}
contract-black-sow-solo = Schwarze Sau, { $solo }
bid-word = { $bid ->
    [healthy] healthy
   *[reserved] reservation
}
bid-solo-command = solo { $kind ->
    [diamonds] diamonds
    [hearts] hearts
    [spades] spades
    [clubs] clubs
    [queens] queens
    [jacks] jacks
    [aces] aces
   *[kings] kings
}
bock = { $factor ->
    [2] Bock: counts double.
   *[other] Doppelbock: counts { $factor } times.
}

## What happened (the table message)

event-joined = { $name } joins the table.
event-left = { $name } leaves the table.
event-card-style = { $style ->
    [images] Cards are shown as pictures from now on (with the text beside them).
   *[text] Cards are shown as text from now on.
}
card-style = { $style ->
    [images] pictures
   *[text] text
}
event-watching = { $name } watches the table.
event-unwatched = { $name } stops watching.
event-kiebitz = { $player } lets { $spectator } see their hand (Kiebitz).
event-kiebitz-ended = { $spectator } no longer sees { $player }'s hand.
event-computer-joined = { $name } (computer) joins the table.
event-away = { $name } is away; a computer plays the seat.
event-hint = { $name } asked the coach for a hint.
event-back = { $name } is back.
event-dealt = Deal { $number }: { $dealer } deals.
event-forced-solo = { $name } must play a compulsory solo (vorführen).
event-bid = { $bid ->
    [healthy] { $name }: healthy (gesund)
   *[reserved] { $name }: reservation (Vorbehalt)
}
event-played = { $name } plays { $card }
event-trick-won = Trick to { $name } ({ $points } { $points ->
    [one] point
   *[other] points
})
event-announced = { $name }: { $call }!
event-sow-started = Nobody takes the poverty: Schwarze Sau! Everyone plays for themselves until the second queen of spades falls; whoever takes that trick chooses a solo, which counts with every trick taken so far.
event-sow-taken = { $name } took the second queen of spades and chooses the solo.
event-sow-solo = { $name } plays { $solo } (Schwarze Sau) from the next trick on, against the other three.
event-genscher = { $name }: Genscher! { $name } plays the first king of diamonds and takes { $partner } as partner; the parties are formed anew, the announcements stay with the party names.
event-said = { $name }: { $what ->
    [half-chicken] half a chicken! (both tens of diamonds; it changes nothing)
    [piglets] piglets! (both foxes are now the highest trumps)
   *[superpiglets] superpiglets! (they now rank above the piglets)
}
declaration = { $what ->
    [half-chicken] half a chicken
    [piglets] piglets
   *[superpiglets] superpiglets
}
event-poverty = { $step ->
    [gave] { $name } puts the poverty down.
    [accepted] { $name } takes the poverty.
    [declined] { $name } declines the poverty.
   *[returned] { $name } returns cards.
}
event-redeal = { $reason ->
    [throw-in] Thrown in: the same dealer deals again.
   *[poverty-declined] Nobody takes the poverty: the same dealer deals again.
}
event-session-over = The session is over.
event-rules-changed = House rules changed; they apply from the next deal.
event-lang-changed = Language: English.
event-reminder = { $name }: your time is running out - { $left } { $left ->
    [one] second
   *[other] seconds
} left of { $timeout }.
event-timed-out = { $name }: no move in { $timeout } { $timeout ->
    [one] second
   *[other] seconds
}; a computer plays your turns until you are back. Send any command (e.g. hand) to take your seat back.
event-aborted = { $name }: no move in { $timeout } { $timeout ->
    [one] second
   *[other] seconds
}; the deal is aborted and counts for nobody (record { $record }). Say start to deal again.
event-aborted-by = { $name } aborts the deal; it counts for nobody (record { $record }). Say start to deal again.
event-kicked = { $now ->
    [yes] { $by } removes { $name } from the table.
   *[no] { $by } removes { $name } from the table; a computer plays the seat until this deal ends.
}
event-bot-removed = { $now ->
    [yes] { $name } (computer) leaves the table.
   *[no] { $name } (computer) leaves the table when this deal ends.
}
event-freed = { $name }'s seat is free.
event-session-reset = { $name } ends the session; its score sheet is kept.
event-clock-paused = { $name } pauses the turn clock; say resume to start it again.
event-waiting = Nobody plays in person now (away, or computers only): the next deal waits until someone says start.
event-clock-resumed = { $name } starts the turn clock again.

## The result of a deal

summary-title = Result of deal { $number }: { $contract }
summary-title-declarer = Result of deal { $number }: { $contract } ({ $declarer })
summary-party = { $party }: { $names } - { $points } { $points ->
    [one] point
   *[other] points
}
summary-winner = Winner: { $party }, game value { $value }
summary-no-winner = No winner: neither party reached its target; each is credited what it achieved, value for Re { $value }
summary-revealed = The deal revealed (hands as dealt, then every trick):
summary-hand = { $name }: { $cards }
summary-trick = { $n }. { $leader } led: { $cards } -> { $winner } ({ $points })
summary-scores = Points: { $scores }  (record { $record })
reason = { $reason ->
    [won] won
    [under90] under 90
    [under60] under 60
    [under30] under 30
    [schwarz] schwarz
    [announced-re] Re
    [announced-kontra] Kontra
    [re-doubles] Re doubles
    [kontra-doubles] Kontra doubles
    [announced-no90] no 90 announced
    [announced-no60] no 60 announced
    [announced-no30] no 30 announced
    [announced-schwarz] schwarz announced
    [reached120] 120 against no 90
    [reached90] 90 against no 60
    [reached60] 60 against no 30
    [reached30] 30 against schwarz
    [against-the-elders] against the elders (gegen die Alten)
    [doppelkopf] Doppelkopf
    [fox] fox caught
    [fox-last-trick] fox in the last trick
    [charlie] Karlchen
    [charlie-caught] Karlchen caught
    [lizzie-miller] Lieschen Müller
    [fox-first-trick] fox in the first trick
    [dulle-caught] Dulle caught
    [heart-trick] hearts trick
   *[solo-double] solo counts double
}

## The table

table-rules = Rules: { $rules }
table-seats = Seats ({ $n }/4): { $names }
table-say-start = Say start to deal.
table-clock-paused = The turn clock is paused.
table-game = Game: { $contract }
table-game-declarer = Game: { $contract } ({ $declarer })
table-cards = { $n } { $n ->
    [one] card
   *[other] cards
}
table-last-trick = Last trick: { $cards } -> { $winner }
lasttrick = Last trick ({ $n }.): { $plays } -> { $winner } ({ $points } { $points ->
    [one] point
   *[other] points
})
lasttrick-none = No trick has been taken yet in this deal.
lasttrick-no-deal = No deal is being played.
table-trick = Trick: { $cards }
picture-hand = Picture of your hand ({ $n } cards)
picture-trick = Picture of the trick on the table and the last trick
picture-deal = Picture of the deal: every hand as dealt
table-watching = Watching: { $names }
table-kiebitz = { $spectator } (sees { $player }'s hand)
kiebitz-hand = { $name }'s hand (you are their Kiebitz: do not tell): { $cards }
table-to-act = { $phase ->
    [bidding] { $name } to bid.
    [poverty-give] { $name } to put down the poverty.
    [poverty-offer] { $name } to accept or decline the poverty.
    [poverty-return] { $name } to return cards.
    [sow-choice] { $name } to choose the solo (Schwarze Sau).
   *[playing] { $name } to play.
}
table-must-announce = { $name } must announce first (Pflichtansage).

## A hand (private)

hand-cards = Your hand: { $cards }
hand-party = You play { $party }
hand-poverty-cards = Poverty cards given/returned: { $given } / { $returned }
hand-can = You can: { $choices }
hand-your-turn = Your turn: play a [card].
choice-accept = accept
choice-genscher = genscher PLAYER (play the first king of diamonds, name a partner)
choice-decline = decline
choice-give = give CARDS ({ $n } { $n ->
    [one] card
   *[other] cards
})
choice-return = return CARDS ({ $n } { $n ->
    [one] card
   *[other] cards
})
button-refresh = refresh
button-my-hand = my hand
your-turn = your turn

## Score sheet, statistics, rules

score-none = No session yet.
score-game = game
score-bock = Bock
score-doppelbock = Doppelbock
score-hint = hint
score-check = Check: sum { $sum }{ $parity ->
    [yes] , all even or all odd
   *[no] {""}
}
score-duty-owed = Compulsory solos owed: { $owed }
stats-player = player
stats-deals = deals
stats-won = won
stats-solos = solos
stats-points = points
rules-heading = House rules (* differs from the preset; changes apply from the next deal):
rules-deal-differs = (the deal being played uses the rules it was dealt with)
rule-about = { $key ->
    [nines] 48 cards; false: 40 without nines
    [dulle] which of two hearts tens in one trick wins
    [dullen] off: the hearts tens are plain hearts, no trumps
    [solos] the solos that may be bid
    [soloist_leads] a free solo's player leads the first trick
    [wedding] which trick finds the wedding partner
    [wedding_choose] the wedding player names that trick with the bid
    [poverty] a hand with few trumps may declare poverty
    [poverty_max_trumps] the most trumps a poverty hand holds
    [poverty_fox_counts] the foxes count as trumps for poverty
    [poverty_return_trumps] the taker may give trumps back
    [piglets] both foxes in one hand are the highest trumps
    [superpiglets] both diamond nines rank above the piglets
    [piglets_first_only] only the first fox played is a piglet
    [piglets_when] piglets count from the deal, or once said in play
    [piglets_announce] piglets force an announcement
    [half_chicken] both tens of diamonds may say half a chicken
    [genscher] both kings of diamonds: name a new partner
    [black_sow] a declined poverty is played; the second queen of spades' taker picks a solo
    [throw_in_nines] a hand with that many nines may be thrown in
    [throw_in_kings] a hand with that many kings may be thrown in
    [throw_in_low_trumps] a hand with at most that many trumps may throw in
    [throw_in_low_points] a hand of fewer card points may throw in
    [re_kontra] Re and Kontra add 2 points or double
    [extra_points] which extra points count (normal games)
    [mandatory_announcement] that many points in trick 1 force an announcement
    [mandatory_further] the forced announcement goes one level further
    [compulsory_solos] compulsory solos per player per list
    [games_per_session] deals in a list (0: open-ended)
    [bock] a trigger makes the next round count double
    [turn_timeout] seconds a player has to act (0: none)
    [solo_double] declared solos count double
    [solo_priority] of equal solo bids the first or last wins
    [announce_on_turn] announcements only on one's own turn
    [re_deadline] Re/Kontra until the first or the second card
    [bock_triggers] what starts a round of Bock
    [bock_stacking] Bock in Bock: extend, or stack (Doppelbock)
   *[coach] hint on one's turn: the expert's choice and why, privately; marked on the sheet
}
rules-unknown-key = unknown rule '{ $key }'; the rules are: { $keys }
rules-unknown-long-key = unknown rule '{ $key }'; rules lists them
rules-bad-value = '{ $value }' is not a value of { $key }; allowed: { $allowed }
rules-unknown-preset = unknown preset '{ $name }'; presets: { $presets }

## Rules the engine enforces

rule-deal-over = the deal is over
rule-wrong-phase = not now: { $phase ->
    [bidding] the reservations are being asked
    [poverty-give] the pauper is to put down cards
    [poverty-offer] the poverty is being offered
    [poverty-return] the poverty cards are to be returned
    [playing] the cards are being played
   *[over] the deal is over
}
rule-not-your-turn = it is not your turn; it is { $name }'s
rule-not-in-hand = you do not hold { $card }
rule-must-follow = you must follow { $class ->
    [trump] trump
    [clubs] clubs
    [spades] spades
    [hearts] hearts
   *[diamonds] diamonds
} (you hold { $card })
rule-must-announce = { $points } { $points ->
    [one] point
   *[other] points
} in the first trick: you must announce first (Pflichtansage)
rule-must-announce-piglets = piglets make an announcement compulsory: announce first
rule-cannot-genscher = a Genscher needs the house rule, a normal game, both kings of diamonds with one playable now, and another player as partner
rule-say-not-in-rules = { $what ->
    [half-chicken] half a chicken is
    [piglets] saying piglets is
   *[superpiglets] saying superpiglets is
} not in this table's house rules
rule-cannot-say = you cannot say that now: { $what ->
    [half-chicken] it needs both tens of diamonds in your hand
    [piglets] it needs both foxes in your hand (and the foxes must be trumps)
   *[superpiglets] piglets must be said first, and it needs both of the superpiglet cards in your hand
}
rule-already-said = { $what ->
    [half-chicken] half a chicken
    [piglets] piglets
   *[superpiglets] superpiglets
} has been said already in this deal
rule-wedding-needs-queens = a wedding needs both queens of clubs
rule-off = { $what ->
    [poverty] poverty is
    [throw-in] throwing in is
    [duty-solo] compulsory solos are
   *[other] that is
} not allowed under these rules
rule-too-many-trumps = you hold { $trumps } { $trumps ->
    [one] trump
   *[other] trumps
}; poverty allows at most { $max }
rule-cannot-throw-in = not enough to throw in ({ $nines } { $nines ->
    [one] nine
   *[other] nines
}, { $kings } { $kings ->
    [one] king
   *[other] kings
}, { $trumps } { $trumps ->
    [one] trump
   *[other] trumps
}, { $points } { $points ->
    [one] point
   *[other] points
})
rule-solo-not-allowed = { $solo }: not allowed under these rules
rule-exchange-count = pass exactly { $expected } { $expected ->
    [one] card
   *[other] cards
} (not { $got })
rule-must-give-trumps = put down all your trumps (you keep { $card })
rule-must-return-other-cards = give back other cards than trumps ({ $card } is a trump)
rule-before-sow-solo = no announcement in a Schwarze Sau before its solo is chosen
rule-must-choose-solo = you took the second queen of spades: choose one of the allowed solos
rule-before-clarification = no announcement before the wedding is clarified
rule-wrong-party = you play { $party }: you cannot announce { $call }
rule-already-announced = { $party } has already announced { $call }
rule-too-late = { $call }: too late - you hold { $cards } { $cards ->
    [one] card
   *[other] cards
}, it needs at least { $needed }
rule-after-late-reply = { $call }: no further announcement after a late reply

## Refused commands

error-not-seated = you are not seated at this table
error-already-seated = you are already seated
error-table-full = the table is full
error-not-enough-players = { $n } of 4 seats taken; join or addbot first
error-deal-running = a deal is running
error-no-deal = no deal is running; start one
error-sitting-out = you sit out this deal (you deal)
error-not-admin = only the channel's admins may do that
error-not-at-table = only players seated at this table and the channel's admins may do that; join first
error-in-channel = do that in the table's channel, not in a direct message
error-session-open = a session is in progress; its players keep their seats until it ends (an admin can end it with reset)
error-no-session = no session is in progress
error-no-such-player = nobody at this table is called { $name }
error-no-computer = no such computer player at this table
error-computer-plays = a computer plays your seat; say back to take it over
error-not-away = you are not away
error-already-watching = you are watching this table already
error-not-watching = you are not watching this table
error-too-many-spectators = this table has { $n } spectators already
error-no-such-spectator = nobody called { $name } watches this table (they say watch first)
error-ambiguous-spectator = more than one spectator is called { $name }: name them by mention
error-kiebitz-taken = { $name } sees another player's hand already
error-no-kiebitz = nobody sees your hand
error-forced = this deal is a forced solo (vorführen): { $why ->
    [you-must-bid-solo] you must bid a solo
   *[only-forced-bids] only the forced player bids; say healthy
}
error-session-over = the session is over
error-no-record = no record number { $n }
error-no-analysis = { $n ->
    [0] you played none of the last { $kept } deals here; analysis looks at those
   *[other] you did not play deal { $n } here, or it is not one of the last { $kept }
}
error-no-coach = this table has no coach: an admin can turn it on with rules set coach on (from the next deal)
hint-card = Coach: play { $card }: { $why }.
hint-choice = Coach: { $choice }: { $why }.
hint-why-pull-trumps = lead trumps, to draw the others' trumps
hint-why-lead-ace = lead the ace while the suit still goes round
hint-why-lead-suit = lead a plain suit
hint-why-save-fox = save the fox: your side takes this trick
hint-why-smear = give points: your side takes this trick
hint-why-follow = follow suit
hint-why-ruff = trump it: you cannot follow suit
hint-why-discard = throw it off: you cannot follow suit
hint-why-chance = your side won with it in { $percent }% of { $deals } simulated deals
analysis-head = Analysis of deal { $record } (your { $examined } decisions, as a strong player sees them from what you saw then):
analysis-finding = trick { $trick }: { $played } instead of { $better } cost about { $cost } points
analysis-call = trick { $trick }: { $said ->
    [yes] saying { $call }
   *[no] not saying { $call }
} cost about { $cost } points
analysis-bid = reservation: { $made } instead of { $better } cost about { $cost } points
analysis-answer = poverty: { $taken ->
    [yes] taking it instead of declining
   *[no] declining it instead of taking it
} cost about { $cost } points
analysis-exchange = poverty: { $step ->
    [give] putting down { $made } instead of { $better }
   *[return] returning { $made } instead of { $better }
} cost about { $cost } points
analysis-none = Analysis of deal { $record }: none of your { $examined } decisions clearly cost points.
analysis-nothing = Analysis of deal { $record }: you had no decision with a choice to examine.
error-damaged = the stored deal is damaged: { $why }
no-such-record = no such record
no-cards = you hold no cards right now
stale-hand = That hand was out of date (the deal has moved on); here is your current one.
already-done = already done
unreachable = I cannot send you private messages (direct messages closed or no direct room); use hand to see your cards.
unavailable = The table is unavailable right now; try again in a moment.
restarting = doko is restarting (an update or a move): your command was not applied. Try again in a minute; every table is kept.
rate-limited = Slow down a little: too many commands in a short time. I will answer again in a few seconds.
table-damaged = This table's saved state cannot be read, so it cannot go on. It was set aside for the bot's operator to inspect ({ $id }). An admin can type reset to start the table afresh (seats, rules and score sheet start anew).
table-damaged-reset = The table was started afresh; its unreadable state stays set aside for the bot's operator ({ $id }). Take your seats with join.
table-newer = This table was saved by a newer version of doko; this bot must be updated before the table can go on. Nothing was changed.

## Commands: what a command expects, and its help

parse-empty = empty command; try help
parse-too-long = That is too long for a command (at most { $max } characters); try help
parse-unknown = unknown command '{ $word }'; try help
parse-missing = { $command }: missing { $what }
parse-bad = { $command }: '{ $arg }' is not { $expected }
parse-too-many = { $command }: too many arguments ('{ $extra }')
expected = { $type ->
    [card] a card (e.g. CQ, H10, ♣Q, kreuz dame)
    [cards] cards (e.g. C9 S9 H9)
    [call] an announcement (re, kontra, no90, no60, no30, schwarz)
    [declaration] what to say (half-chicken, piglets, superpiglets)
    [bid] a reservation (healthy, wedding, poverty, throw-in, solo KIND)
    [level] a computer level (basic, strong, expert, uct, random)
    [lang] a language (en, de)
    [on-off] on or off
    [policy] standin or abort
    [style] text or images
    [period] all or month
    [number] a number
    [rule-key] a rule's key (see rules)
    [rule-value] a value
    [preset] a preset (ddv, casual, sharp, freedoko)
    [step] give, accept, decline or return
    [topic] a command
    [player] a player (a mention or the name shown at the table)
    [code] a link code (8 letters and digits, from `link`)
   *[subcommand] show, set, preset or reset
}
level = { $level ->
    [basic] basic (conventions)
    [strong] strong (searches)
    [expert] expert (searches deeper)
    [uct] uct (tree search, a benchmark)
   *[random] random
}
language = { $lang ->
    [en] English
   *[de] Deutsch
}
policy = { $policy ->
    [standin] a computer stands in
   *[abort] abort the deal
}
step = { $step ->
    [give] give cards
    [accept] accept
    [decline] decline
   *[return] return cards
}
help-unknown-topic = no command '{ $topic }'; help lists them all
help-heading = Commands:
help-admin-mark = (admins)
help-join = take a seat at this channel's table
help-leave = leave the table (not during a deal: use away)
help-start = deal when four (or five) are seated
help-addbot = seat a computer player
help-away = let a computer play your seat until you are back
help-back = take your seat back from the computer
help-hand = show your hand (privately)
help-hint = on your turn, ask the coach (rule coach): what the expert would do, privately
help-bid = answer the reservation query (solo kinds: diamonds hearts spades clubs queens jacks aces kings)
help-play = play a card: CQ, H10, ♣Q, ♥10, kreuz dame, herz zehn (or just the card)
help-announce = announce for your party (keine 90 and so on also work)
help-say = say what the house rules allow (half-chicken: both tens of diamonds)
help-genscher = Genscher (house rule): play the first king of diamonds and name a partner
help-poverty = the poverty exchange (poverty alone is the reservation)
help-table = show the table
help-watch = watch the table without a seat
help-unwatch = stop watching
help-kiebitz = let a spectator see your hand (Kiebitz); without a name, end it
help-lasttrick = the last trick: who played which card, who took it
help-score = show the score sheet
help-record = the record (doko-record/1) of the last or the N-th finished deal
help-stats = per-player statistics of this channel
help-list = the list being played (number, deals, sheet), or list N of the lists kept here
help-leaderboard = the ranking of this server's players across its channels (all time or this month)
help-me = your own figures in this server, your rank and your latest lists (privately)
help-analysis = which of your decisions (bid, cards, calls) cost points in your last deal or deal N (privately)
help-server-show = the house rules with where each comes from (channel, server, default)
help-server-set = set a house rule for every channel of this server or space
help-server-preset = a preset for every channel of this server or space
help-server-lang = the language of every channel of this server or space
help-server-policy = the timeout policy of every channel of this server or space
help-server-reset = drop this server's defaults (channels keep what they set themselves)
help-rules-show = show the house rules
help-rules-set = change one house rule; it applies from the next deal
help-rules-preset = switch to a preset
help-rules-reset = back to the server's defaults (else the DDV rules)
help-lang = the channel's language
help-dm = also send your hand as a direct message (Discord; DMs must be open)
help-cards = show cards as text or as pictures (text stays beside them)
help-link = share this table with a channel on another platform (one-time code; then `link CODE` there)
help-unlink = stop sharing this table with the linked channel (its players there leave it)
help-web-show = the address of this table's web pages: lists, charts, finished deals
help-web-renew = a new address for the web pages; every old link stops working
help-policy = when a player's time (turn_timeout) runs out: a computer stands in, or the deal ends
help-removebot = remove a computer player (the last one, or by name)
help-kick = remove a person; a computer plays their seat to the end of the deal
help-abort = abort the deal being played (it counts for nobody; its record says aborted)
help-reset = end the session; its score sheet is kept
help-pause = stop the turn clock
help-resume = start the turn clock again
help-help = this help, or one command's
slash-public = Doppelkopf at this channel's table
slash-lists = Lists, leaderboards and statistics of this server
slash-admin = House rules, language, timeout policy and moderation of this channel and server (admins)

## What the bot says around the commands

dm-on = Your hand will also come as a direct message.
dm-off = No more direct messages.
resuming = Resuming the session.
welcome-computers = A Doppelkopf table: you and three computer players. Type help for the commands.
terminal-welcome = doko in your terminal; quit (or end of input) stops, and the table is kept.
terminal-bye = Bye. The table is saved; start doko again to go on.
store-waiting = Waiting for it and trying again.
terminal-waiting = Waiting for it and trying again (Ctrl-C stops).
terminal-store-back = The table is back.
several-tables = You sit at several tables:
several-tables-hint = Start the command with the table's number, e.g. `1: play ♣Q`.
no-table = You sit at no table. Invite me to a room and write `{ $prefix } join` there.
undecryptable = I could not decrypt your message (missing keys); please send it again.
refused-not-admin = only members with Manage Server may change the house rules
refused-no-subcommand = /{ $command } needs a subcommand
refused-unknown-command = unknown command /{ $command }
refused-unknown-button = this button is not one of doko's
refused-unsupported = this kind of interaction is not used by doko

## Lists, leaderboards, server defaults

period = { $period ->
    [month] this month
   *[all] all time
}
list-heading = List { $number } ({ $progress }, { $state ->
    [over] finished
   *[open] being played
}, started { $date }):
list-progress-of = { $played } of { $length } deals
list-progress = { $played ->
    [one] 1 deal
   *[other] { $played } deals
}
list-kept = Lists kept here: { $numbers } (list N shows one)
leaderboard-heading = Leaderboard of this { $scope ->
    [server] server ({ $channels ->
        [one] 1 channel
       *[other] { $channels } channels
    })
   *[channel] channel
}, { $period ->
    [all] all time
   *[other] this month ({ $period })
}; people only:
leaderboard-empty = No deals scored yet.
leaderboard-rate = won
leaderboard-solos-won = solos won
me-none = You have played no deal in this { $scope ->
    [server] server
   *[channel] channel
} yet.
me-heading = { $name } in this { $scope ->
    [server] server
   *[channel] channel
}:
me-line = { $period ->
    [all] All time
   *[other] This month ({ $period })
}: { $points } points, { $deals ->
    [one] 1 deal
   *[other] { $deals } deals
}, { $won } won ({ $rate }), solos { $solos_won } of { $solos } won; place { $rank } of { $of }
me-lists = Your latest lists:
me-list = list { $number } in { $channel } ({ $date }): { $deals ->
    [one] 1 deal
   *[other] { $deals } deals
}, { $points } points, place { $place } of { $of }
me-here = this channel
rules-source = { $source ->
    [server] server
    [channel] channel
   *[default] default
}
rules-lang-policy = language { $lang } ({ $lang_from }), timeout policy { $policy } ({ $policy_from })
error-no-list = { $n ->
    [0] No list yet: start one.
   *[other] No list number { $n } is kept here.
}
error-no-server = This channel belongs to no server or space (and a direct message to none): set the rules of this channel instead.
error-not-server-admin = Only the admins of this server or space may change its defaults.
error-no-link-code = There is no such link code: it is wrong, used, or older than 10 minutes. Ask for a new one with `link` at the table to share.
error-link-same-platform = A table is shared with one channel per platform, on a platform other than its own.
error-linked-elsewhere = This channel shares a table already: `unlink` first.
error-not-linked = This table is not shared with another channel.
link-code = Link code { $code } (valid { $minutes } minutes): an admin of a channel on another platform types `link { $code }` there, and that channel shares this table.
link-done = This channel now shares its table with { $other }: sit down here or there, it is one table.
link-ended = This channel no longer shares its table with { $other }.
link-channel = { $platform ->
    [discord] the Discord channel { $id }
    [matrix] the Matrix room { $id }
   *[other] { $id }
}
event-server-changed = { $name } changed this server's defaults: { $change } ({ $channels ->
    [one] 1 channel
   *[other] { $channels } channels
}, where a channel does not set it itself; house rules from the next deal).
web-off = This host serves no web pages (its `web.url` is not set).
web-show = This table on the web: { $url }
web-renewed = The table's web pages have a new address: { $url } (the old links no longer work).
web-deal-link = This deal on the web: { $url }
web-list-link = On the web: { $url }
web-page-title = Doppelkopf: list { $number }
web-list-heading = List { $number }
web-list-state = { $played ->
    [one] 1 deal
   *[other] { $played } deals
}, { $state ->
    [over] over
   *[open] being played
}, started { $date }
web-lists = Lists
web-leaderboard = Leaderboard
web-chart = The running score after each deal
web-chart-after = After deal { $deal }: { $scores }
web-col-deal = Deal
web-col-contract = Game
web-col-declarer = Declarer
web-col-winner = Won
web-col-value = Value
web-col-marks = Marks
web-totals = Totals
web-winner-re = Re
web-winner-kontra = Kontra
web-winner-none = nobody
web-mark-solo = solo
web-mark-duty = compulsory solo
web-deal-title = Doppelkopf: deal { $record }
web-deal-heading = Deal { $deal } of list { $list }: { $contract }
web-deal-plain = Deal (record { $record }): { $contract }
web-hands = The hands as dealt
web-dealer = dealer
web-tricks = The tricks
web-trick = Trick { $n }
web-trick-won = won by { $name } ({ $points } points)
web-announced = { $name } announces { $call }
web-step-first = Start
web-step-prev = Back
web-step-next = Next card
web-step-last = End
web-step-help = Step with the buttons or the arrow keys (Home and End jump).
web-result = { $winner } wins with { $re } to { $kontra } card points; game value { $value }.
web-board-all = All time
web-board-month = This month ({ $month })
web-board-scope = { $server ->
    [yes] every table of this server or space
   *[no] this table
}
web-col-place = Place
web-col-name = Player
web-col-points = Points
web-col-deals = Deals
web-col-won = Won
web-seat = Seat { $n }
