#!/usr/bin/env python3
"""Play out a proxy question: tesuji's proven line against GNU Go's resistance.

Where tesuji and GNU Go disagree on a proxy question (`proxy.py cmp -v`,
"win/loss disagreement"), neither answer is ground truth: tesuji's claims a
proof, GNU Go's reading is heuristic. This tool gathers evidence. tesuji
plays the side it says wins, re-solving (`solve capture` or `solve escape`)
before each of its moves; GNU Go plays the other side with its own tactical
reading, its `defend` (or `attack`) move while it finds one, else its
`genmove`. Where tesuji proves the question's mover loses (`0` where GNU
Go finds a move), the roles swap: GNU Go plays its own answer first and
tesuji the other side. The line ends when the target is captured, when tesuji no longer
answers `win` (its proof did not survive a reply it had to refute: a sign of
a wrong proof, or only of the node limit), when the defender has escaped
(`win PASS` for `solve escape`), when GNU Go resigns, or after `--moves`
moves.

    playout.py ID BIN [--nodes N] [--moves M] [--questions Q.tsv] [--root DIR]

ID is a question id of the questions file (see proxy.py); BIN a tesuji
binary. The verdict line says whether tesuji's side reached its goal. A
held line is evidence, not a proof: GNU Go may have missed the best
resistance. Python 3.11, standard library only.
"""

import argparse
import sys
from pathlib import Path

from proxy import DEFAULT_QUESTIONS, GNUGO, ROOT, Gtp, loadsgf, read_tsv


def opposite(color):
    return "white" if color == "black" else "black"


def first_word_after_code(answer):
    """The move of a GNU Go `code move` answer, None for `0`."""
    words = answer.split()
    return words[1] if len(words) > 1 and words[0] != "0" else None


def playout(q, bin_path, root, nodes, max_moves):
    v = q["vertex"]
    attack = q["command"] == "attack"
    tesuji, gnugo = Gtp([bin_path], root), Gtp(GNUGO, root)
    try:
        for e in (tesuji, gnugo):
            ok, text = e.ask(loadsgf(q["sgf"], q["move"]))
            if not ok:
                return f"loadsgf failed: {text}"
        _, owner = gnugo.ask(f"color {v}")
        goal = "capture" if attack else "escape"
        ok, answer = tesuji.ask(f"solve {goal} {v} nodes={nodes} time=1000")
        print(f"  0 tesuji  solve {goal}: {answer}")
        # Where tesuji proves that the question's mover loses, it takes
        # the other side, and GNU Go, which says the mover wins, moves
        # first with its own answer.
        gnugo_first = answer.startswith("loss")
        if gnugo_first:
            attack = not attack
        elif not answer.startswith("win"):
            return "tesuji proves nothing at the root"
        mine = opposite(owner) if attack else owner
        theirs = opposite(mine)
        goal = "capture" if attack else "escape"
        # GNU Go resists with the opposite tactical command.
        resist = "defend" if attack else "attack"

        def gnugo_moves(ply):
            """GNU Go's reply; a verdict when the line ends with it."""
            ok, answer = gnugo.ask(f"{resist} {v}")
            reply = first_word_after_code(answer) if ok else None
            how = f"{resist} {answer}"
            if reply is None:
                ok, reply = gnugo.ask(f"genmove {theirs}")
                how = f"{resist} {answer}, genmove"
                if reply.lower() == "resign":
                    return "tesuji's line held: GNU Go resigned"
                # genmove has played it in GNU Go already.
                ok, text = tesuji.ask(f"play {theirs} {reply}")
            else:
                for e in (gnugo, tesuji):
                    ok, text = e.ask(f"play {theirs} {reply}")
            print(f"{ply:3} GNU Go  {how}: {theirs} {reply}")
            if not ok:
                return f"play {theirs} {reply} refused by tesuji: {text}"
            if not attack and gnugo.ask(f"color {v}")[1] == "empty":
                return "tesuji's line did not hold: the block was captured"
            return None

        if gnugo_first:
            verdict = gnugo_moves(0)
            if verdict is not None:
                return verdict
        for ply in range(max_moves):
            ok, answer = tesuji.ask(f"solve {goal} {v} nodes={nodes} time=1000")
            print(f"{ply + 1:3} tesuji  solve {goal}: {answer}")
            if not answer.startswith("win"):
                return "tesuji's line did not hold: no win proven after GNU Go's reply"
            move = answer.split()[1]
            if not attack and move == "PASS":
                return "tesuji's line held: the block has escaped"
            for e in (tesuji, gnugo):
                ok, text = e.ask(f"play {mine} {move}")
                if not ok:
                    return f"play {mine} {move} refused: {text}"
            if attack and gnugo.ask(f"color {v}")[1] == "empty":
                return f"tesuji's line held: {v} captured after {ply + 1} moves of tesuji"
            verdict = gnugo_moves(ply + 1)
            if verdict is not None:
                return verdict
        return f"undecided after {max_moves} moves of tesuji"
    finally:
        tesuji.close()
        gnugo.close()


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("id")
    p.add_argument("bin")
    p.add_argument("--nodes", type=int, default=10_000_000, help="tesuji's node limit per solve")
    p.add_argument("--moves", type=int, default=40, help="most moves of tesuji")
    p.add_argument("--questions", default=str(DEFAULT_QUESTIONS), help="questions TSV")
    p.add_argument("--root", default=str(ROOT), help="regression folder")
    args = p.parse_args()
    questions = {q["id"]: q for q in read_tsv(args.questions)}
    q = questions.get(args.id)
    if q is None:
        sys.exit(f"no question {args.id} in {args.questions}")
    print(f"{args.id}: {q['sgf']} {q['move']} {q['command']} {q['vertex']} (GNU Go: {q['gnugo']})")
    verdict = playout(q, str(Path(args.bin).resolve()), Path(args.root), args.nodes, args.moves)
    print(verdict)


if __name__ == "__main__":
    main()
