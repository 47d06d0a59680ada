# Der deutsche Katalog von doko: jeder Text, den ein Mensch liest. Der
# englische (../en/doko.ftl) hat genau dieselben Ids und Variablen (ein
# Unit-Test prüft das). Die Schlüssel der Auswahlen ($party, $phase, ...)
# sind die Namen im Code.

## Die Begriffe des Doppelkopf

party = { $party ->
    [re] Re
   *[kontra] Kontra
}
call = { $call ->
    [re] Re
    [kontra] Kontra
    [no90] keine 90
    [no60] keine 60
    [no30] keine 30
   *[schwarz] schwarz
}
solo = { $kind ->
    [diamonds] Karo-Solo
    [hearts] Herz-Solo
    [spades] Pik-Solo
    [clubs] Kreuz-Solo
    [queens] Damensolo
    [jacks] Bubensolo
    [aces] Fleischloser
   *[kings] Königssolo
}
reservation = { $what ->
    [wedding] Hochzeit
    [poverty] Armut
   *[throw-in] Schmeißen
}
reservation-duty-solo = { $solo } (Pflichtsolo)
reservation-wedding-chosen = Hochzeit, { $kind ->
    [first-foreign] der erste fremde Stich
    [first-fail] der erste Fehlstich
   *[first-trump] der erste Trumpfstich
} findet den Partner
reservations = Vorbehalte
contract = { $contract ->
    [normal] Normalspiel
    [wedding] Hochzeit
    [silent-solo] stilles Solo
    [black-sow] Schwarze Sau
   *[poverty] Armut
}
contract-black-sow-solo = Schwarze Sau, { $solo }
bid-word = { $bid ->
    [healthy] gesund
   *[reserved] Vorbehalt
}
bid-solo-command = solo { $kind ->
    [diamonds] karo
    [hearts] herz
    [spades] pik
    [clubs] kreuz
    [queens] damen
    [jacks] buben
    [aces] fleischlos
   *[kings] könige
}
bock = { $factor ->
    [2] Bock: zählt doppelt.
   *[other] Doppelbock: zählt { $factor }-fach.
}

## Was geschah (die Tischnachricht)

event-joined = { $name } nimmt Platz.
event-left = { $name } verlässt den Tisch.
event-card-style = { $style ->
    [images] Karten werden ab jetzt als Bilder gezeigt (mit dem Text daneben).
   *[text] Karten werden ab jetzt als Text gezeigt.
}
card-style = { $style ->
    [images] Bilder
   *[text] Text
}
event-watching = { $name } schaut zu.
event-unwatched = { $name } schaut nicht mehr zu.
event-kiebitz = { $player } lässt { $spectator } in die eigenen Karten schauen (Kiebitz).
event-kiebitz-ended = { $spectator } sieht die Karten von { $player } nicht mehr.
event-computer-joined = { $name } (Computer) nimmt Platz.
event-away = { $name } ist weg; ein Computer spielt den Platz.
event-hint = { $name } hat den Coach um einen Tipp gebeten.
event-back = { $name } ist zurück.
event-dealt = Spiel { $number }: { $dealer } gibt.
event-forced-solo = { $name } muss ein Pflichtsolo spielen (Vorführen).
event-bid = { $bid ->
    [healthy] { $name }: gesund
   *[reserved] { $name }: Vorbehalt
}
event-played = { $name } spielt { $card }
event-trick-won = Stich an { $name } ({ $points } { $points ->
    [one] Auge
   *[other] Augen
})
event-announced = { $name }: { $call }!
event-sow-started = Niemand nimmt die Armut: Schwarze Sau! Jeder spielt für sich, bis die zweite Pik-Dame fällt; wer diesen Stich bekommt, wählt ein Solo, das mit allen bisherigen Stichen zählt.
event-sow-taken = { $name } hat die zweite Pik-Dame gefangen und wählt das Solo.
event-sow-solo = { $name } spielt { $solo } (Schwarze Sau) ab dem nächsten Stich allein gegen die anderen drei.
event-genscher = { $name }: Genscher! { $name } spielt den ersten Karo-König und nimmt { $partner } als Partner; die Parteien werden neu gebildet, die Ansagen bleiben bei den Parteinamen.
event-said = { $name }: { $what ->
    [half-chicken] halbes Hähnchen! (beide Karo-Zehnen; es ändert nichts)
    [piglets] Schweinchen! (beide Füchse sind jetzt die höchsten Trümpfe)
   *[superpiglets] Superschweinchen! (sie stehen jetzt über den Schweinchen)
}
declaration = { $what ->
    [half-chicken] halbes Hähnchen
    [piglets] Schweinchen
   *[superpiglets] Superschweinchen
}
event-poverty = { $step ->
    [gave] { $name } legt die Armut ab.
    [accepted] { $name } nimmt die Armut.
    [declined] { $name } lehnt die Armut ab.
   *[returned] { $name } gibt Karten zurück.
}
event-redeal = { $reason ->
    [throw-in] Geschmissen: derselbe Geber gibt neu.
   *[poverty-declined] Niemand nimmt die Armut: derselbe Geber gibt neu.
}
event-session-over = Die Liste ist zu Ende.
event-rules-changed = Hausregeln geändert; sie gelten ab dem nächsten Spiel.
event-lang-changed = Sprache: Deutsch.
event-reminder = { $name }: deine Zeit läuft ab - noch { $left } { $left ->
    [one] Sekunde
   *[other] Sekunden
} von { $timeout }.
event-timed-out = { $name }: kein Zug in { $timeout } { $timeout ->
    [one] Sekunde
   *[other] Sekunden
}; ein Computer spielt für dich, bis du zurück bist. Schreib einen beliebigen Befehl (z. B. blatt), um deinen Platz zurückzunehmen.
event-aborted = { $name }: kein Zug in { $timeout } { $timeout ->
    [one] Sekunde
   *[other] Sekunden
}; das Spiel ist abgebrochen und zählt für niemanden (Protokoll { $record }). Mit start wird neu gegeben.
event-aborted-by = { $name } bricht das Spiel ab; es zählt für niemanden (Protokoll { $record }). Mit start wird neu gegeben.
event-kicked = { $now ->
    [yes] { $by } nimmt { $name } vom Tisch.
   *[no] { $by } nimmt { $name } vom Tisch; ein Computer spielt den Platz bis zum Ende dieses Spiels.
}
event-bot-removed = { $now ->
    [yes] { $name } (Computer) verlässt den Tisch.
   *[no] { $name } (Computer) verlässt den Tisch am Ende dieses Spiels.
}
event-freed = Der Platz von { $name } ist frei.
event-session-reset = { $name } beendet die Liste; sie bleibt gespeichert.
event-clock-paused = { $name } hält die Zeit an; mit weiter läuft sie wieder.
event-waiting = Gerade spielt niemand selbst (abwesend oder nur Computer): das nächste Spiel wartet, bis jemand start sagt.
event-clock-resumed = { $name } lässt die Zeit wieder laufen.

## Das Ergebnis eines Spiels

summary-title = Ergebnis von Spiel { $number }: { $contract }
summary-title-declarer = Ergebnis von Spiel { $number }: { $contract } ({ $declarer })
summary-party = { $party }: { $names } - { $points } { $points ->
    [one] Auge
   *[other] Augen
}
summary-winner = Gewinner: { $party }, Spielwert { $value }
summary-no-winner = Kein Gewinner: keine Partei hat ihr Ziel erreicht; jede bekommt, was sie erreicht hat, Wert für Re { $value }
summary-revealed = Das Spiel aufgedeckt (die Blätter wie gegeben, dann jeder Stich):
summary-hand = { $name }: { $cards }
summary-trick = { $n }. { $leader } spielt aus: { $cards } -> { $winner } ({ $points })
summary-scores = Punkte: { $scores }  (Protokoll { $record })
reason = { $reason ->
    [won] gewonnen
    [under90] keine 90
    [under60] keine 60
    [under30] keine 30
    [schwarz] schwarz
    [announced-re] Re angesagt
    [announced-kontra] Kontra angesagt
    [re-doubles] Re verdoppelt
    [kontra-doubles] Kontra verdoppelt
    [announced-no90] keine 90 abgesagt
    [announced-no60] keine 60 abgesagt
    [announced-no30] keine 30 abgesagt
    [announced-schwarz] schwarz abgesagt
    [reached120] 120 gegen keine 90
    [reached90] 90 gegen keine 60
    [reached60] 60 gegen keine 30
    [reached30] 30 gegen schwarz
    [against-the-elders] gegen die Alten
    [doppelkopf] Doppelkopf
    [fox] Fuchs gefangen
    [fox-last-trick] Fuchs im letzten Stich
    [charlie] Karlchen
    [charlie-caught] Karlchen gefangen
    [lizzie-miller] Lieschen Müller
    [fox-first-trick] Fuchs im ersten Stich
    [dulle-caught] Dulle gefangen
    [heart-trick] Herzstich
   *[solo-double] Solo zählt doppelt
}

## Der Tisch

table-rules = Regeln: { $rules }
table-seats = Plätze ({ $n }/4): { $names }
table-say-start = Mit start wird gegeben.
table-clock-paused = Die Zeit ist angehalten.
table-game = Spiel: { $contract }
table-game-declarer = Spiel: { $contract } ({ $declarer })
table-cards = { $n } { $n ->
    [one] Karte
   *[other] Karten
}
table-last-trick = Letzter Stich: { $cards } -> { $winner }
lasttrick = Letzter Stich ({ $n }.): { $plays } -> { $winner } ({ $points } { $points ->
    [one] Auge
   *[other] Augen
})
lasttrick-none = In diesem Spiel ist noch kein Stich gefallen.
lasttrick-no-deal = Es wird gerade kein Spiel gespielt.
table-trick = Stich: { $cards }
picture-hand = Bild deiner Karten ({ $n } Karten)
picture-trick = Bild des Stichs auf dem Tisch und des letzten Stichs
picture-deal = Bild des Spiels: alle Blätter, wie sie gegeben wurden
table-watching = Es schauen zu: { $names }
table-kiebitz = { $spectator } (sieht die Karten von { $player })
kiebitz-hand = Die Karten von { $name } (du kiebitzt: nichts verraten): { $cards }
table-to-act = { $phase ->
    [bidding] { $name } ist mit dem Vorbehalt dran.
    [poverty-give] { $name } legt die Armut ab.
    [poverty-offer] { $name } nimmt die Armut oder lehnt ab.
    [poverty-return] { $name } gibt Karten zurück.
    [sow-choice] { $name } wählt das Solo (Schwarze Sau).
   *[playing] { $name } ist am Zug.
}
table-must-announce = { $name } muss zuerst ansagen (Pflichtansage).

## Ein Blatt (privat)

hand-cards = Dein Blatt: { $cards }
hand-party = Du spielst { $party }
hand-poverty-cards = Armut-Karten abgegeben/zurück: { $given } / { $returned }
hand-can = Möglich: { $choices }
hand-your-turn = Du bist dran: spiele eine [Karte].
choice-accept = annehmen
choice-genscher = genscher SPIELER (ersten Karo-König spielen, Partner wählen)
choice-decline = ablehnen
choice-give = gib KARTEN ({ $n } { $n ->
    [one] Karte
   *[other] Karten
})
choice-return = zurück KARTEN ({ $n } { $n ->
    [one] Karte
   *[other] Karten
})
button-refresh = aktualisieren
button-my-hand = mein Blatt
your-turn = du bist dran

## Spielliste, Statistik, Regeln

score-none = Noch keine Liste.
score-game = Spiel
score-bock = Bock
score-doppelbock = Doppelbock
score-hint = Tipp
score-check = Kontrolle: Summe { $sum }{ $parity ->
    [yes] , alle gerade oder alle ungerade
   *[no] {""}
}
score-duty-owed = Offene Pflichtsoli: { $owed }
stats-player = Spieler
stats-deals = Spiele
stats-won = gew.
stats-solos = Soli
stats-points = Punkte
rules-heading = Hausregeln (* weicht vom Regelsatz ab; Änderungen gelten ab dem nächsten Spiel):
rules-deal-differs = (das laufende Spiel gilt mit den Regeln, mit denen es gegeben wurde)
rule-about = { $key ->
    [nines] 48 Karten; false: 40 ohne Neunen
    [dulle] welche von zwei Dullen in einem Stich gewinnt
    [dullen] off: die Herz-Zehnen sind Fehl, kein Trumpf
    [solos] die Soli, die angesagt werden dürfen
    [soloist_leads] bei einem Lustsolo spielt der Solist aus
    [wedding] welcher Stich den Hochzeitspartner findet
    [wedding_choose] der Hochzeiter nennt diesen Stich mit dem Vorbehalt
    [poverty] eine Hand mit wenig Trumpf darf Armut ansagen
    [poverty_max_trumps] höchstens so viele Trümpfe für eine Armut
    [poverty_fox_counts] die Füchse zählen für die Armut als Trumpf
    [poverty_return_trumps] wer die Armut nimmt, darf Trumpf zurückgeben
    [piglets] beide Füchse in einer Hand sind höchste Trümpfe
    [superpiglets] beide Karo-Neunen stehen über den Schweinchen
    [piglets_first_only] nur der zuerst gespielte Fuchs ist ein Schweinchen
    [piglets_when] Schweinchen gelten ab dem Geben oder ab der Ansage
    [piglets_announce] Schweinchen verpflichten zur Ansage
    [half_chicken] beide Karo-Zehnen dürfen halbes Hähnchen sagen
    [genscher] beide Karo-Könige: einen neuen Partner wählen
    [black_sow] eine abgelehnte Armut wird gespielt; wer die zweite Pik-Dame fängt, wählt ein Solo
    [throw_in_nines] mit so vielen Neunen darf man schmeißen
    [throw_in_kings] mit so vielen Königen darf man schmeißen
    [throw_in_low_trumps] mit höchstens so vielen Trümpfen darf man schmeißen
    [throw_in_low_points] mit weniger Augen darf man schmeißen
    [re_kontra] Re und Kontra zählen plus 2 oder doppelt
    [extra_points] welche Sonderpunkte zählen (Normalspiele)
    [mandatory_announcement] so viele Augen im 1. Stich erzwingen eine Ansage
    [mandatory_further] die Pflichtansage geht eine Stufe weiter
    [compulsory_solos] Pflichtsoli je Spieler und Liste
    [games_per_session] Spiele einer Liste (0: offen)
    [bock] ein Auslöser macht die nächste Runde zu Bock
    [turn_timeout] Sekunden Bedenkzeit (0: keine)
    [solo_double] angesagte Soli zählen doppelt
    [solo_priority] von gleichen Soli gewinnt das erste oder letzte
    [announce_on_turn] Ansagen nur, wenn man am Zug ist
    [re_deadline] Re/Kontra bis zur ersten oder zweiten Karte
    [bock_triggers] was eine Bockrunde auslöst
    [bock_stacking] Bock im Bock: anhängen oder stapeln (Doppelbock)
   *[coach] Tipp, wenn man dran ist: was der Experte täte und warum, privat; auf dem Zettel markiert
}
rules-unknown-key = unbekannte Regel „{ $key }“; die Regeln sind: { $keys }
rules-unknown-long-key = unbekannte Regel „{ $key }“; regeln zeigt sie alle
rules-bad-value = „{ $value }“ ist kein Wert von { $key }; erlaubt: { $allowed }
rules-unknown-preset = unbekannter Regelsatz „{ $name }“; Regelsätze: { $presets }

## Regeln, die die Engine durchsetzt

rule-deal-over = das Spiel ist vorbei
rule-wrong-phase = nicht jetzt: { $phase ->
    [bidding] es wird nach Vorbehalten gefragt
    [poverty-give] die Armut wird gerade abgelegt
    [poverty-offer] die Armut wird gerade angeboten
    [poverty-return] die Armut-Karten werden gerade zurückgegeben
    [playing] es wird gespielt
   *[over] das Spiel ist vorbei
}
rule-not-your-turn = du bist nicht dran, sondern { $name }
rule-not-in-hand = du hast { $card } nicht auf der Hand
rule-must-follow = du musst { $class ->
    [trump] Trumpf
    [clubs] Kreuz
    [spades] Pik
    [hearts] Herz
   *[diamonds] Karo
} bedienen (du hast { $card })
rule-must-announce = { $points } { $points ->
    [one] Auge
   *[other] Augen
} im ersten Stich: du musst zuerst ansagen (Pflichtansage)
rule-must-announce-piglets = Schweinchen verpflichten zur Ansage: sage zuerst an
rule-cannot-genscher = ein Genscher braucht die Hausregel, ein Normalspiel, beide Karo-Könige (einer jetzt spielbar) und einen anderen Spieler als Partner
rule-say-not-in-rules = { $what ->
    [half-chicken] das halbe Hähnchen ist
    [piglets] Schweinchen ansagen ist
   *[superpiglets] Superschweinchen ansagen ist
} nicht in den Hausregeln dieses Tisches
rule-cannot-say = das kannst du jetzt nicht sagen: { $what ->
    [half-chicken] dazu brauchst du beide Karo-Zehnen auf der Hand
    [piglets] dazu brauchst du beide Füchse auf der Hand (und die Füchse müssen Trumpf sein)
   *[superpiglets] erst müssen Schweinchen angesagt sein, und du brauchst beide Superschweinchen-Karten auf der Hand
}
rule-already-said = { $what ->
    [half-chicken] das halbe Hähnchen
    [piglets] Schweinchen
   *[superpiglets] Superschweinchen
} wurde in diesem Spiel schon gesagt
rule-wedding-needs-queens = eine Hochzeit braucht beide Kreuz-Damen
rule-off = { $what ->
    [poverty] Armut ist
    [throw-in] Schmeißen ist
    [duty-solo] Pflichtsoli sind
   *[other] das ist
} nach diesen Regeln nicht erlaubt
rule-too-many-trumps = du hast { $trumps } { $trumps ->
    [one] Trumpf
   *[other] Trümpfe
}; Armut erlaubt höchstens { $max }
rule-cannot-throw-in = zu wenig zum Schmeißen ({ $nines } { $nines ->
    [one] Neun
   *[other] Neunen
}, { $kings } { $kings ->
    [one] König
   *[other] Könige
}, { $trumps } { $trumps ->
    [one] Trumpf
   *[other] Trümpfe
}, { $points } { $points ->
    [one] Auge
   *[other] Augen
})
rule-solo-not-allowed = { $solo }: nach diesen Regeln nicht erlaubt
rule-exchange-count = genau { $expected } { $expected ->
    [one] Karte
   *[other] Karten
} abgeben (nicht { $got })
rule-must-give-trumps = lege alle Trümpfe ab (du behältst { $card })
rule-must-return-other-cards = gib andere Karten als Trümpfe zurück ({ $card } ist Trumpf)
rule-before-sow-solo = keine Ansage in der Schwarzen Sau, bevor das Solo gewählt ist
rule-must-choose-solo = du hast die zweite Pik-Dame gefangen: wähle eines der erlaubten Soli
rule-before-clarification = keine Ansage, bevor die Hochzeit geklärt ist
rule-wrong-party = du spielst { $party }: du kannst nicht { $call } ansagen
rule-already-announced = { $party } hat schon { $call } angesagt
rule-too-late = { $call }: zu spät - du hast noch { $cards } { $cards ->
    [one] Karte
   *[other] Karten
}, nötig sind mindestens { $needed }
rule-after-late-reply = { $call }: keine weitere Ansage nach einer späten Erwiderung

## Abgelehnte Befehle

error-not-seated = du sitzt nicht an diesem Tisch
error-already-seated = du sitzt schon
error-table-full = der Tisch ist voll
error-not-enough-players = { $n } von 4 Plätzen besetzt; erst beitreten oder addbot
error-deal-running = ein Spiel läuft
error-no-deal = kein Spiel läuft; mit start wird gegeben
error-sitting-out = du setzt dieses Spiel aus (du gibst)
error-not-admin = das dürfen nur die Admins des Kanals
error-not-at-table = das dürfen nur die Spieler an diesem Tisch und die Admins des Kanals; erst beitreten
error-in-channel = das geht nur im Kanal des Tisches, nicht per Direktnachricht
error-session-open = eine Liste läuft; ihre Spieler behalten ihre Plätze bis zu ihrem Ende (ein Admin kann sie mit reset beenden)
error-no-session = keine Liste läuft
error-no-such-player = niemand an diesem Tisch heißt { $name }
error-no-computer = kein solcher Computerspieler an diesem Tisch
error-computer-plays = ein Computer spielt deinen Platz; mit „übernehmen“ bist du wieder dran
error-not-away = du bist nicht weg
error-already-watching = du schaust an diesem Tisch schon zu
error-not-watching = du schaust an diesem Tisch nicht zu
error-too-many-spectators = an diesem Tisch schauen schon { $n } Leute zu
error-no-such-spectator = niemand namens { $name } schaut hier zu (erst zuschauen)
error-ambiguous-spectator = mehrere Zuschauer heißen { $name }: bitte per Erwähnung nennen
error-kiebitz-taken = { $name } sieht schon die Karten eines anderen Spielers
error-no-kiebitz = niemand sieht deine Karten
error-forced = dieses Spiel ist ein Pflichtsolo (Vorführen): { $why ->
    [you-must-bid-solo] du musst ein Solo ansagen
   *[only-forced-bids] nur der Vorgeführte meldet ein Solo; sag gesund
}
error-session-over = die Liste ist zu Ende
error-no-record = kein Protokoll Nummer { $n }
error-no-analysis = { $n ->
    [0] du hast keins der letzten { $kept } Spiele hier gespielt; analyse sieht sich die an
   *[other] du hast Spiel { $n } hier nicht gespielt, oder es ist keins der letzten { $kept }
}
error-no-coach = an diesem Tisch gibt es keinen Coach: ein Admin schaltet ihn mit rules set coach on ein (ab dem nächsten Spiel)
hint-card = Coach: spiel { $card }: { $why }.
hint-choice = Coach: { $choice }: { $why }.
hint-why-pull-trumps = Trumpf ziehen, um die Trümpfe der anderen herauszuholen
hint-why-lead-ace = das Ass bringen, solange die Farbe noch läuft
hint-why-lead-suit = eine Fehlfarbe anspielen
hint-why-save-fox = den Fuchs retten: deine Partei bekommt den Stich
hint-why-smear = schmieren: deine Partei bekommt den Stich
hint-why-follow = bedienen
hint-why-ruff = stechen: du kannst nicht bedienen
hint-why-discard = abwerfen: du kannst nicht bedienen
hint-why-chance = deine Partei hat damit { $percent } % von { $deals } simulierten Spielen gewonnen
analysis-head = Analyse von Spiel { $record } (deine { $examined } Entscheidungen, wie ein starker Spieler sie aus deiner damaligen Sicht sieht):
analysis-finding = Stich { $trick }: { $played } statt { $better } kostete etwa { $cost } Punkte
analysis-call = Stich { $trick }: { $said ->
    [yes] die Ansage { $call }
   *[no] { $call } nicht anzusagen
} kostete etwa { $cost } Punkte
analysis-bid = Vorbehalt: { $made } statt { $better } kostete etwa { $cost } Punkte
analysis-answer = Armut: { $taken ->
    [yes] sie anzunehmen statt abzulehnen
   *[no] sie abzulehnen statt anzunehmen
} kostete etwa { $cost } Punkte
analysis-exchange = Armut: { $step ->
    [give] { $made } abzugeben statt { $better }
   *[return] { $made } zurückzugeben statt { $better }
} kostete etwa { $cost } Punkte
analysis-none = Analyse von Spiel { $record }: keine deiner { $examined } Entscheidungen hat klar Punkte gekostet.
analysis-nothing = Analyse von Spiel { $record }: du hattest keine Entscheidung mit einer Wahl, die sich prüfen lässt.
error-damaged = das gespeicherte Spiel ist beschädigt: { $why }
no-such-record = kein solches Protokoll
no-cards = du hast gerade keine Karten
stale-hand = Dieses Blatt war veraltet (das Spiel ist weiter); hier ist dein aktuelles.
already-done = schon erledigt
unreachable = Ich kann dir keine privaten Nachrichten schicken (Direktnachrichten geschlossen oder kein Direktraum); mit blatt siehst du deine Karten.
unavailable = Der Tisch ist gerade nicht erreichbar; versuch es gleich noch einmal.
restarting = doko startet gerade neu (Update oder Umzug): dein Befehl wurde nicht ausgeführt. Versuch es in einer Minute noch einmal; jeder Tisch bleibt erhalten.
rate-limited = Bitte etwas langsamer: zu viele Befehle in kurzer Zeit. In ein paar Sekunden antworte ich wieder.
table-damaged = Der gespeicherte Stand dieses Tisches ist nicht lesbar, daher kann er nicht weitergehen. Er wurde für den Betreiber des Bots zur Prüfung beiseitegelegt ({ $id }). Ein Admin kann mit neustart (oder reset) den Tisch neu beginnen (Plätze, Regeln und Punkteliste beginnen von vorn).
table-damaged-reset = Der Tisch beginnt von vorn; sein unlesbarer Stand bleibt für den Betreiber des Bots beiseitegelegt ({ $id }). Setzt euch mit beitreten wieder hin.
table-newer = Dieser Tisch wurde von einer neueren doko-Version gespeichert; dieser Bot muss erst aktualisiert werden, bevor der Tisch weitergehen kann. Es wurde nichts verändert.

## Befehle: was ein Befehl erwartet, und seine Hilfe

parse-empty = leerer Befehl; siehe hilfe
parse-too-long = Das ist zu lang für einen Befehl (höchstens { $max } Zeichen); siehe hilfe
parse-unknown = unbekannter Befehl „{ $word }“; siehe hilfe
parse-missing = { $command }: es fehlt { $what }
parse-bad = { $command }: „{ $arg }“ verstehe ich nicht; erwartet: { $expected }
parse-too-many = { $command }: zu viele Angaben („{ $extra }“)
expected = { $type ->
    [card] eine Karte (z. B. CQ, H10, ♣Q, kreuz dame)
    [cards] mindestens eine Karte (z. B. C9 S9 H9)
    [call] eine Ansage (re, kontra, keine 90, keine 60, keine 30, schwarz)
    [declaration] was du sagst (halbes hähnchen, schweinchen, superschweinchen)
    [bid] ein Vorbehalt (gesund, hochzeit, armut, schmeißen, solo ART)
    [level] eine Stufe (einfach, stark, experte, uct, zufall)
    [lang] eine Sprache (en, de)
    [on-off] an oder aus
    [policy] vertreten oder abbrechen
    [style] text oder bilder
    [period] alle oder monat
    [number] eine Zahl
    [rule-key] ein Regelname (siehe regeln)
    [rule-value] ein Wert
    [preset] ein Regelsatz (ddv, casual, sharp, freedoko)
    [step] gib, annehmen, ablehnen oder zurück
    [topic] ein Befehl
    [player] ein Spieler (eine Erwähnung oder der Name am Tisch)
    [code] ein Verknüpfungscode (8 Buchstaben und Ziffern, von `link`)
   *[subcommand] zeigen, setzen, vorlage oder zurücksetzen
}
level = { $level ->
    [basic] einfach (Konventionen)
    [strong] stark (sucht)
    [expert] experte (sucht tiefer)
    [uct] uct (Baumsuche, ein Maßstab)
   *[random] zufällig
}
language = { $lang ->
    [en] English
   *[de] Deutsch
}
policy = { $policy ->
    [standin] ein Computer springt ein
   *[abort] das Spiel abbrechen
}
step = { $step ->
    [give] Karten abgeben
    [accept] annehmen
    [decline] ablehnen
   *[return] Karten zurückgeben
}
help-unknown-topic = kein Befehl „{ $topic }“; hilfe zeigt alle
help-heading = Befehle:
help-admin-mark = (Admins)
help-join = am Tisch dieses Kanals Platz nehmen
help-leave = den Tisch verlassen (nicht während eines Spiels: weg)
help-start = geben, sobald vier (oder fünf) sitzen
help-addbot = einen Computerspieler hinsetzen
help-away = einen Computer für dich spielen lassen, bis du zurück bist
help-back = deinen Platz vom Computer zurücknehmen
help-hand = dein Blatt zeigen (nur für dich)
help-hint = wenn du dran bist, den Coach fragen (Regel coach): was der Experte tun würde, nur für dich
help-bid = Vorbehalt: gesund, hochzeit, armut, schmeißen oder solo karo/herz/pik/kreuz/damen/buben/fleischlos
help-play = eine Karte spielen: CQ, H10, ♣Q, ♥10, kreuz dame, herz zehn (oder nur die Karte)
help-announce = für deine Partei ansagen: re, kontra, keine 90, keine 60, keine 30, schwarz
help-say = sagen, was die Hausregeln erlauben (halbes hähnchen: beide Karo-Zehnen)
help-genscher = Genscher (Hausregel): ersten Karo-König spielen und einen Partner wählen
help-poverty = der Armut-Tausch (armut allein ist der Vorbehalt)
help-table = den Tisch zeigen
help-watch = zuschauen, ohne mitzuspielen
help-unwatch = nicht mehr zuschauen
help-kiebitz = einen Zuschauer in deine Karten schauen lassen (Kiebitz); ohne Namen: beenden
help-lasttrick = der letzte Stich: wer welche Karte gespielt und wer ihn bekommen hat
help-score = die Spielliste zeigen
help-record = das Protokoll (doko-record/1) des letzten oder des N-ten Spiels
help-stats = Statistik der Spieler in diesem Kanal
help-list = die laufende Liste (Nummer, Spiele, Abrechnung) oder Liste N der hier aufbewahrten
help-leaderboard = die Rangliste der Spieler dieses Servers über alle Kanäle (insgesamt oder diesen Monat)
help-me = deine Zahlen auf diesem Server, dein Rang und deine letzten Listen (privat)
help-analysis = welche deiner Entscheidungen im letzten oder N-ten Spiel Punkte kosteten (privat)
help-server-show = die Hausregeln und woher jede kommt (Kanal, Server, Standard)
help-server-set = eine Hausregel für alle Kanäle dieses Servers oder Space setzen
help-server-preset = ein Regelsatz für alle Kanäle dieses Servers oder Space
help-server-lang = die Sprache aller Kanäle dieses Servers oder Space
help-server-policy = die Regel bei Zeitüberschreitung für alle Kanäle dieses Servers oder Space
help-server-reset = die Vorgaben des Servers löschen (Kanäle behalten, was sie selbst setzen)
help-rules-show = die Hausregeln zeigen
help-rules-set = eine Hausregel ändern; sie gilt ab dem nächsten Spiel
help-rules-preset = einen Regelsatz wählen
help-rules-reset = zurück zu den Vorgaben des Servers (sonst den DDV-Regeln)
help-lang = die Sprache des Kanals
help-dm = dein Blatt auch als Direktnachricht (Discord; Direktnachrichten müssen offen sein)
help-cards = Karten als Text oder als Bilder zeigen (der Text bleibt dabei)
help-link = den Tisch mit einem Kanal einer anderen Plattform teilen (Einmalcode; dort `link CODE`)
help-unlink = den Tisch nicht mehr mit dem verknüpften Kanal teilen (dessen Spieler gehen mit)
help-web-show = die Adresse der Webseiten dieses Tischs: Listen, Verlauf, fertige Spiele
help-web-renew = eine neue Adresse für die Webseiten; alle alten Links gehen nicht mehr
help-policy = wenn die Zeit (turn_timeout) abläuft: ein Computer springt ein, oder das Spiel endet
help-removebot = einen Computerspieler entfernen (den letzten, oder nach Name)
help-kick = jemanden vom Tisch nehmen; ein Computer spielt den Platz bis zum Ende des Spiels
help-abort = das laufende Spiel abbrechen (es zählt nicht; das Protokoll sagt abgebrochen)
help-reset = die Liste beenden; sie bleibt gespeichert
help-pause = die Zeit anhalten
help-resume = die Zeit wieder laufen lassen
help-help = diese Hilfe, oder die eines Befehls
slash-public = Doppelkopf am Tisch dieses Kanals
slash-lists = Listen, Ranglisten und Statistik dieses Servers
slash-admin = Hausregeln, Sprache, Zeitlimit und Moderation dieses Kanals und Servers (Admins)

## Was der Bot um die Befehle herum sagt

dm-on = Dein Blatt kommt auch als Direktnachricht.
dm-off = Keine Direktnachrichten mehr.
resuming = Die Liste geht weiter.
welcome-computers = Ein Doppelkopf-Tisch: du und drei Computerspieler. Mit hilfe siehst du die Befehle.
terminal-welcome = doko im Terminal; quit (oder das Ende der Eingabe) beendet, der Tisch bleibt gespeichert.
terminal-bye = Tschüss. Der Tisch ist gespeichert; starte doko wieder, um weiterzuspielen.
store-waiting = Ich warte darauf und versuche es weiter.
terminal-waiting = Ich warte darauf und versuche es weiter (Strg-C bricht ab).
terminal-store-back = Der Tisch ist wieder da.
several-tables = Du sitzt an mehreren Tischen:
several-tables-hint = Beginne den Befehl mit der Nummer des Tisches, z. B. `1: spiele ♣Q`.
no-table = Du sitzt an keinem Tisch. Lade mich in einen Raum ein und schreibe dort `{ $prefix } join`.
undecryptable = Ich konnte deine Nachricht nicht entschlüsseln (Schlüssel fehlen); bitte schick sie noch einmal.
refused-not-admin = nur Mitglieder mit der Berechtigung „Server verwalten“ (Manage Server) dürfen die Hausregeln ändern
refused-no-subcommand = /{ $command } braucht einen Unterbefehl
refused-unknown-command = unbekannter Befehl /{ $command }
refused-unknown-button = dieser Knopf gehört nicht zu doko
refused-unsupported = diese Art von Interaktion nutzt doko nicht

## Listen, Ranglisten, Vorgaben des Servers

period = { $period ->
    [month] diesen Monat
   *[all] insgesamt
}
list-heading = Liste { $number } ({ $progress }, { $state ->
    [over] beendet
   *[open] läuft
}, begonnen { $date }):
list-progress-of = { $played } von { $length } Spielen
list-progress = { $played ->
    [one] 1 Spiel
   *[other] { $played } Spiele
}
list-kept = Hier aufbewahrte Listen: { $numbers } (liste N zeigt eine)
leaderboard-heading = Rangliste { $scope ->
    [server] dieses Servers ({ $channels ->
        [one] 1 Kanal
       *[other] { $channels } Kanäle
    })
   *[channel] dieses Kanals
}, { $period ->
    [all] insgesamt
   *[other] diesen Monat ({ $period })
}; nur Menschen:
leaderboard-empty = Noch kein Spiel abgerechnet.
leaderboard-rate = Quote
leaderboard-solos-won = Soli gew.
me-none = Du hast { $scope ->
    [server] auf diesem Server
   *[channel] in diesem Kanal
} noch kein Spiel gespielt.
me-heading = { $name } { $scope ->
    [server] auf diesem Server
   *[channel] in diesem Kanal
}:
me-line = { $period ->
    [all] Insgesamt
   *[other] Diesen Monat ({ $period })
}: { $points } Punkte, { $deals ->
    [one] 1 Spiel
   *[other] { $deals } Spiele
}, { $won } gewonnen ({ $rate }), Soli { $solos_won } von { $solos } gewonnen; Platz { $rank } von { $of }
me-lists = Deine letzten Listen:
me-list = Liste { $number } in { $channel } ({ $date }): { $deals ->
    [one] 1 Spiel
   *[other] { $deals } Spiele
}, { $points } Punkte, Platz { $place } von { $of }
me-here = diesem Kanal
rules-source = { $source ->
    [server] Server
    [channel] Kanal
   *[default] Standard
}
rules-lang-policy = Sprache { $lang } ({ $lang_from }), bei Zeitüberschreitung { $policy } ({ $policy_from })
error-no-list = { $n ->
    [0] Noch keine Liste: starte eine.
   *[other] Liste Nummer { $n } ist hier nicht aufbewahrt.
}
error-no-server = Dieser Kanal gehört zu keinem Server oder Space (eine Direktnachricht auch nicht): setze die Regeln dieses Kanals.
error-not-server-admin = Nur die Admins dieses Servers oder Space dürfen seine Vorgaben ändern.
error-no-link-code = Diesen Verknüpfungscode gibt es nicht: er ist falsch, schon benutzt oder älter als 10 Minuten. Hol dir mit `link` an dem Tisch, der geteilt werden soll, einen neuen.
error-link-same-platform = Ein Tisch wird mit einem Kanal je Plattform geteilt, auf einer anderen als seiner eigenen.
error-linked-elsewhere = Dieser Kanal teilt sich schon einen Tisch: erst `unlink`.
error-not-linked = Dieser Tisch wird mit keinem anderen Kanal geteilt.
link-code = Verknüpfungscode { $code } (gültig { $minutes } Minuten): ein Admin eines Kanals auf einer anderen Plattform schreibt dort `link { $code }`, und jener Kanal teilt sich diesen Tisch.
link-done = Dieser Kanal teilt sich seinen Tisch jetzt mit { $other }: setzt euch hier oder dort hin, es ist ein Tisch.
link-ended = Dieser Kanal teilt sich seinen Tisch nicht mehr mit { $other }.
link-channel = { $platform ->
    [discord] dem Discord-Kanal { $id }
    [matrix] dem Matrix-Raum { $id }
   *[other] { $id }
}
event-server-changed = { $name } hat die Vorgaben dieses Servers geändert: { $change } ({ $channels ->
    [one] 1 Kanal
   *[other] { $channels } Kanäle
}, wo ein Kanal es nicht selbst setzt; Hausregeln ab dem nächsten Spiel).
web-off = Dieser Host zeigt keine Webseiten (sein `web.url` ist nicht gesetzt).
web-show = Dieser Tisch im Web: { $url }
web-renewed = Die Webseiten des Tischs haben eine neue Adresse: { $url } (die alten Links gehen nicht mehr).
web-deal-link = Dieses Spiel im Web: { $url }
web-list-link = Im Web: { $url }
web-page-title = Doppelkopf: Liste { $number }
web-list-heading = Liste { $number }
web-list-state = { $played ->
    [one] 1 Spiel
   *[other] { $played } Spiele
}, { $state ->
    [over] beendet
   *[open] läuft
}, begonnen { $date }
web-lists = Listen
web-leaderboard = Rangliste
web-chart = Der Spielstand nach jedem Spiel
web-chart-after = Nach Spiel { $deal }: { $scores }
web-col-deal = Spiel
web-col-contract = Spielart
web-col-declarer = Spieler
web-col-winner = Gewonnen
web-col-value = Wert
web-col-marks = Vermerke
web-totals = Summe
web-winner-re = Re
web-winner-kontra = Kontra
web-winner-none = niemand
web-mark-solo = Solo
web-mark-duty = Pflichtsolo
web-deal-title = Doppelkopf: Spiel { $record }
web-deal-heading = Spiel { $deal } der Liste { $list }: { $contract }
web-deal-plain = Spiel (Protokoll { $record }): { $contract }
web-hands = Die Blätter, wie gegeben
web-dealer = gibt
web-tricks = Die Stiche
web-trick = Stich { $n }
web-trick-won = an { $name } ({ $points } Augen)
web-announced = { $name } sagt { $call } an
web-step-first = Anfang
web-step-prev = Zurück
web-step-next = Nächste Karte
web-step-last = Ende
web-step-help = Weiter mit den Knöpfen oder den Pfeiltasten (Pos1 und Ende springen).
web-result = { $winner } gewinnt mit { $re } zu { $kontra } Augen; Spielwert { $value }.
web-board-all = Insgesamt
web-board-month = Dieser Monat ({ $month })
web-board-scope = { $server ->
    [yes] alle Tische dieses Servers oder Spaces
   *[no] dieser Tisch
}
web-col-place = Platz
web-col-name = Spieler
web-col-points = Punkte
web-col-deals = Spiele
web-col-won = Gewonnen
web-seat = Platz { $n }
