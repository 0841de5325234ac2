#!/usr/bin/env python3
"""Checks a tree's includes against the graph of its folders (README "Architecture").

Usage: include-graph.py GRAPH [ROOT]   check the tree GRAPH names under ROOT (default: the
                                       repository holding this script); ctest runs it
       include-graph.py --self-test    show that it fails where it must, on a tree it makes

GRAPH is a small data file: `tree DIR` (the tree, from ROOT), then one line a folder of it,
`FOLDER: FOLDER...`, naming the folders it uses; '#' starts a comment. A file may include the
headers of its own folder, of the folders its folder uses and, in turn, of the folders those
use; nothing else of the tree. A subfolder is a folder of its own, and a file at the top of the
tree is in the folder `.`. Every `#include "DIR/..."` of every C++ file under DIR is checked:
each forbidden one is printed as FILE:LINE with the edge it takes, and so is any cycle, in the
graph or among the files' includes. Every folder of the tree must be in the graph and every
folder of the graph in the tree. Exits 1 on any of these, 2 on a graph it cannot read.
"""
import os
import re
import sys
import tempfile

SOURCES = (".c", ".cc", ".cpp", ".h", ".hpp")


class GraphError(Exception):
    """A graph file that cannot be read: exit 2."""


def read_graph(path):
    """(tree, {folder: [folders it uses]}), in the file's order."""
    tree, uses = None, {}
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            where = f"{path}:{number}"
            if line.startswith("tree ") and tree is None:
                tree = line.split(None, 1)[1].strip().rstrip("/")
            elif ":" in line:
                folder, _, rest = line.partition(":")
                folder = folder.strip().rstrip("/")
                if folder in uses:
                    raise GraphError(f"{where}: {folder} has a line already")
                uses[folder] = [u.rstrip("/") for u in rest.split()]
            else:
                raise GraphError(f"{where}: neither `tree DIR` nor `FOLDER: FOLDER...`: {line}")
    if tree is None:
        raise GraphError(f"{path}: no `tree DIR` line")
    for folder, used in uses.items():
        for u in used:
            if u not in uses:
                raise GraphError(f"{path}: {folder} uses {u}, which has no line of its own")
    return tree, uses


def find_cycle(edges):
    """A cycle of the directed graph {node: [nodes]} as a list of nodes, first = last, or None."""
    state, path = {}, []

    def visit(node):
        state[node] = "open"
        path.append(node)
        for nxt in edges.get(node, ()):
            if state.get(nxt) == "open":
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        state[node] = "done"
        path.pop()
        return None

    for node in sorted(edges):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def reachable(uses):
    """{folder: every folder it may include}: what it uses, and what those may include."""
    out = {}

    def of(folder):
        if folder not in out:
            out[folder] = set()
            for u in uses[folder]:
                out[folder] |= {u} | of(u)
        return out[folder]

    for folder in uses:
        of(folder)
    return out


def folder_of(path, tree):
    """story/time/film_time.hpp -> time; story/x.hpp -> '.'."""
    return os.path.dirname(os.path.relpath(path, tree)) or "."


def check(graph_path, root):
    """The problems of the tree under root, one line each."""
    tree, uses = read_graph(graph_path)
    graph_name = os.path.relpath(graph_path, root)
    problems = []
    cycle = find_cycle(uses)
    if cycle:
        return [f"{graph_name}: the graph has a cycle: " + " -> ".join(cycle)]
    may = reachable(uses)
    files = []
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, tree)):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(SOURCES):
                files.append(os.path.relpath(os.path.join(dirpath, name), root))
    folders = {folder_of(f, tree) for f in files}
    for folder in sorted(folders - set(uses)):
        problems.append(f"{tree}/{folder} is not in the graph ({graph_name})")
    for folder in sorted(set(uses) - folders):
        if not os.path.isdir(os.path.join(root, tree, folder)):
            problems.append(f"{graph_name}: {tree}/{folder} is in the graph but not in the tree")
    include = re.compile(r'^\s*#\s*include\s*"(' + re.escape(tree) + r'/[^"]+)"')
    includes = {}
    for f in files:
        includes[f] = []
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as text:
            for number, line in enumerate(text, 1):
                m = include.match(line)
                if not m:
                    continue
                header = m.group(1)
                includes[f].append(header)
                here, there = folder_of(f, tree), folder_of(header, tree)
                if here not in uses or there == here:
                    continue
                if there not in uses:
                    problems.append(f"{f}:{number}: includes {header}, in {tree}/{there}, "
                                    f"which is not in the graph ({graph_name})")
                elif there not in may[here]:
                    allowed = " ".join(sorted(may[here])) or "nothing but itself"
                    problems.append(f"{f}:{number}: includes {header}, but {tree}/{here} may not "
                                    f"use {tree}/{there} ({tree}/{here} may use: {allowed}; "
                                    f"{graph_name})")
    cycle = find_cycle({f: [h for h in hs if h in includes] for f, hs in includes.items()})
    if cycle:
        problems.append("an include cycle: " + " -> ".join(cycle))
    return problems


def self_test():
    """The checker passes a tree that keeps its graph and fails each way one may break it."""
    def run(graph, files):
        with tempfile.TemporaryDirectory() as root:
            with open(os.path.join(root, "graph"), "w", encoding="utf-8") as f:
                f.write(graph)
            for path, text in files.items():
                os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
                with open(os.path.join(root, path), "w", encoding="utf-8") as f:
                    f.write(text)
            return check(os.path.join(root, "graph"), root)

    graph = "tree t\nlow:\nmid: low  # a comment\nhigh: mid\n"
    good = {"t/low/a.hpp": "", "t/mid/b.hpp": '#include "t/low/a.hpp"\n',
            "t/high/c.cpp": '#include "t/low/a.hpp"\n#include "t/mid/b.hpp"\n'}
    upward = {**good, "t/low/d.cpp": '\n#include "t/mid/b.hpp"'}
    loop = {**good, "t/low/e.hpp": '#include "t/low/f.hpp"',
            "t/low/f.hpp": '#include "t/low/e.hpp"'}
    stray = {**good, "t/new/g.hpp": ""}
    cases = [
        ("a tree that keeps its graph", graph, good, ""),
        ("an include against the graph", graph, upward,
         "t/low/d.cpp:2: includes t/mid/b.hpp, but t/low may not use t/mid"),
        ("a cycle in the graph", "tree t\nlow: high\nmid: low\nhigh: mid\n", good,
         "the graph has a cycle: high -> mid -> low -> high"),
        ("a cycle among a folder's headers", graph, loop,
         "an include cycle: t/low/e.hpp -> t/low/f.hpp -> t/low/e.hpp"),
        ("a folder the graph lacks", graph, stray, "t/new is not in the graph"),
        ("a folder the tree lacks", graph + "gone: low\n", good, "t/gone is in the graph but not"),
    ]
    failed = 0
    for what, g, files, expected in cases:
        problems = run(g, files)
        ok = not problems if not expected else any(expected in p for p in problems)
        if not ok:
            failed += 1
            print(f"self-test: {what}: expected {expected or 'no problem'!r}, got {problems}")
    return 1 if failed else 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) not in (2, 3):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    here = os.path.dirname(os.path.abspath(argv[0]))
    root = argv[2] if len(argv) == 3 else os.path.dirname(here)
    try:
        problems = check(os.path.abspath(argv[1]), os.path.abspath(root))
    except (GraphError, OSError) as e:
        print(f"include-graph.py: {e}", file=sys.stderr)
        return 2
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
