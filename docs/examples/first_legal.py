#!/usr/bin/env python3
"""A seat program in another language: the smallest one that follows the
seat protocol (docs/seat-protocol.md, version 1) from the events alone.

It keeps its hand from the `hand`, `play` and `genscher` events, never
reads the `view` line, and answers each `ask` with the cheapest card it may
play (by card points), else the first choice offered (healthy, no
announcement). It checks itself: a card offered that its hand does not hold
is answered with a card nobody holds (an illegal choice the manager
counts), and a scored deal that leaves it holding cards ends it. Run it against doko:

    doko arena --a "cmd:python3 docs/examples/first_legal.py" --b basic
"""
import sys

POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}


def points(card):
    return POINTS[card[1:]]


def main():
    seat, hand = None, []
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        verb = words[0]
        if verb == "doko-seat":
            if "1" not in words[1:]:
                print("error doko-seat 1 only", flush=True)
                return 1
            print("doko-seat 1 first-legal.py", flush=True)
        elif verb == "deal":
            seat, hand = int(words[1]), []
        elif verb == "hand":
            hand = [] if words[1] == "-" else words[1].split(",")
        elif verb == "play" and int(words[1]) == seat:
            hand.remove(words[2])
        elif verb == "genscher" and int(words[1]) == seat:
            hand.remove("DK")
        elif verb == "end" and words[1:2] != ["redeal"] and words[1:2] != ["aborted"] and hand:
            print("first_legal.py: the deal ended with %s in hand" % hand, file=sys.stderr)
            return 1
        elif verb == "ask":
            choices = words[1:]
            offered = [c[5:] for c in choices if c.startswith("play:")]
            if any(c not in hand for c in offered):
                print("play:XX", flush=True)
                continue
            cards = ["play:" + c for c in offered]
            if cards:
                answer = min(cards, key=lambda c: points(c[5:]))
            else:
                answer = choices[0]
            print(answer, flush=True)
        elif verb == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
