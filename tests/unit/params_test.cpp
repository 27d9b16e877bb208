#include "sim/core/errors.hpp"
#include "sim/core/params.hpp"
#include "sim/core/text.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

namespace {

YamlRef parse(const std::string& text, std::shared_ptr<SourceInfo> source = nullptr)
{
  if (!source) {
    source       = std::make_shared<SourceInfo>();
    source->file = "test.yaml";
  }
  return YamlRef(YAML::Load(text), "job", source);
}

const ParamTable kTable = {
    ParamSpec::quantity("bytes", Dimension::Size, "payload").positive(),
    ParamSpec::integer("streams", "streams").defaults("4").at_least(1),
    ParamSpec::quantity("bandwidth", Dimension::Bandwidth, "link").defaults("1GBps"),
    ParamSpec::text("mode", "mode").may_be_absent(),
};

}  // namespace

TEST_CASE("params: values, defaults written back", "[params]")
{
  const YamlRef ref = parse("bytes: 2GB\n");
  const Params p(ref, kTable);
  CHECK(p.size("bytes").value == 2e9);
  CHECK(p.integer("streams") == 4);
  CHECK(p.bandwidth("bandwidth").value == 1e9);
  CHECK(ref.node()["streams"].Scalar() == "4");  // resolved.yaml will show the default
  CHECK(p.text("mode").empty());
  CHECK(!p.has("mode"));
}

TEST_CASE("params: unknown key names the nearest valid key and the line", "[params]")
{
  const YamlRef ref = parse("bytes: 2GB\nstreems: 3\n");
  CHECK_THROWS_WITH(Params(ref, kTable),
                    Catch::StartsWith("test.yaml:2:1: job.streems:") && Catch::Contains("did you mean 'streams'"));
}

TEST_CASE("params: missing required key", "[params]")
{
  const YamlRef ref = parse("streams: 3\n");
  const Params p(ref, kTable);
  CHECK_THROWS_WITH(p.size("bytes"), Catch::Contains("test.yaml:1:1: job: missing required key 'bytes'"));
}

TEST_CASE("params: unit and range errors carry line, column and path", "[params]")
{
  const YamlRef ref = parse("bytes: 2GB\nstreams: 0\nbandwidth: 3TB/s\n");
  const Params p(ref, kTable);
  CHECK_THROWS_WITH(p.integer("streams"), Catch::StartsWith("test.yaml:2:10: job.streams:") && Catch::Contains(">= 1"));
  CHECK_THROWS_WITH(p.bandwidth("bandwidth"),
                    Catch::StartsWith("test.yaml:3:12: job.bandwidth:") && Catch::Contains("unknown unit 'TB/s'"));
  const Params negative(parse("bytes: -1GB\n"), kTable);
  CHECK_THROWS_WITH(negative.size("bytes"), Catch::Contains("value -1 GB is out of range (expected > 0 B)"));
  const Params fraction(parse("bytes: 1GB\nstreams: 2.5\n"), kTable);
  CHECK_THROWS_WITH(fraction.integer("streams"), Catch::Contains("whole number"));
}

TEST_CASE("params: not a mapping", "[params]")
{
  CHECK_THROWS_AS(Params(parse("[1, 2]"), kTable), ConfigError);
}

TEST_CASE("params: an overridden value is located at its --set argument", "[params]")
{
  auto source                    = std::make_shared<SourceInfo>();
  source->file                   = "test.yaml";
  source->overrides["job.bytes"] = "--set job.bytes=oops";
  YAML::Node node                = YAML::Load("bytes: 1GB\n");
  node["bytes"]                  = YAML::Load("oops");
  const Params p(YamlRef(node, "job", source), kTable);
  CHECK_THROWS_WITH(p.size("bytes"), Catch::StartsWith("--set job.bytes=oops: job.bytes:"));
}

TEST_CASE("params: reading an undeclared key is a programming error", "[params]")
{
  const Params p(parse("bytes: 1GB\n"), kTable);
  CHECK_THROWS_AS(p.quantity("nope"), std::logic_error);
  CHECK_THROWS_AS(p.text("bytes"), std::logic_error);
}

TEST_CASE("params: flags and lists", "[params]")
{
  const ParamTable table = {ParamSpec::flag("async", "asynchronous").defaults("false"),
                            ParamSpec::text_list("after", "dependencies").defaults("[]")};
  const Params p(parse("async: true\nafter: [a, b]\n"), table);
  CHECK(p.flag("async"));
  CHECK(p.text_list("after") == std::vector<std::string>{"a", "b"});
  const Params defaults(parse("{}"), table);
  CHECK_FALSE(defaults.flag("async"));
  CHECK(defaults.text_list("after").empty());
  const Params single(parse("after: a\n"), table);
  CHECK(single.text_list("after") == std::vector<std::string>{"a"});
  const Params bad(parse("async: maybe\nafter: {x: 1}\n"), table);
  CHECK_THROWS_WITH(bad.flag("async"), Catch::Contains("test.yaml:1:8: job.async: expected true or false"));
  CHECK_THROWS_WITH(bad.text_list("after"), Catch::Contains("expected a list of strings"));
}

TEST_CASE("params: a section given in part takes the keys it lacks from its default", "[params]")
{
  static const ParamTable inner = {ParamSpec::text("impl", "which"), ParamSpec::integer("n", "count").defaults("1")};
  static const ParamTable outer = {
      ParamSpec::section("model", "a section with a default").defaults("{impl: roofline}").with_fields(inner)};
  const Params p(parse("{model: {n: 3}}"), outer);
  const Params m = p.section("model", inner);
  CHECK(m.text("impl") == "roofline");
  CHECK(m.integer("n") == 3);
  CHECK(Params(parse("{model: {impl: table}}"), outer).section("model", inner).text("impl") == "table");
}

TEST_CASE("params: a value filled in from its default is located at the mapping that lacks it", "[params]")
{
  // Three lines down, so that the default's own text (line 1) cannot be mistaken for its place.
  const YamlRef top = parse("name: x\nother: 1\njob:\n  bytes: 2GB\n");
  const Params p(top.child("job"), kTable);
  const YamlRef streams = p.raw("streams");
  CHECK(p.integer("streams") == 4);
  CHECK(top.child("job").child("streams").location() == "test.yaml:4:3");
  CHECK(streams.location() == "test.yaml:4:3");
}

TEST_CASE("params: range errors state figures in the parameter's unit, told apart from the bound", "[params]")
{
  const ParamTable table = {ParamSpec::quantity("gap", Dimension::Duration, "a gap").defaults("1s").at_least(60),
                            ParamSpec::quantity("size", Dimension::Size, "a size").defaults("1GB").at_most(3.4e9)};
  CHECK_THROWS_WITH(Params(parse("gap: 30s\n"), table).quantity("gap"),
                    Catch::Contains("value 30 s is out of range (expected >= 60 s)"));
  CHECK_THROWS_WITH(Params(parse("size: 3.4001GB\n"), table).quantity("size"),
                    Catch::Contains("value 3.4001 GB is out of range (expected <= 3.4 GB)"));
}

namespace {
std::vector<std::string> colour_names()
{
  return {"red", "blue"};
}
}  // namespace

TEST_CASE("params: a one_of key or a key among names takes one of its words, else one message at the value", "[params]")
{
  const ParamTable table = {
      ParamSpec::one_of("shape", {"round", "square", "flat"}, "shape").defaults("round"),
      ParamSpec::text("colour", "colour").among(&colour_names).defaults("red"),
  };
  CHECK(Params(parse("shape: flat\n"), table).text("shape") == "flat");
  CHECK(Params(parse("{}\n"), table).text("shape") == "round");
  CHECK(Params(parse("colour: blue\n"), table).text("colour") == "blue");
  CHECK_THROWS_WITH(
      Params(parse("shape: oval\n"), table).text("shape"),
      Catch::StartsWith("test.yaml:1:8: job.shape: unknown shape 'oval' (expected round, square or flat)"));
  CHECK_THROWS_WITH(Params(parse("colour: green\n"), table).text("colour"),
                    Catch::Contains("job.colour: unknown colour 'green' (expected red or blue)"));
  CHECK(either({"a"}) == "a");
  CHECK(either({"a", "b"}) == "a or b");
  CHECK(either({"a", "b", "c"}) == "a, b or c");
}
