#include "sim/core/errors.hpp"
#include "sim/core/yaml_checks.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

namespace {

std::string at(const YAML::Mark& m)
{
  return "f:" + std::to_string(m.line + 1);
}

YamlShape check(const std::string& text)
{
  return check_yaml_document(YAML::Load(text), at);
}

}  // namespace

TEST_CASE("yaml checks: a key given twice names both lines", "[yaml_checks]")
{
  CHECK_THROWS_WITH(check("a: 1\nb:\n  c: 1\n  c: 2\n"), Catch::Contains("f:4: duplicate key 'c' (first at f:3)"));
  CHECK_THROWS_WITH(check("l: [{x: 1}, {y: 1, y: 2}]"), Catch::Contains("duplicate key 'y'"));
  CHECK_NOTHROW(check("a: {c: 1}\nb: {c: 1}\n"));  // the same key in two mappings is fine
}

TEST_CASE("yaml checks: merge keys and non-scalar keys are refused", "[yaml_checks]")
{
  CHECK_THROWS_WITH(check("a: &x {k: 1}\nb: {<<: *x}\n"), Catch::Contains("merge keys (<<) are not supported"));
  CHECK_THROWS_WITH(check("? [1, 2]\n: v\n"), Catch::Contains("expected a plain key, got a sequence"));
}

TEST_CASE("yaml checks: aliases work and the nodes they reach are reported as shared", "[yaml_checks]")
{
  const YamlShape shape = check("a: &x {k: 1}\nb: *x\nc: {k: 1}\n");
  const YAML::Node root = YAML::Load("a: &x {k: 1}\nb: *x\nc: {k: 1}\n");
  CHECK(shape.shared.size() == 2);  // the mapping and the value inside it
  CHECK(shape.shared.count(root["a"].Mark().pos) == 1);
  CHECK(shape.shared.count(root["a"]["k"].Mark().pos) == 1);
  CHECK(shape.shared.count(root["c"].Mark().pos) == 0);
}

TEST_CASE("yaml checks: an anchored first key is not its mapping, though both start at one position", "[yaml_checks]")
{
  // `&n k:` opens the mapping at the anchor's position; `*n` is the one-word key, not the mapping.
  std::string wide = "m:\n  &n k: [x";
  for (int i = 1; i < 1000; ++i)
    wide += ", x";
  wide += "]\nu: [*n";
  for (int i = 1; i < 1000; ++i)
    wide += ", *n";
  CHECK_NOTHROW(check(wide + "]\n"));  // about 2,000 nodes, not 1000 times the mapping
  const std::string deep = "m:\n  &n k: " + std::string(50, '[') + "x" + std::string(50, ']') +
                           "\nx: " + std::string(20, '[') + "*n" + std::string(20, ']') + "\n";
  CHECK_NOTHROW(check(deep));  // 51 levels deep, not 20 + 51
  // A key used through an alias shares its position with its mapping, which --set must then leave alone.
  const std::string text = "- &k name: bag\n  master: *k\n";
  const YamlShape shape  = check(text);
  CHECK(shape.shared.count(YAML::Load(text)[0].Mark().pos) == 1);
}

TEST_CASE("yaml checks: expansion and depth are bounded", "[yaml_checks]")
{
  // Seven levels of ten aliases each: 10^7 nodes from eight lines.
  std::string bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < 7; ++i) {
    const std::string previous = "*a" + std::to_string(i - 1);
    bomb += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [" + previous;
    for (int k = 1; k < 10; ++k)
      bomb += ", " + previous;
    bomb += "]\n";
  }
  CHECK_THROWS_WITH(check(bomb), Catch::Contains("more than 1000000 YAML nodes"));
  CHECK_THROWS_WITH(check("a: &p [*p]\n"), Catch::Contains("nested deeper than 64 levels"));
  // An aliased subtree counts at its expanded size and depth though it is walked once.
  const auto aliases_of_a_list = [](int uses) {
    std::string text = "a: &a [x";
    for (int i = 1; i < 999; ++i)
      text += ", x";
    text += "]\nb: [*a";
    for (int i = 1; i < uses; ++i)
      text += ", *a";
    return text + "]\n";
  };
  CHECK_NOTHROW(check(aliases_of_a_list(998)));  // 1 + 1000 + 1 + 998 * 1000 = 999,002 nodes
  CHECK_THROWS_WITH(check(aliases_of_a_list(999)), Catch::Contains("more than 1000000 YAML nodes"));  // 1,001,002
  const auto chain_of_anchors = [](int links) {
    std::string text = "l0: &l0 [x]\n";
    for (int i = 1; i < links; ++i)
      text += "l" + std::to_string(i) + ": &l" + std::to_string(i) + " [*l" + std::to_string(i - 1) + "]\n";
    return text;
  };
  CHECK_NOTHROW(check(chain_of_anchors(63)));  // the last x at depth 1 + 63
  CHECK_THROWS_WITH(check(chain_of_anchors(64)), Catch::Contains("nested deeper than 64 levels"));
  std::string deep = "a: ";
  for (size_t i = 0; i < kMaxYamlDepth - 2; ++i)
    deep += "[";
  deep += std::string(kMaxYamlDepth - 2, ']');
  CHECK_NOTHROW(check(deep));
}
