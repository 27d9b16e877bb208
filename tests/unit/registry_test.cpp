#include "sim/core/errors.hpp"
#include "sim/core/registry.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

namespace {

struct Greeter {
  struct Context {
    std::string suffix;
  };
  static constexpr const char* kInterfaceName = "greeter";
  static constexpr const char* kHeader        = "tests/unit/registry_test.cpp";
  static constexpr const char* kSelector      = "impl";
  virtual ~Greeter()                          = default;
  virtual std::string greet() const           = 0;
};

const ParamTable kHelloParams = {ParamSpec::text("who", "whom to greet").defaults("world")};
const ParamTable kNoParams    = {};

struct Hello : Greeter {
  Hello(const Params& p, const Context& c)
      : text_("hello " + p.text("who") + c.suffix)
  {}
  std::string greet() const override { return text_; }
  std::string text_;
};

struct Quiet : Greeter {
  Quiet(const Params&, const Context&) {}
  std::string greet() const override { return "..."; }
};

LLSIM_REGISTER(Greeter, "hello", Hello, "says hello", kHelloParams);
LLSIM_REGISTER(Greeter, "quiet", Quiet, "says nothing", kNoParams);

YamlRef parse(const std::string& text)
{
  auto source  = std::make_shared<SourceInfo>();
  source->file = "g.yaml";
  return YamlRef(YAML::Load(text), "greeter", source);
}

}  // namespace

TEST_CASE("registry: impl selects the model and passes parameters and context", "[registry]")
{
  CHECK(Registry<Greeter>::create(parse("{impl: hello, who: llsim}"), {"!"})->greet() == "hello llsim!");
  CHECK(Registry<Greeter>::create(parse("{impl: quiet}"), {""})->greet() == "...");
}

TEST_CASE("registry: unknown name lists the valid ones", "[registry]")
{
  CHECK_THROWS_WITH(Registry<Greeter>::create(parse("{impl: helo}"), {""}),
                    Catch::Contains("greeter.impl") && Catch::Contains("did you mean 'hello'") &&
                        Catch::Contains("(expected hello or quiet)"));
  CHECK_THROWS_WITH(Registry<Greeter>::create(parse("{who: x}"), {""}), Catch::Contains("missing 'impl:'"));
}

TEST_CASE("registry: a model's unknown keys are errors", "[registry]")
{
  CHECK_THROWS_WITH(Registry<Greeter>::create(parse("{impl: quiet, who: x}"), {""}),
                    Catch::Contains("unknown key 'who'"));
}

TEST_CASE("registry: a duplicate name is refused and reported", "[registry]")
{
  const size_t errors_before = RegistryCatalog::errors().size();
  CHECK_FALSE(Registry<Greeter>::add("hello", "again", kNoParams, nullptr));
  REQUIRE(RegistryCatalog::errors().size() == errors_before + 1);
  CHECK(RegistryCatalog::errors().back().find("'hello'") != std::string::npos);
  RegistryCatalog::errors().pop_back();  // leave the catalogue clean for other tests
}

TEST_CASE("registry: the catalogue lists interfaces and models", "[registry]")
{
  bool found = false;
  for (const auto& i : RegistryCatalog::interfaces())
    if (i.name == "greeter") {
      found = true;
      CHECK(i.models().size() == 2);
    }
  CHECK(found);
}
