"""Size limits of the C++ code: no file in sim/ or models/ over 450 lines, no function over 80.

A function is counted from the first line of its signature to its closing brace: free and member
functions (defined in a class or outside it, constructors with their initialiser lists) and
lambdas assigned at namespace scope. Lambdas and local classes inside a function count as part
of it. The scanner strips comments, string and character literals (raw strings too) and
preprocessor lines before matching braces, so a brace in any of them does not count. It is
checked first on a sample whose functions are known, then run on the code; the longest
functions are printed. (The llsim binary, argv[1], is not used.)"""
import os
import re

from harness import ROOT, check, finish

MAX_FILE_LINES = 450
MAX_FUNCTION_LINES = 80
SOURCE_DIRS = ("sim", "models")


def strip(text):
    """`text` with comments, literals and preprocessor lines blanked out (newlines kept, so line
    numbers stay), a literal's quotes kept."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if i == 0 or text[i - 1] == "\n":
            first = i
            while first < n and text[first] in " \t":
                first += 1
            if first < n and text[first] == "#":  # a preprocessor line, with its continuations
                while i < n and text[i] != "\n":
                    if text.startswith("\\\n", i):
                        out.append("\n")
                        i += 1
                    i += 1
                continue
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", "", text[i:end]))
            i = end
            continue
        raw = RAW_STRING.match(text, i) if c in "uULR" else None
        if raw and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            close = ")" + raw.group(1) + '"'
            end = text.find(close, raw.end())
            end = n if end < 0 else end + len(close)
            out.append('""' + re.sub(r"[^\n]", "", text[i:end]))
            i = end
            continue
        if c == '"' or (c == "'" and not digit_separator(text, i)):
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


RAW_STRING = re.compile(r'(?:u8|[uUL])?R"([^()\\ ]{0,16})\(')


def digit_separator(text, i):
    """Whether the quote at i separates digits (1'000'000) rather than opening a character."""
    j = i
    while j > 0 and (text[j - 1].isalnum() or text[j - 1] in "'."):
        j -= 1
    return j < i and text[j].isdigit()


QUALIFIERS = r"(?:\s*(?:const|volatile|noexcept(?:\s*\([^()]*\))?|override|final|mutable|constexpr|&&|&))*"
FUNCTION_HEAD = re.compile(r"\)" + QUALIFIERS + r"\s*(?:->\s*[\w:<>,*&\s]+)?$")
LAMBDA_HEAD = re.compile(r"=\s*\[[^\]]*\]" + QUALIFIERS + r"\s*$")  # `= [&] {`, no parameter list
CTOR_INIT = re.compile(r"\)\s*(?:noexcept\s*)?:(?!:)")
CLASS_HEAD = re.compile(r"^(?:template\s*<.*>\s*)?(?:class|struct|union)\b[^()=]*$", re.S)
NAMESPACE_HEAD = re.compile(r"^(?:inline\s+)?namespace\b[^()=]*$|^extern\s*\"\"$")
ACCESS = re.compile(r"(?:(?:public|private|protected)\s*:(?!:)\s*)*")


def function_name(head):
    lam = re.match(r".*?([A-Za-z_]\w*)\s*=\s*\[", head, re.S)
    if lam:
        return lam.group(1)
    m = CTOR_INIT.search(head)
    if m:
        head = head[:m.start() + 1]
    head = re.sub(r"(?:->\s*[\w:<>,*&\s]+)$", "", head.rstrip())
    head = re.sub(QUALIFIERS + r"\s*$", "", head)
    depth, k = 0, len(head) - 1
    while k >= 0:  # back to the '(' of the parameter list
        depth += {")": 1, "(": -1}.get(head[k], 0)
        if depth == 0:
            break
        k -= 1
    m = re.search(r"(operator\s*(?:\(\)|[^\s(]+)|[\w:~]+)\s*$", head[:max(k, 0)])
    return m.group(1) if m else "?"


def functions(text):
    """(name, first line, last line) of every function in C++ `text`."""
    s = strip(text)
    found = []
    # Braces open a ("scope",) (a namespace or class: where functions are looked for), a
    # ("function", name, first line), an ("init",) (a member's braced initialiser in a
    # constructor's initialiser list) or a ("block",) (anything else).
    stack = [("scope",)]
    head_start = 0  # where the current declaration at this scope began
    line = 1
    for i, c in enumerate(s):
        if c == "\n":
            line += 1
        if c not in "{};":
            continue
        kind = stack[-1][0]
        if kind != "scope":
            if c == "{":
                stack.append(("block",))
            elif c == "}":
                top = stack.pop()
                if top[0] == "function":
                    found.append((top[1], top[2], line))
                    head_start = i + 1
            continue
        if c == ";":
            head_start = i + 1
            continue
        if c == "}":
            stack.pop()
            head_start = i + 1
            continue
        raw_head = s[head_start:i]
        head = " ".join(raw_head.split())
        head = head[ACCESS.match(head).end():]
        if NAMESPACE_HEAD.match(head) or CLASS_HEAD.match(head):
            stack.append(("scope",))
            head_start = i + 1
        elif CTOR_INIT.search(head) and not re.search(r"[)}]\s*$", head):
            # `member_{...}` in a constructor's initialiser list: the head goes on after it.
            stack.append(("init",))
        elif (FUNCTION_HEAD.search(head) or LAMBDA_HEAD.search(head)
              or (CTOR_INIT.search(head) and head.endswith("}"))):
            start = head_start + len(raw_head) - len(raw_head.lstrip())
            start = ACCESS.match(s, start).end()  # a `public:` before it is not part of it
            first = line - s[start:i].count("\n")
            stack.append(("function", function_name(head), first))
        else:
            stack.append(("block",))  # data: an initialiser, an enum
    return found


# The scanner on a sample whose functions are known: braces in comments, strings, characters
# and raw strings, a constructor with braced member initialisers, a member function, an
# operator, namespace-scope lambdas, data with braces, and a function of 82 lines.
SAMPLE = '''#include <map>
#define BRACES { {
namespace a {
namespace {
const std::map<int, int> kTable = {{1, 2}, {3, 4}};  // { not a function
/* a comment { */
int small(int x) { return x + '}' + 1'000; }
}  // namespace
class K : public B {
 public:
  K(int x) : b_{x, 2}, c_(x) {
    run();
  }
  bool operator()(int v) const { return v > 0; }
 private:
  struct Inner { int q = 1; } inner_;
  int b_[2]{};
};
const auto twice = [](int v) -> int {
  return 2 * v;
};
const auto none = [] { return 0; };
std::string K::name() const
{
  const char* s = "}}}";
  const std::string r = R"x(a{)x";
''' + "  s += 1;\n" * 76 + '''  return s;
}
}  // namespace a
'''
got = {name: (first, last) for name, first, last in functions(SAMPLE)}
expected = {"small": (7, 7), "K": (11, 13), "operator()": (14, 14), "twice": (19, 21), "none": (22, 22),
            "K::name": (23, 104)}
check(got == expected, f"the scanner finds the sample's functions and their lines: {got}")
check(got.get("K::name", (0, 0))[1] - got.get("K::name", (0, 0))[0] + 1 > MAX_FUNCTION_LINES,
      "the sample's long function is over the limit")

sizes, lengths = [], []
for top in SOURCE_DIRS:
    for folder, _, names in os.walk(os.path.join(ROOT, top)):
        for name in sorted(names):
            if not name.endswith((".cpp", ".hpp")):
                continue
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, ROOT)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            sizes.append((text.count("\n"), rel))
            for fname, first, last in functions(text):
                lengths.append((last - first + 1, f"{rel}:{first}", fname))

sizes.sort(reverse=True)
lengths.sort(reverse=True)
print(f"{len(sizes)} files, {len(lengths)} functions in {', '.join(SOURCE_DIRS)}/")
print("longest files:", ", ".join(f"{rel} ({n})" for n, rel in sizes[:3]))
print("longest functions:")
for n, where, fname in lengths[:8]:
    print(f"  {n:4d} lines  {fname}  {where}")
check(len(lengths) > 500, f"the scanner found the code's functions ({len(lengths)})")
for n, rel in sizes:
    check(n <= MAX_FILE_LINES, f"{rel} has {n} lines; at most {MAX_FILE_LINES}: split it along its seams")
for n, where, fname in lengths:
    check(n <= MAX_FUNCTION_LINES, f"{fname} ({where}) has {n} lines; at most {MAX_FUNCTION_LINES}")
finish()
