#include "sim/core/registry.hpp"
#include "sim/svc/meta_path.hpp"
#include "sim/svc/metadata_model.hpp"
#include "world.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <vector>

using namespace llsim;

namespace {

std::vector<MetaRpc> rpcs_of(MetadataModel& m, MetaOp op, const std::string& path)
{
  std::vector<MetaRpc> out;
  m.rpcs(op, path, &out);
  return out;
}

}  // namespace

TEST_CASE("metadata paths: parent, depth, prefix", "[metadata_model]")
{
  CHECK(parent_dir("/a/b/c") == "/a/b");
  CHECK(parent_dir("/a") == "/");
  CHECK(parent_dir("/") == "/");
  CHECK(path_depth("/") == 0);
  CHECK(path_depth("/a/b") == 2);
  CHECK(path_prefix("/a/b/c", 2) == "/a/b");
  CHECK(path_prefix("/a", 2) == "/a");
}

TEST_CASE("metadata models: hashed spreads paths, single keeps them on the first server", "[metadata_model]")
{
  test::World w("groups: {a: {count: 1, nic: {bandwidth: 1GBps}}}\nbackbone: {bandwidth: 1GBps}");
  auto hashed = Registry<MetadataModel>::create(w.yaml("{impl: hashed}"), {4});
  auto single = Registry<MetadataModel>::create(w.yaml("{impl: single}"), {4});
  std::vector<int> per_server(4, 0);
  for (int i = 0; i < 4000; ++i) {
    const std::string path = "/ckpt/" + std::to_string(i);
    per_server[hashed->server_of(path)] += 1;
    CHECK(single->server_of(path) == 0);
    CHECK(single->lookup_server(path) == 0);
    CHECK(hashed->server_of(path) == hashed->server_of(path));
  }
  for (int n : per_server)
    CHECK(n == Approx(1000).epsilon(0.1));
}

TEST_CASE("metadata models: what a create in a shared directory costs", "[metadata_model]")
{
  test::World w("groups: {a: {count: 1, nic: {bandwidth: 1GBps}}}\nbackbone: {bandwidth: 1GBps}");
  auto hashed    = Registry<MetadataModel>::create(w.yaml("{impl: hashed}"), {16});
  auto decoupled = Registry<MetadataModel>::create(w.yaml("{impl: decoupled}"), {16});
  auto subtree   = Registry<MetadataModel>::create(w.yaml("{impl: subtree, depth: 1}"), {16});
  std::set<size_t> hashed_parent, decoupled_servers, subtree_servers;
  for (int i = 0; i < 1000; ++i) {
    const std::string path = "/shared/f" + std::to_string(i);
    const auto h           = rpcs_of(*hashed, MetaOp::Create, path);
    // The inode on hash(path), the parent's attributes on hash(parent): always the same server.
    REQUIRE(h.size() == 2);
    CHECK(h[0].inodes == 1);
    CHECK(h[1].inodes == 0);
    CHECK(h[1].server == hashed->server_of("/shared"));
    hashed_parent.insert(h[1].server);
    const auto d = rpcs_of(*decoupled, MetaOp::Create, path);
    REQUIRE(d.size() == 1);
    decoupled_servers.insert(d[0].server);
    subtree_servers.insert(rpcs_of(*subtree, MetaOp::Create, path)[0].server);
  }
  CHECK(hashed_parent.size() == 1);
  CHECK(decoupled_servers.size() == 16);
  CHECK(subtree_servers.size() == 1);
  CHECK(decoupled->parallel_lookups());
  CHECK_FALSE(hashed->parallel_lookups());
  // A stat changes nothing: one RPC, no inode.
  const auto stat = rpcs_of(*hashed, MetaOp::Stat, "/shared/f1");
  CHECK((stat.size() == 1 && stat[0].inodes == 0));
  // A readdir asks every server when entries are spread, one server otherwise.
  CHECK(rpcs_of(*decoupled, MetaOp::Readdir, "/shared").size() == 16);
  CHECK(rpcs_of(*hashed, MetaOp::Readdir, "/shared").size() == 16);
  CHECK(rpcs_of(*subtree, MetaOp::Readdir, "/shared").size() == 1);
  CHECK(rpcs_of(*hashed, MetaOp::Unlink, "/shared/f1")[0].inodes == -1);
}

TEST_CASE("metadata models: subtree rebalancing moves a hot subtree, never a lone hotspot", "[metadata_model]")
{
  test::World w("groups: {a: {count: 1, nic: {bandwidth: 1GBps}}}\nbackbone: {bandwidth: 1GBps}");
  // Find two top-level directories that share a server out of 4.
  auto probe    = Registry<MetadataModel>::create(w.yaml("{impl: subtree, depth: 1}"), {4});
  std::string a = "/d0", b;
  for (int i = 1; b.empty(); ++i)
    if (probe->lookup_server("/d" + std::to_string(i)) == probe->lookup_server(a))
      b = "/d" + std::to_string(i);
  auto moving = Registry<MetadataModel>::create(
      w.yaml("{impl: subtree, depth: 1, rebalance: {threshold: 1.5, window: 100}}"), {4});
  auto fixed = Registry<MetadataModel>::create(w.yaml("{impl: subtree, depth: 1}"), {4});
  std::vector<MetaRpc> out;
  for (int i = 0; i < 100; ++i) {
    moving->rpcs(MetaOp::Create, (i % 2 ? a : b) + "/f" + std::to_string(i), &out);
    fixed->rpcs(MetaOp::Create, (i % 2 ? a : b) + "/f" + std::to_string(i), &out);
  }
  CHECK(moving->lookup_server(a) != moving->lookup_server(b));
  CHECK(fixed->lookup_server(a) == fixed->lookup_server(b));
  // One directory alone: moving it would only move the hotspot.
  auto lone = Registry<MetadataModel>::create(
      w.yaml("{impl: subtree, depth: 1, rebalance: {threshold: 1.5, window: 100}}"), {4});
  const size_t before = lone->lookup_server(a);
  for (int i = 0; i < 1000; ++i)
    lone->rpcs(MetaOp::Create, a + "/f" + std::to_string(i), &out);
  CHECK(lone->lookup_server(a) == before);
}
