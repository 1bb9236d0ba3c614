#!/usr/bin/env python3
"""Proxy benchmark of real-game `attack` / `defend` questions, judged against GNU Go.

The 31 regression problems are few; tactical questions in real games are many
and of every kind. This tool builds a larger benchmark from the regression
games (GNU Go's SGF files in ../shared/regression beside the repository, read
in place and never copied into it), runs tesuji on it and compares the answers.

    proxy.py gen OUT.tsv [--every 30]
        For every SGF under games/ and golois/ (sorted, so the set is
        deterministic) load the positions before moves 31, 61, ... (every
        `--every` moves) and the final position; in each, every block with 1
        to 3 liberties yields `attack V` and `defend V` (V = the block's first
        stone in `list_stones` order). GNU Go 3.8 (one GTP process per SGF file)
        answers them; OUT.tsv gets id, sgf (relative to the regression folder),
        move (the `loadsgf` move number, `-` for the whole game), command,
        vertex and GNU Go's answer.

    proxy.py run TAG BIN NODES [--ids FILE] [--time SECS] [--algo ALGO] [--questions Q.tsv]
        Runs tesuji binary BIN (under `nice -n 19`, one GTP process per SGF
        file, working directory the regression folder) after
        `tesuji-solver_limits nodes=NODES time=SECS algo=ALGO` (time 1000 by
        default, so that the node limit decides and results do not depend on
        the machine's load; algo `auto`, what `attack` and `defend` use, by
        default). Per question: `loadsgf`, the command, `tesuji-solver_stats`.
        Writes res-TAG.tsv next to the questions file: id, answer, nodes, ms.
        `--ids FILE` (one id a line) runs only those questions.

    proxy.py cmp TAG [TAG2]
        Summary of res-TAG.tsv against GNU Go: exact (same answer string),
        same verdict and ko code but another move, ko code differs (both
        succeed), win/loss disagreement, unknown (node limit), error, and the
        total nodes. With TAG2, the per-question transitions from TAG to TAG2
        (unknown->solved, solved->unknown, answer changed) with their ids.

The regression folder defaults to ../shared/regression beside the repository
(`--root`), the questions file to target/proxy/questions.tsv (`--questions`;
results go next to it, outside version control);
GNU Go's reading is heuristic, tesuji's answers claim proofs, so a
disagreement is a question to look at, not necessarily tesuji's error.
Python 3.11, standard library only.
"""

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ROOT = REPO.parent / "shared" / "regression"
GNUGO = ["/usr/games/gnugo", "--mode", "gtp"]
DEFAULT_QUESTIONS = REPO / "target" / "proxy" / "questions.tsv"
QUESTION_FIELDS = ["id", "sgf", "move", "command", "vertex", "gnugo"]


class Gtp:
    """One long-lived GTP engine; `ask` returns (ok, answer text)."""

    def __init__(self, argv, cwd):
        self.proc = subprocess.Popen(
            ["nice", "-n", "19", *argv],
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    def ask(self, command):
        try:
            self.proc.stdin.write(command + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            return False, "engine died"
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                return False, "engine died"
            line = line.rstrip("\r\n")
            if line == "" and lines:
                break
            if line == "" and not lines:
                continue
            lines.append(line)
        text = "\n".join(lines)
        ok = text.startswith("=")
        return ok, text[1:].strip()

    def close(self):
        try:
            self.ask("quit")
        finally:
            self.proc.kill()
            self.proc.wait()


def sgf_files(root):
    files = []
    for sub in ("games", "golois"):
        files += sorted((root / sub).rglob("*.sgf"))
    return [f.relative_to(root).as_posix() for f in files]


def loadsgf(sgf, move):
    return f"loadsgf {sgf}" if move == "-" else f"loadsgf {sgf} {move}"


def blocks(gtp, max_libs=3):
    """First stone of each block with 1..max_libs liberties, board order."""
    seen, out = set(), []
    for color in ("black", "white"):
        ok, stones = gtp.ask(f"list_stones {color}")
        if not ok:
            continue
        for v in stones.split():
            if v in seen:
                continue
            ok, worm = gtp.ask(f"worm_stones {v}")
            seen.update(worm.split() if ok else [v])
            ok, libs = gtp.ask(f"countlib {v}")
            if ok and 1 <= int(libs) <= max_libs:
                out.append(v)
    return out


def gen(args):
    root = Path(args.root)
    rows = []
    for sgf in sgf_files(root):
        gtp = Gtp(GNUGO, root)
        ok, _ = gtp.ask(f"loadsgf {sgf}")
        if not ok:
            print(f"{sgf}: loadsgf failed, skipped", file=sys.stderr)
            gtp.close()
            continue
        ok, history = gtp.ask("move_history")
        moves = len(history.splitlines()) if ok and history else 0
        positions = [str(n + 1) for n in range(args.every, moves, args.every)]
        positions.append("-")
        count = 0
        for move in positions:
            if not gtp.ask(loadsgf(sgf, move))[0]:
                print(f"{sgf} {move}: loadsgf failed, skipped", file=sys.stderr)
                continue
            for v in blocks(gtp):
                for cmd in ("attack", "defend"):
                    ok, answer = gtp.ask(f"{cmd} {v}")
                    if ok:
                        rows.append([sgf, move, cmd, v, answer])
                        count += 1
        gtp.close()
        print(f"{sgf}: {moves} moves, {len(positions)} positions, {count} questions",
              file=sys.stderr)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w") as f:
        f.write("\t".join(QUESTION_FIELDS) + "\n")
        for i, row in enumerate(rows, 1):
            f.write("\t".join([f"q{i:04d}", *row]) + "\n")
    print(f"{len(rows)} questions -> {args.out}", file=sys.stderr)


def read_tsv(path):
    with open(path) as f:
        header = f.readline().rstrip("\n").split("\t")
        return [dict(zip(header, line.rstrip("\n").split("\t"))) for line in f if line.strip()]


def result_path(questions, tag):
    return Path(questions).parent / f"res-{tag}.tsv"


def run(args):
    questions = read_tsv(args.questions)
    if args.ids:
        wanted = set(Path(args.ids).read_text().split())
        questions = [q for q in questions if q["id"] in wanted]
    by_sgf = {}
    for q in questions:
        by_sgf.setdefault(q["sgf"], []).append(q)
    out = result_path(args.questions, args.tag)
    bin_path = os.path.abspath(args.bin)
    start = time.time()
    done = 0
    with open(out, "w") as f:
        f.write("id\tanswer\tnodes\tms\n")
        for sgf, qs in by_sgf.items():
            gtp = None
            for q in qs:
                if gtp is None:
                    gtp = Gtp([bin_path], args.root)
                    limits = f"nodes={args.nodes} time={args.time} algo={args.algo}"
                    ok, text = gtp.ask(f"tesuji-solver_limits {limits}")
                    if not ok:
                        sys.exit(f"tesuji-solver_limits {limits}: {text}")
                answer, nodes, ms = "? loadsgf failed", "0", "0"
                ok, text = gtp.ask(loadsgf(sgf, q["move"]))
                if ok:
                    t0 = time.time()
                    ok, text = gtp.ask(f"{q['command']} {q['vertex']}")
                    ms = str(int((time.time() - t0) * 1000))
                    answer = text if ok else "? " + text
                    _, stats = gtp.ask("tesuji-solver_stats")
                    for field in stats.split():
                        if field.startswith("nodes="):
                            nodes = field[len("nodes="):]
                if text == "engine died":
                    gtp.close()
                    gtp = None
                f.write(f"{q['id']}\t{answer}\t{nodes}\t{ms}\n")
                f.flush()
                done += 1
            if gtp:
                gtp.close()
            print(f"{sgf}: {done}/{len(questions)} in {time.time() - start:.0f} s",
                  file=sys.stderr)
    print(f"-> {out}", file=sys.stderr)


def classify(gnugo, answer):
    """One of the summary classes for tesuji's answer against GNU Go's."""
    if answer.startswith("?"):
        return "unknown" if "unknown" in answer else "error"
    if answer == gnugo:
        return "exact"
    g, t = gnugo.split(), answer.split()
    if (g[0] == "0") != (t[0] == "0"):
        return "win/loss disagreement"
    if g[0] != t[0]:
        return "ko code differs"
    return "same verdict, other move"


CLASSES = ["exact", "same verdict, other move", "ko code differs",
           "win/loss disagreement", "unknown", "error"]


def solved(answer):
    return not answer.startswith("?")


def cmp(args):
    questions = {q["id"]: q for q in read_tsv(args.questions)}
    res = {r["id"]: r for r in read_tsv(result_path(args.questions, args.tag))}
    counts = {c: [] for c in CLASSES}
    for i, r in res.items():
        counts[classify(questions[i]["gnugo"], r["answer"])].append(i)
    nodes = sum(int(r["nodes"]) for r in res.values())
    ms = sum(int(r["ms"]) for r in res.values())
    print(f"{args.tag}: {len(res)} questions, {nodes:,} nodes, {ms / 1000:.1f} s")
    for c in CLASSES:
        print(f"  {c:28} {len(counts[c]):5}")
    # Unknowns split by GNU Go's verdict: proving a block safe (GNU Go `0`
    # to an attack) is a different search problem from finding a capture.
    for cmd in ("attack", "defend"):
        zero = sum(1 for i in counts["unknown"]
                   if questions[i]["command"] == cmd and questions[i]["gnugo"] == "0")
        total = sum(1 for i in counts["unknown"] if questions[i]["command"] == cmd)
        print(f"    unknown {cmd}: {total} (GNU Go 0: {zero}, succeeds: {total - zero})")
    if args.verbose:
        for c in CLASSES[1:]:
            for i in counts[c]:
                q = questions[i]
                print(f"{c}\t{i}\t{q['sgf']} {q['move']}\t{q['command']} {q['vertex']}"
                      f"\tgnugo={q['gnugo']}\ttesuji={res[i]['answer']}")
    if not args.tag2:
        return
    res2 = {r["id"]: r for r in read_tsv(result_path(args.questions, args.tag2))}
    moves = {"unknown->solved": [], "solved->unknown": [], "answer changed": [],
             "error changed": []}
    for i in sorted(set(res) & set(res2)):
        a, b = res[i]["answer"], res2[i]["answer"]
        if a == b:
            continue
        if not solved(a) and solved(b):
            moves["unknown->solved"].append(i)
        elif solved(a) and not solved(b):
            moves["solved->unknown"].append(i)
        elif solved(a):
            moves["answer changed"].append(i)
        else:
            moves["error changed"].append(i)
    common = set(res) & set(res2)
    n1 = sum(int(res[i]["nodes"]) for i in common)
    n2 = sum(int(res2[i]["nodes"]) for i in common)
    print(f"{args.tag} -> {args.tag2} on {len(common)} common questions: "
          f"nodes {n1:,} -> {n2:,}")
    for k, ids in moves.items():
        print(f"  {k:18} {len(ids):5}  {' '.join(ids)}")


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--root", default=str(ROOT), help="regression folder (SGF paths are relative)")
    p.add_argument("--questions", default=str(DEFAULT_QUESTIONS), help="questions TSV")
    sub = p.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen", help="generate questions with GNU Go's answers")
    g.add_argument("out")
    g.add_argument("--every", type=int, default=30, help="moves between positions")
    r = sub.add_parser("run", help="run tesuji on the questions")
    r.add_argument("tag")
    r.add_argument("bin")
    r.add_argument("nodes", type=int)
    r.add_argument("--ids", help="file of ids to run (one a line)")
    r.add_argument("--time", type=float, default=1000, help="solver time limit, seconds")
    r.add_argument("--algo", default="auto", help="solver algorithm (tesuji-solver_limits algo=)")
    c = sub.add_parser("cmp", help="compare a run with GNU Go (and another run)")
    c.add_argument("tag")
    c.add_argument("tag2", nargs="?")
    c.add_argument("-v", "--verbose", action="store_true", help="list every non-exact answer")
    args = p.parse_args()
    {"gen": gen, "run": run, "cmp": cmp}[args.cmd](args)


if __name__ == "__main__":
    main()
