#include "sim/serve/kv/kv_blocks.hpp"
#include "sim/serve/kv/swap_space.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

TEST_CASE("kv blocks: a holder grows by whole blocks, none taken when too few are free", "[kv_blocks]")
{
  KvBlocks kv({10, 16, 2, false, 512});
  int64_t held = 0;
  CHECK(kv.blocks_for(33) == 3);
  CHECK(kv.grow(held, 33));
  CHECK((held == 3 && kv.free() == 7 && kv.used() == 3));
  CHECK(kv.grow(held, 40));  // still 3 blocks
  CHECK(kv.free() == 7);
  CHECK_FALSE(kv.grow(held, 16 * 11));  // 11 blocks: 8 more, 7 free
  CHECK((held == 3 && kv.free() == 7));
  CHECK(kv.admits(5));        // leaves the watermark's 2 free
  CHECK_FALSE(kv.admits(6));  // would eat into it
  CHECK(kv.used_share() == Approx(0.3));
  kv.release(held);
  CHECK((held == 0 && kv.free() == 10));
}

TEST_CASE("kv blocks: blocks_for is the ceiling of tokens over the block size, whatever the size", "[kv_blocks]")
{
  // Powers of two take a shift, other sizes a division: both must give the same counts.
  for (int64_t block_size : {1, 2, 16, 24, 100, 512, 1000}) {
    KvBlocks kv({10, block_size, 0, false, 512});
    for (int64_t tokens = 0; tokens <= 3000; ++tokens) {
      const int64_t expected = tokens / block_size + (tokens % block_size != 0 ? 1 : 0);
      if (kv.blocks_for(tokens) != expected)
        FAIL("block size " << block_size << ", " << tokens << " tokens: " << kv.blocks_for(tokens) << " blocks, not "
                           << expected);
    }
    CHECK(kv.blocks_for(int64_t{1} << 40) == ((int64_t{1} << 40) + block_size - 1) / block_size);
  }
}

TEST_CASE("kv blocks: the prefix cache lives in the free blocks and goes with a failure", "[kv_blocks]")
{
  KvBlocks kv({8, 16, 0, true, 32});  // a hash block is 2 KV blocks
  const std::vector<uint64_t> prompt = {1, 2, 3};
  kv.trim();  // 8 free blocks hold 4 hash blocks
  kv.remember(prompt);
  CHECK(kv.cached_blocks(prompt) == 3);
  int64_t held = 0;
  kv.grow(held, 16 * 6);
  kv.trim();  // 2 free blocks hold 1: the prompt's last two go first, its head stays
  CHECK(kv.cached_blocks({1}) == 1);
  CHECK(kv.cached_blocks({3}) == 0);
  CHECK(kv.cached_blocks(prompt) == 1);
  kv.reset();
  CHECK((kv.free() == 8 && kv.cached_blocks({1}) == 0));
  KvBlocks none({8, 16, 0, false, 32});
  none.remember(prompt);
  CHECK(none.cached_blocks(prompt) == 0);
}

TEST_CASE("swap space: sequences come back earliest first; the moves are this iteration's", "[kv_blocks]")
{
  SwapSpace swap(10);
  CHECK(swap.enabled());
  swap.put(7, 4);
  swap.put(3, 5);
  CHECK_FALSE(swap.fits(2));
  CHECK((swap.front() == 3 && swap.blocks_of(7) == 4 && swap.blocks_of(9) == 0));
  CHECK(swap.take_front() == 5);
  CHECK(swap.moved_blocks() == 14);  // out 4, out 5, in 5
  REQUIRE(swap.moves().size() == 3);
  CHECK((!swap.moves()[2].out && swap.moves()[2].id == 3));
  swap.new_iteration();
  CHECK(swap.moves().empty());
  swap.drop(7);  // its KV is gone: no move
  CHECK((swap.empty() && swap.fits(10) && swap.moves().empty()));
  swap.put(1, 10);
  swap.reset();
  CHECK((swap.empty() && swap.fits(10) && swap.moves().size() == 1));
  CHECK_FALSE(SwapSpace(0).enabled());
}
