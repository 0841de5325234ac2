#!/usr/bin/env python3
"""Checks a tree's includes against the graph of its folders (docs/architecture.md).

Usage: include-graph.py GRAPH [ROOT]   check the tree GRAPH names under ROOT (default: the
                                       repository holding this script); ctest runs it
       include-graph.py --self-test    show that it fails where it must, on a tree it makes

GRAPH is a small data file: `tree DIR` (the tree, from ROOT), then one line a folder of it,
`FOLDER: FOLDER...`, naming the folders it uses; '#' starts a comment. Two more lines may say
`generated PATTERN...`: headers of the tree that the build writes (shell patterns of the
include's path), in the folder `generated`, which a folder's line names to use them; and
`unused-by DIR...`: trees from ROOT that include nothing of this one. A file may include the
headers of its own folder, of the folders its folder uses and, in turn, of the folders those
use; nothing else of the tree. A subfolder is a folder of its own, and a file at the top of the
tree is in the folder `.`. Every `#include "DIR/..."` of every C++ file under DIR is checked:
each forbidden one is printed as FILE:LINE with the edge it takes, and so is any cycle, in the
graph or among the files' includes. Every folder of the tree must be in the graph and every
folder of the graph (but `generated`) in the tree. Exits 1 on any of these, 2 on a graph it cannot read.
"""
import fnmatch
import os
import re
import sys
import tempfile

SOURCES = (".c", ".cc", ".cpp", ".h", ".hpp")


class GraphError(Exception):
    """A graph file that cannot be read: exit 2."""


GENERATED = "generated"


class Graph:
    """A graph file read: the tree, {folder: [folders it uses]} in the file's order, the
    patterns of the generated headers and the trees that use nothing of this one."""

    def __init__(self):
        self.tree, self.uses, self.generated, self.unused_by = None, {}, [], []

    def folder_of(self, header):
        """The folder of an included header: `generated` when a pattern names it."""
        if any(fnmatch.fnmatchcase(header, p) for p in self.generated):
            return GENERATED
        return folder_of(header, self.tree)


def read_graph(path):
    """The Graph of the file at path."""
    graph = Graph()
    tree, uses = None, graph.uses
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            where = f"{path}:{number}"
            word, _, rest = line.partition(" ")
            if word == "tree" and tree is None:
                tree = rest.strip().rstrip("/")
            elif word == "generated" and rest.strip():
                graph.generated += rest.split()
                uses[GENERATED] = []
            elif word == "unused-by" and rest.strip():
                graph.unused_by += [d.rstrip("/") for d in rest.split()]
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
    graph.tree = tree
    return graph


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


def sources_under(root, tree):
    """Every C++ file under root/tree, as a path from root, in a stable order."""
    files = []
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, tree)):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(SOURCES):
                files.append(os.path.relpath(os.path.join(dirpath, name), root))
    return files


def includes_of(root, path, tree):
    """(line number, header) for each `#include "TREE/..."` of the file."""
    include = re.compile(r'^\s*#\s*include\s*"(' + re.escape(tree) + r'/[^"]+)"')
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as text:
        for number, line in enumerate(text, 1):
            m = include.match(line)
            if m:
                yield number, m.group(1)


def check_unused_by(graph, graph_name, root):
    """The includes of the tree from the trees that must use nothing of it."""
    problems = []
    for other in graph.unused_by:
        for f in sources_under(root, other):
            for number, header in includes_of(root, f, graph.tree):
                problems.append(f"{f}:{number}: includes {header}, but {other} uses nothing of "
                                f"{graph.tree} ({graph_name})")
    return problems


def judge(graph, may, graph_name, f, header):
    """What is wrong with file f including header, or None."""
    tree, uses = graph.tree, graph.uses
    here, there = folder_of(f, tree), graph.folder_of(header)
    if here not in uses or there == here:
        return None
    if there not in uses:
        return f"includes {header}, in {tree}/{there}, which is not in the graph ({graph_name})"
    if there not in may[here]:
        allowed = " ".join(sorted(may[here])) or "nothing but itself"
        return (f"includes {header}, but {tree}/{here} may not use {tree}/{there} "
                f"({tree}/{here} may use: {allowed}; {graph_name})")
    return None


def check(graph_path, root):
    """The problems of the tree under root, one line each."""
    graph = read_graph(graph_path)
    tree, uses = graph.tree, graph.uses
    graph_name = os.path.relpath(graph_path, root)
    cycle = find_cycle(uses)
    if cycle:
        return [f"{graph_name}: the graph has a cycle: " + " -> ".join(cycle)]
    problems = check_unused_by(graph, graph_name, root)
    may = reachable(uses)
    files = sources_under(root, tree)
    folders = {folder_of(f, tree) for f in files}
    for folder in sorted(folders - set(uses)):
        problems.append(f"{tree}/{folder} is not in the graph ({graph_name})")
    for folder in sorted(set(uses) - folders - {GENERATED}):
        if not os.path.isdir(os.path.join(root, tree, folder)):
            problems.append(f"{graph_name}: {tree}/{folder} is in the graph but not in the tree")
    includes = {}
    for f in files:
        includes[f] = []
        for number, header in includes_of(root, f, tree):
            includes[f].append(header)
            problem = judge(graph, may, graph_name, f, header)
            if problem:
                problems.append(f"{f}:{number}: {problem}")
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
        ("a generated header its folder uses", graph + "generated t/*_digest.hpp\ndig: generated\n",
         {**good, "t/dig/h.cpp": '#include "t/code_digest.hpp"\n'}, ""),
        ("a generated header its folder does not use", graph + "generated t/*_digest.hpp\n",
         {**good, "t/low/h.cpp": '#include "t/code_digest.hpp"\n'},
         "t/low/h.cpp:1: includes t/code_digest.hpp, but t/low may not use t/generated"),
        ("an include from a tree that uses nothing of it", graph + "unused-by u\n",
         {**good, "u/x.cpp": '\n\n#include "t/low/a.hpp"\n'},
         "u/x.cpp:3: includes t/low/a.hpp, but u uses nothing of t"),
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
