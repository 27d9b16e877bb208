"""README.md and docs/ stay inside the repository and point at what exists: every relative
Markdown link resolves to a file or folder of the repository (and its #anchor to a heading of
that page), every repository path named in code (`sim/svc/storage.cpp`, a command's
scenarios/paper/x.yaml) exists, placeholders such as models/<family>/ match at least one path,
no link leaves the repository (no URL, nothing above its root), nothing cites notes kept
outside it, every paper scenario has its results page and every phase kind that `llsim models`
lists its page, and the README has at most 250 lines."""
import glob
import os
import re

from harness import ROOT, check, finish, run

README_MAX_LINES = 250
# Top-level entries of the repository that a path in the text may start with.
TOP = ("sim", "models", "scenarios", "traces", "analysis", "tests", "docs", ".ci")
TOP_FILES = ("README.md", "CMakeLists.txt", ".clang-format")
# Notes outside the repository that no reader of it has.
OUTSIDE = re.compile(r"DESIGN\.md|REFERENCE\.md|(?<![\w-])shared/|/work/")
URL = re.compile(r"\b[a-z][a-z0-9+.-]*://", re.I)
FENCE = re.compile(r"^(```|~~~)")
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REF_LINK = re.compile(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
PATH = re.compile(r"(?<![\w./<>-])((?:%s)/[^\s`'\"(),;|]*|(?:%s)(?![\w.]))" %
                  ("|".join(re.escape(t) for t in TOP), "|".join(re.escape(f) for f in TOP_FILES)))


def pages():
    out = [os.path.join(ROOT, "README.md")]
    out += sorted(glob.glob(os.path.join(ROOT, "docs", "**", "*.md"), recursive=True))
    return out


def split_code(text):
    """(prose lines, code snippets): fenced and indented blocks and inline code spans."""
    prose, code, fenced = [], [], False
    for line in text.splitlines():
        if FENCE.match(line.strip()):
            fenced = not fenced
            continue
        if fenced or line.startswith("    ") or line.startswith("\t"):
            code.append(line)
            prose.append("")
            continue
        code += [m.group(2) for m in CODE_SPAN.finditer(line)]
        prose.append(CODE_SPAN.sub(" ", line))
    return prose, code


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = heading.strip().lower().replace("`", "")
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path):
    """Anchors of the page's headings; a heading's code spans keep their text (`ingest` -> ingest)."""
    found, counts, fenced = set(), {}, False
    for line in open(path, encoding="utf-8").read().splitlines():
        if FENCE.match(line.strip()):
            fenced = not fenced
            continue
        if fenced or line.startswith("    ") or line.startswith("\t"):
            continue
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        base = slug(m.group(1))
        n = counts.get(base, 0)
        counts[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    return found


def inside(path):
    root = os.path.realpath(ROOT)
    return os.path.commonpath([root, os.path.realpath(path)]) == root


def check_link(page, rel_page, target):
    if URL.match(target) or target.startswith("//") or target.lower().startswith("mailto:"):
        check(False, f"{rel_page}: link leaves the repository: {target}")
        return
    path, _, anchor = target.partition("#")
    resolved = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
    if not inside(resolved) or os.path.isabs(path):
        check(False, f"{rel_page}: link outside the repository: {target}")
        return
    exists = os.path.exists(resolved)
    check(exists, f"{rel_page}: broken link {target}")
    if not exists:
        return
    if anchor and resolved.endswith(".md"):
        check(anchor in anchors(resolved), f"{rel_page}: {target}: no heading with anchor #{anchor}")


def check_path(rel_page, word):
    word = word.rstrip(".:")
    if "<" in word or "*" in word:
        pattern = re.sub(r"<[^>]*>", "*", word)
        check(len(glob.glob(os.path.join(ROOT, pattern))) > 0, f"{rel_page}: no path matches `{word}`")
    else:
        check(os.path.exists(os.path.join(ROOT, word)), f"{rel_page}: `{word}` does not exist")


def check_page(page):
    rel_page = os.path.relpath(page, ROOT)
    text = open(page, encoding="utf-8").read()
    for m in OUTSIDE.finditer(text):
        check(False, f"{rel_page}: refers to notes outside the repository: {m.group(0)!r}")
    for m in URL.finditer(text):
        check(False, f"{rel_page}: a URL ({text[m.start():m.start() + 40]!r}): links stay in the repository")
    prose, code = split_code(text)
    for line in prose:
        for m in LINK.finditer(line):
            check_link(page, rel_page, m.group(1))
        m = REF_LINK.match(line)
        if m:
            check_link(page, rel_page, m.group(1))
    for snippet in code:
        for m in PATH.finditer(snippet):
            check_path(rel_page, m.group(1))


all_pages = pages()
check(len(all_pages) >= 20, f"README.md and docs/: only {len(all_pages)} pages")
for page in all_pages:
    check_page(page)

with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
    readme = f.read()
lines = readme.count("\n")
check(lines <= README_MAX_LINES, f"README.md has {lines} lines, more than {README_MAX_LINES}")
# One results page per paper scenario, linked from the README.
for scenario in sorted(glob.glob(os.path.join(ROOT, "scenarios", "paper", "*.yaml"))):
    name = os.path.splitext(os.path.basename(scenario))[0]
    page = f"docs/results/{name}.md"
    check(os.path.exists(os.path.join(ROOT, page)), f"scenarios/paper/{name}.yaml has no {page}")
    check(f"({page})" in readme, f"README.md does not link {page}")
# One page per registered phase kind, as `llsim models` lists them.
_, listing, _ = run("models")
phase_section = listing.split("Interface 'phase':", 1)[1].split("\nInterface ", 1)[0]
kinds = re.findall(r"^  ([a-z_]+): ", phase_section, re.M)
check(len(kinds) >= 7, f"llsim models lists the phase kinds: {kinds}")
for kind in kinds:
    page = f"docs/phases/{kind}.md"
    check(os.path.exists(os.path.join(ROOT, page)) and f"({page})" in readme, f"README.md does not link {page}")

# A key the docs call unread would be a parameter that changes no result, which llsim does not
# have (each declared key changes a result, and its test shows it): no page may say so. tdp, once
# called unread, prices energy (tests/llsim/test_accounting.py).
UNREAD = re.compile(r"no model reads (it|them)\b|nothing reads (it|them)\b|carried for a .* to come", re.I)
for page in all_pages:
    with open(page, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            check(not UNREAD.search(line), f"{os.path.relpath(page, ROOT)}:{number} calls a key unread: {line.strip()}")

finish()
